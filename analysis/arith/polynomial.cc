// Monomial and polynomial arithmetic of the canonical form. Results are built in fresh vectors
// (so outputs may alias inputs) and every coefficient operation is overflow-checked.
#include <algorithm>

#include "analysis/arith/canonical.h"
#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

bool Monomial::operator==(const Monomial& o) const {
  if (degree != o.degree) return false;
  for (int i = 0; i < degree; ++i) {
    if (atoms[i] != o.atoms[i]) return false;
  }
  return true;
}

int compare(const Monomial& a, const Monomial& b) {
  int n = std::min(a.degree, b.degree);
  for (int i = 0; i < n; ++i) {
    if (a.atoms[i] != b.atoms[i]) return a.atoms[i] < b.atoms[i] ? -1 : 1;
  }
  if (a.degree != b.degree) return a.degree < b.degree ? -1 : 1;
  return 0;
}

bool multiply(const Monomial& a, const Monomial& b, Monomial* out) {
  if (a.degree + b.degree > kMaxDegree) return false;
  Monomial r;
  int i = 0, j = 0;
  while (i < a.degree || j < b.degree) {
    if (j >= b.degree || (i < a.degree && a.atoms[i] <= b.atoms[j])) {
      r.atoms[r.degree++] = a.atoms[i++];
    } else {
      r.atoms[r.degree++] = b.atoms[j++];
    }
  }
  *out = r;
  return true;
}

bool divide(const Monomial& a, const Monomial& b, Monomial* out) {
  Monomial r;
  int j = 0;
  for (int i = 0; i < a.degree; ++i) {
    if (j < b.degree && a.atoms[i] == b.atoms[j]) {
      ++j;
    } else {
      if (j < b.degree && b.atoms[j] < a.atoms[i]) return false;  // b has an atom a lacks
      r.atoms[r.degree++] = a.atoms[i];
    }
  }
  if (j != b.degree) return false;
  *out = r;
  return true;
}

bool Poly::operator==(const Poly& o) const {
  if (constant != o.constant || terms.size() != o.terms.size()) return false;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].coeff != o.terms[i].coeff || !(terms[i].mono == o.terms[i].mono)) return false;
  }
  return true;
}

bool poly_add(const Poly& a, const Poly& b, int64_t k, Poly* out) {
  Poly r;
  if (!checked_mul(b.constant, k, &r.constant) || !checked_add(a.constant, r.constant, &r.constant))
    return false;
  if (k == 0) {
    r.terms = a.terms;
    *out = std::move(r);
    return true;
  }
  r.terms.reserve(a.terms.size() + b.terms.size());
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    int c = i >= a.terms.size()
                ? 1
                : (j >= b.terms.size() ? -1 : compare(a.terms[i].mono, b.terms[j].mono));
    if (c < 0) {
      r.terms.push_back(a.terms[i++]);
      continue;
    }
    int64_t scaled;
    if (!checked_mul(b.terms[j].coeff, k, &scaled)) return false;
    if (c > 0) {
      r.terms.push_back({b.terms[j++].mono, scaled});
      continue;
    }
    int64_t sum;
    if (!checked_add(a.terms[i].coeff, scaled, &sum)) return false;
    if (sum != 0) r.terms.push_back({a.terms[i].mono, sum});
    ++i;
    ++j;
  }
  *out = std::move(r);
  return true;
}

bool poly_scale(const Poly& a, int64_t k, Poly* out) {
  Poly r;
  if (k == 0) {
    *out = r;
    return true;
  }
  if (!checked_mul(a.constant, k, &r.constant)) return false;
  r.terms.reserve(a.terms.size());
  for (const Term& t : a.terms) {
    int64_t c;
    if (!checked_mul(t.coeff, k, &c)) return false;
    r.terms.push_back({t.mono, c});
  }
  *out = std::move(r);
  return true;
}

bool poly_add_const(Poly* p, int64_t k) {
  return checked_add(p->constant, k, &p->constant);
}

bool poly_mul(const Poly& a, const Poly& b, Poly* out) {
  if (a.is_const()) return poly_scale(b, a.constant, out);
  if (b.is_const()) return poly_scale(a, b.constant, out);
  size_t estimate = a.terms.size() * b.terms.size() + a.terms.size() + b.terms.size();
  if (estimate > 4 * kMaxTerms) return false;
  std::vector<Term> raw;
  raw.reserve(estimate);
  for (const Term& x : a.terms) {
    for (const Term& y : b.terms) {
      Term t;
      if (!multiply(x.mono, y.mono, &t.mono) || !checked_mul(x.coeff, y.coeff, &t.coeff))
        return false;
      raw.push_back(t);
    }
  }
  for (const Term& x : a.terms) {
    int64_t c;
    if (b.constant == 0) break;
    if (!checked_mul(x.coeff, b.constant, &c)) return false;
    raw.push_back({x.mono, c});
  }
  for (const Term& y : b.terms) {
    int64_t c;
    if (a.constant == 0) break;
    if (!checked_mul(y.coeff, a.constant, &c)) return false;
    raw.push_back({y.mono, c});
  }
  std::stable_sort(raw.begin(), raw.end(),
                   [](const Term& x, const Term& y) { return compare(x.mono, y.mono) < 0; });
  Poly r;
  if (!checked_mul(a.constant, b.constant, &r.constant)) return false;
  for (size_t i = 0; i < raw.size();) {
    int64_t sum = raw[i].coeff;
    size_t j = i + 1;
    for (; j < raw.size() && raw[j].mono == raw[i].mono; ++j) {
      if (!checked_add(sum, raw[j].coeff, &sum)) return false;
    }
    if (sum != 0) r.terms.push_back({raw[i].mono, sum});
    i = j;
  }
  if (r.terms.size() > kMaxTerms) return false;
  *out = std::move(r);
  return true;
}

bool poly_exact_div(const Poly& a, const Poly& b, Poly* out) {
  if (b.is_zero()) return false;
  if (a.is_zero()) {
    *out = Poly();
    return true;
  }
  if (b.terms.size() == 1 && b.constant == 0) {
    // A monomial divisor c * m: every term must be a multiple of it.
    const Term& d = b.terms[0];
    if (a.constant != 0) return false;
    Poly r;
    for (const Term& t : a.terms) {
      Monomial q;
      if (t.coeff % d.coeff != 0 || !divide(t.mono, d.mono, &q)) return false;
      int64_t c = t.coeff / d.coeff;
      if (q.degree == 0) {
        if (!checked_add(r.constant, c, &r.constant)) return false;
      } else {
        r.terms.push_back({q, c});
      }
    }
    // Dividing by the same monomial is injective but may reorder (x*z, x*y*z by z: x, x*y).
    std::sort(r.terms.begin(), r.terms.end(),
              [](const Term& x, const Term& y) { return compare(x.mono, y.mono) < 0; });
    *out = std::move(r);
    return true;
  }
  // Otherwise only a constant multiple: a == k * b.
  if (a.terms.size() != b.terms.size()) return false;
  int64_t k;
  if (!b.terms.empty()) {
    if (a.terms.empty() || a.terms[0].coeff % b.terms[0].coeff != 0) return false;
    k = a.terms[0].coeff / b.terms[0].coeff;
  } else {
    if (a.constant % b.constant != 0) return false;
    k = a.constant / b.constant;
  }
  Poly check;
  if (!poly_scale(b, k, &check) || !(check == a)) return false;
  *out = Poly::constant_of(k);
  return true;
}

int64_t poly_content(const Poly& p) {
  int64_t g = 0;
  for (const Term& t : p.terms) g = gcd_i64(g, t.coeff);
  return g;
}

int compare(const Poly& a, const Poly& b) {
  size_t n = std::min(a.terms.size(), b.terms.size());
  for (size_t i = 0; i < n; ++i) {
    int c = compare(a.terms[i].mono, b.terms[i].mono);
    if (c != 0) return c;
    if (a.terms[i].coeff != b.terms[i].coeff) return a.terms[i].coeff < b.terms[i].coeff ? -1 : 1;
  }
  if (a.terms.size() != b.terms.size()) return a.terms.size() < b.terms.size() ? 1 : -1;
  if (a.constant != b.constant) return a.constant < b.constant ? -1 : 1;
  return 0;
}

size_t poly_hash(const Poly& p) {
  auto mix = [](size_t h, size_t v) {
    return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  };
  size_t h = mix(0x2545f491, static_cast<size_t>(p.constant));
  for (const Term& t : p.terms) {
    h = mix(h, t.mono.degree);
    for (AtomId a : t.mono.ids()) h = mix(h, a);
    h = mix(h, static_cast<size_t>(t.coeff));
  }
  return h;
}

bool poly_fits(const Poly& p, DataType t) {
  if (t.bits() >= 64) return true;  // the coefficient invariant already holds
  if (!fits_dtype(t, p.constant)) return false;
  for (const Term& term : p.terms) {
    if (!fits_dtype(t, term.coeff)) return false;
  }
  return true;
}

}  // namespace relax::analysis::arith
