// Canonical rules for the non-polynomial operators: floor and truncating division and modulo
// (by constants: pull out divisible terms, reduce by the gcd, fold the constant remainder, use
// bounds; by polynomials: exact quotients), min/max (flattened, deduplicated, dominated operands
// dropped, common terms pulled out), select and casts.
#include <algorithm>
#include <cmath>

#include "analysis/arith/canonical.h"
#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;

// Depth of the division rules that call each other (nested floordiv, floormod of floormod).
constexpr int kMaxDivDepth = 4;
// Pairwise dominance checks among min/max operands are quadratic; skip them past this.
constexpr size_t kMaxDominanceOperands = 8;
// Splits of min/max operands in strong_bound when checking dominance.
constexpr int kDominanceDepth = 2;

// Removes the terms all operands share with equal coefficients (and the constant, when all
// constants agree) and returns them: min(x + y, x + z) == x + min(y, z).
Poly extract_common(std::vector<Poly>& ops) {
  Poly common;
  common.terms = ops[0].terms;
  for (size_t i = 1; i < ops.size() && !common.terms.empty(); ++i) {
    std::vector<Term> kept;
    for (const Term& t : common.terms) {
      for (const Term& u : ops[i].terms) {
        if (u.mono == t.mono) {
          if (u.coeff == t.coeff) kept.push_back(t);
          break;
        }
      }
    }
    common.terms = std::move(kept);
  }
  bool same_constant = std::all_of(ops.begin(), ops.end(),
                                   [&](const Poly& p) { return p.constant == ops[0].constant; });
  if (same_constant) common.constant = ops[0].constant;
  if (common.is_zero()) return common;
  for (Poly& p : ops) {
    Poly r;
    poly_add(p, common, -1, &r);  // cannot overflow: it removes terms and the constant exactly
    p = std::move(r);
  }
  return common;
}

// The largest monomial times positive constant dividing every term of a and b (the monomial only
// when neither has a constant term).
Poly common_factor(const Poly& a, const Poly& b) {
  int64_t g = gcd_i64(gcd_i64(poly_content(a), a.constant), gcd_i64(poly_content(b), b.constant));
  Poly f = Poly::constant_of(g == 0 ? 1 : g);
  if (a.constant != 0 || b.constant != 0 || a.terms.empty() || b.terms.empty()) return f;
  // Intersect the atom multisets of every monomial.
  Monomial common = a.terms[0].mono;
  auto intersect = [](const Monomial& x, const Monomial& y) {
    Monomial r;
    int i = 0, j = 0;
    while (i < x.degree && j < y.degree) {
      if (x.atoms[i] == y.atoms[j]) {
        r.atoms[r.degree++] = x.atoms[i];
        ++i;
        ++j;
      } else if (x.atoms[i] < y.atoms[j]) {
        ++i;
      } else {
        ++j;
      }
    }
    return r;
  };
  for (const Poly* p : {&a, &b}) {
    for (const Term& t : p->terms) common = intersect(common, t.mono);
  }
  if (common.degree == 0) return f;
  f.terms.push_back({common, f.constant});
  f.constant = 0;
  return f;
}

}  // namespace

Poly Simplifier::canon_div(const PrimExpr* e) {
  auto* node = static_cast<const tir::BinaryOp*>(e);
  DataType t = e->dtype;
  ObjectKind kind = e->kind();
  bool mod = kind == ObjectKind::kMod || kind == ObjectKind::kFloorMod;
  bool floor = kind == ObjectKind::kFloorDiv || kind == ObjectKind::kFloorMod;
  Poly num = canon(node->a);
  Poly den = canon(node->b);
  Poly out;
  if (den.is_const()) {
    int64_t c = den.constant;
    if (c != 0) {
      bool ok =
          floor ? divmod_const(num, c, mod, t, &out) : truncdivmod_const(num, c, mod, t, &out);
      if (ok && poly_fits(out, t)) return out;
    }
    // Division by zero stays as written; so does a rule that overflowed.
    return opaque(tir::binary(kind, render(num, t), render(den, t)));
  }
  // A polynomial divisor. The program divides by it, so it is taken to be non-zero.
  Poly q;
  if (poly_exact_div(num, den, &q)) return mod ? Poly() : q;
  // A common factor g cancels: div(g*a, g*b) == div(a, b) and mod(g*a, g*b) == g * mod(a, b), for
  // floor and truncation alike and for either sign of g.
  Poly factor = common_factor(num, den);
  if (!factor.is_const() || factor.constant > 1) {
    Poly a, b;
    if (poly_exact_div(num, factor, &a) && poly_exact_div(den, factor, &b)) {
      Poly r;
      bool ok;
      if (b.is_const()) {
        ok = floor ? divmod_const(a, b.constant, mod, t, &r)
                   : truncdivmod_const(a, b.constant, mod, t, &r);
      } else {
        AtomKind ak = floor ? (mod ? AtomKind::kFloorMod : AtomKind::kFloorDiv)
                            : (mod ? AtomKind::kTruncMod : AtomKind::kTruncDiv);
        r = atom_poly(ak, t, {std::move(a), std::move(b)});
        ok = true;
      }
      if (ok && (!mod || poly_mul(r, factor, &r)) && poly_fits(r, t)) return r;
    }
  }
  if (!floor && bound(num).min_value >= 0 && bound(den).min_value > 0) floor = true;
  AtomKind ak = floor ? (mod ? AtomKind::kFloorMod : AtomKind::kFloorDiv)
                      : (mod ? AtomKind::kTruncMod : AtomKind::kTruncDiv);
  return atom_poly(ak, t, {std::move(num), std::move(den)});
}

bool Simplifier::divmod_const(const Poly& a, int64_t c, bool mod, DataType t, Poly* out,
                              int depth) {
  if (c < 0) {
    // floordiv(a, -c) == floordiv(-a, c); floormod(a, -c) == -floormod(-a, c).
    Poly na;
    if (!poly_scale(a, -1, &na) || !divmod_const(na, -c, mod, t, out, depth)) return false;
    if (mod && !poly_scale(*out, -1, out)) return false;
    return true;
  }
  if (c == 1) {
    *out = mod ? Poly() : a;
    return true;
  }
  // a == c * quot + rest, where no term of rest is a multiple of c.
  Poly quot, rest;
  for (const Term& term : a.terms) {
    if (term.coeff % c == 0) {
      quot.terms.push_back({term.mono, term.coeff / c});
    } else {
      rest.terms.push_back(term);
    }
  }
  // rest + k == g * (s + t2) + c * q + r, with g = gcd(rest, c), 0 <= r < g, 0 <= t2 < c / g;
  // then a // c == quot + q + s' // c2 and a % c == g * (s' % c2) + r, where s' = s + t2.
  int64_t g = gcd_i64(poly_content(rest), c);
  int64_t k = a.constant;
  int64_t r = floormod_i64(k, g);
  int64_t tq = floordiv_i64(k, g);
  int64_t c2 = c / g;
  int64_t q = floordiv_i64(tq, c2);
  Poly s;
  s.constant = floormod_i64(tq, c2);
  for (const Term& term : rest.terms) s.terms.push_back({term.mono, term.coeff / g});

  Poly inner;
  bool done = false;
  if (s.terms.empty()) {
    inner = Poly::constant_of(mod ? s.constant : 0);
    done = true;
  }
  if (!done && mod && depth < kMaxDivDepth) {
    // floormod(x, d) is x up to a multiple of d, so inside a modulo by a divisor of d it is x.
    Poly s2 = s;
    bool replaced = false;
    for (const Term& term : s.terms) {
      if (term.mono.degree != 1) continue;
      const Atom& m = atoms_[term.mono.atoms[0]];
      if (m.kind != AtomKind::kFloorMod || !m.operands[1].is_const() ||
          m.operands[1].constant % c2 != 0)
        continue;
      Poly numerator = m.operands[0];
      if (!poly_add(s2, Poly::atom(term.mono.atoms[0]), -term.coeff, &s2) ||
          !poly_add(s2, numerator, term.coeff, &s2)) {
        replaced = false;
        break;
      }
      replaced = true;
    }
    if (replaced && divmod_const(s2, c2, true, t, &inner, depth + 1)) done = true;
  }
  if (!done) {
    ConstIntBound sb = bound(s);
    if (sb.min_value != ConstIntBound::kNegInf && sb.max_value != ConstIntBound::kPosInf &&
        floordiv_i64(sb.min_value, c2) == floordiv_i64(sb.max_value, c2)) {
      // All values of s lie in one period.
      int64_t j = floordiv_i64(sb.min_value, c2);
      if (mod) {
        int64_t shift;
        if (!checked_mul(j, c2, &shift) || !checked_sub(0, shift, &shift)) return false;
        inner = s;
        if (!poly_add_const(&inner, shift)) return false;
      } else {
        inner = Poly::constant_of(j);
      }
      done = true;
    }
  }
  if (!done && !mod && depth < kMaxDivDepth && s.terms.size() == 1 && s.terms[0].coeff == 1 &&
      s.terms[0].mono.degree == 1) {
    // floordiv(floordiv(x, d) + t2, c2) == floordiv(x + t2 * d, d * c2).
    const Atom& f = atoms_[s.terms[0].mono.atoms[0]];
    if (f.kind == AtomKind::kFloorDiv && f.operands[1].is_const() && f.operands[1].constant > 0) {
      int64_t d = f.operands[1].constant, dd, shift;
      Poly x = f.operands[0];
      if (checked_mul(d, c2, &dd) && checked_mul(s.constant, d, &shift) &&
          poly_add_const(&x, shift) && divmod_const(x, dd, false, t, &inner, depth + 1)) {
        done = true;
      }
    }
  }
  if (!done && !mod && depth < kMaxDivDepth && s.constant == 0 && s.terms.size() == 1 &&
      s.terms[0].coeff == 1 && s.terms[0].mono.degree == 1) {
    // With g = gcd(c2, d): floordiv(floormod(x, d), c2) ==
    // floordiv(floormod(floordiv(x, g), d / g), c2 / g). Moving the division inward lets it reach
    // the terms of x, and makes the form unique (x % 16 // 6 and x // 2 % 8 // 3 meet).
    const Atom& m = atoms_[s.terms[0].mono.atoms[0]];
    int64_t g2 = m.kind == AtomKind::kFloorMod && m.operands[1].is_const()
                     ? gcd_i64(m.operands[1].constant, c2)
                     : 1;
    if (g2 > 1) {
      int64_t d = m.operands[1].constant;
      Poly x = m.operands[0], q, r;
      if (divmod_const(x, g2, false, t, &q, depth + 1) &&
          divmod_const(q, d / g2, true, t, &r, depth + 1) &&
          divmod_const(r, c2 / g2, false, t, &inner, depth + 1)) {
        done = true;
      }
    }
  }
  if (!done) {
    inner = atom_poly(mod ? AtomKind::kFloorMod : AtomKind::kFloorDiv, t,
                      {std::move(s), Poly::constant_of(c2)});
  }
  if (mod) {
    if (!poly_scale(inner, g, out) || !poly_add_const(out, r)) return false;
    return true;
  }
  if (!poly_add(quot, inner, 1, out) || !poly_add_const(out, q)) return false;
  return true;
}

bool Simplifier::truncdivmod_const(const Poly& a, int64_t c, bool mod, DataType t, Poly* out,
                                   int depth) {
  if (c < 0) {
    // truncdiv(a, -c) == -truncdiv(a, c); truncmod(a, -c) == truncmod(a, c).
    if (!truncdivmod_const(a, -c, mod, t, out, depth)) return false;
    if (!mod && !poly_scale(*out, -1, out)) return false;
    return true;
  }
  if (c == 1) {
    *out = mod ? Poly() : a;
    return true;
  }
  ConstIntBound b = bound(a);
  if (b.min_value > -c && b.max_value < c) {
    // |a| < c: the quotient is 0 and the remainder a.
    *out = mod ? a : Poly();
    return true;
  }
  if (b.min_value >= 0) return divmod_const(a, c, mod, t, out, depth);
  if (b.max_value <= 0) {
    // For a <= 0: truncdiv(a, c) == -floordiv(-a, c), truncmod(a, c) == -floormod(-a, c).
    Poly na;
    if (!poly_scale(a, -1, &na) || !divmod_const(na, c, mod, t, out, depth)) return false;
    return poly_scale(*out, -1, out);
  }
  // Truncation is odd in a: normalize the leading coefficient to be positive.
  if (!a.terms.empty() && a.terms[0].coeff < 0) {
    Poly na;
    if (!poly_scale(a, -1, &na) || !truncdivmod_const(na, c, mod, t, out, depth)) return false;
    return poly_scale(*out, -1, out);
  }
  // A common factor g of a and c cancels: truncdiv(g*x, g*d) == truncdiv(x, d) and
  // truncmod(g*x, g*d) == g * truncmod(x, d). This includes exact division (g == c).
  int64_t g = gcd_i64(gcd_i64(poly_content(a), a.constant), c);
  if (g > 1) {
    Poly reduced;
    reduced.constant = a.constant / g;
    for (const Term& x : a.terms) reduced.terms.push_back({x.mono, x.coeff / g});
    if (g == c) {
      *out = mod ? Poly() : std::move(reduced);
      return true;
    }
    if (!truncdivmod_const(reduced, c / g, mod, t, out, depth)) return false;
    return !mod || poly_scale(*out, g, out);
  }
  if (!mod && depth < kMaxDivDepth && a.constant == 0 && a.terms.size() == 1 &&
      a.terms[0].coeff == 1 && a.terms[0].mono.degree == 1) {
    // truncdiv(truncdiv(x, d), c) == truncdiv(x, d * c).
    const Atom& inner = atoms_[a.terms[0].mono.atoms[0]];
    if (inner.kind == AtomKind::kTruncDiv && inner.operands[1].is_const() &&
        inner.operands[1].constant > 0) {
      int64_t dc;
      Poly x = inner.operands[0];
      if (checked_mul(inner.operands[1].constant, c, &dc))
        return truncdivmod_const(x, dc, false, t, out, depth + 1);
    }
  }
  *out = atom_poly(mod ? AtomKind::kTruncMod : AtomKind::kTruncDiv, t, {a, Poly::constant_of(c)});
  return true;
}

// ---------------------------------------------------------------------------------------------
// min / max

Poly Simplifier::canon_minmax(const PrimExpr* e) {
  ObjectKind kind = e->kind();
  DataType t = e->dtype;
  // Flatten nested unshared nodes of the same kind, left to right.
  std::vector<const Ref<PrimExpr>*> leaves;
  std::vector<const Ref<PrimExpr>*> stack;
  auto* root = static_cast<const tir::BinaryOp*>(e);
  stack.push_back(&root->b);
  stack.push_back(&root->a);
  while (!stack.empty()) {
    const Ref<PrimExpr>* r = stack.back();
    stack.pop_back();
    const PrimExpr* n = r->get();
    if (n->kind() == kind && n->dtype == t && n->use_count() == 1 && well_typed_binary(n) &&
        leaves.size() < 64) {
      auto* b = static_cast<const tir::BinaryOp*>(n);
      stack.push_back(&b->b);
      stack.push_back(&b->a);
    } else {
      leaves.push_back(r);
    }
  }
  std::vector<Poly> ops;
  ops.reserve(leaves.size());
  for (const Ref<PrimExpr>* leaf : leaves) ops.push_back(canon(*leaf));
  Poly out;
  minmax_of(kind == ObjectKind::kMin, ops, t, &out);
  return out;
}

bool Simplifier::minmax_of(bool is_min, std::vector<Poly>& operands, DataType t, Poly* out) {
  AtomKind kind = is_min ? AtomKind::kMin : AtomKind::kMax;
  // Splice operands that are themselves the same operator.
  std::vector<Poly> ops;
  for (Poly& p : operands) {
    AtomId id;
    if (p.is_single_atom(&id) && atoms_[id].kind == kind) {
      std::vector<Poly> inner = atoms_[id].operands;
      for (Poly& q : inner) ops.push_back(std::move(q));
    } else {
      ops.push_back(std::move(p));
    }
  }
  auto pick = [&](int64_t a, int64_t b) { return is_min ? std::min(a, b) : std::max(a, b); };
  // Fold the constant operands into one, and drop duplicates.
  auto normalize = [&](std::vector<Poly>& list) {
    std::vector<Poly> kept;
    bool has_const = false;
    int64_t folded = 0;
    for (Poly& p : list) {
      if (p.is_const()) {
        folded = has_const ? pick(folded, p.constant) : p.constant;
        has_const = true;
        continue;
      }
      if (std::none_of(kept.begin(), kept.end(), [&](const Poly& k) { return k == p; }))
        kept.push_back(std::move(p));
    }
    if (has_const) kept.push_back(Poly::constant_of(folded));
    list = std::move(kept);
  };
  normalize(ops);
  // Drop an operand when another is provably no better: for min, ops[i] <= ops[j] drops j.
  if (ops.size() > 1 && ops.size() <= kMaxDominanceOperands) {
    std::vector<bool> dropped(ops.size(), false);
    for (size_t i = 0; i < ops.size(); ++i) {
      if (dropped[i]) continue;
      for (size_t j = 0; j < ops.size(); ++j) {
        if (i == j || dropped[j]) continue;
        Poly d;
        if (!poly_add(ops[i], ops[j], -1, &d)) continue;
        recombine(&d);
        ConstIntBound b = strong_bound(d, kDominanceDepth);
        if (b.is_empty()) continue;
        if (is_min ? b.max_value <= 0 : b.min_value >= 0) dropped[j] = true;
      }
    }
    std::vector<Poly> kept;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (!dropped[i]) kept.push_back(std::move(ops[i]));
    }
    ops = std::move(kept);
  }
  if (ops.size() == 1) {
    *out = std::move(ops[0]);
    return true;
  }
  Poly common = extract_common(ops);
  normalize(ops);  // pulling out the common part may leave constants or duplicates
  Poly inner;
  if (ops.size() == 1) {
    inner = std::move(ops[0]);
  } else {
    // Operands are sorted for the atom's identity (min(x, y) is min(y, x)), but written in the
    // order they had when the atom was first made, so that simplifying the output again finds
    // the same order.
    std::vector<Poly> display = ops;
    std::sort(ops.begin(), ops.end(),
              [](const Poly& a, const Poly& b) { return compare(a, b) < 0; });
    Atom a;
    a.kind = kind;
    a.dtype = t;
    a.operands = std::move(ops);
    AtomId id = intern(std::move(a));
    if (atoms_[id].display_operands.empty()) atoms_[id].display_operands = std::move(display);
    inner = atom_or_const(id);
  }
  return poly_add(common, inner, 1, out);
}

// ---------------------------------------------------------------------------------------------
// select and cast

// cast(t, sum of products) == sum of products of cast(t, atom), as TVM assumes no overflow: always
// for a widening cast; for a narrowing one only when every atom, every term and the whole value
// fit in t, so that nothing wraps.
bool Simplifier::distribute_cast(const Poly& p, DataType from, DataType to, Poly* out) {
  auto fits = [&](const ConstIntBound& b) {
    return b.min_value >= dtype_min(to) && b.max_value <= dtype_max(to);
  };
  if (to.bits() < from.bits()) {
    if (!fits(bound(p))) return false;
    for (const Term& term : p.terms) {
      if (!fits(bound_mul_const(mono_bound(term.mono), term.coeff))) return false;
      for (AtomId id : term.mono.ids()) {
        if (!fits(atom_bound(id))) return false;
      }
    }
  }
  Poly acc = Poly::constant_of(p.constant);
  for (const Term& term : p.terms) {
    Poly product = Poly::constant_of(term.coeff);
    for (AtomId id : term.mono.ids()) {
      Poly cast;
      const Atom& a = atoms_[id];
      if (a.kind == AtomKind::kCast && a.operand_dtype == to && fits(bound(a.operands[0]))) {
        cast =
            a.operands[0];  // cast(to, cast(from, y)) == y when y's value survives the round trip
      } else {
        Atom c;
        c.kind = AtomKind::kCast;
        c.dtype = to;
        c.operand_dtype = from;
        c.operands.push_back(Poly::atom(id));
        cast = atom_or_const(intern(std::move(c)));
      }
      if (!poly_mul(product, cast, &product)) return false;
    }
    if (!poly_add(acc, product, 1, &acc)) return false;
  }
  if (!poly_fits(acc, to)) return false;
  *out = std::move(acc);
  return true;
}

Poly Simplifier::canon_select(const PrimExpr* e) {
  auto* s = static_cast<const tir::Select*>(e);
  DataType t = e->dtype;
  if (s->true_value->dtype != t || s->false_value->dtype != t) {
    return opaque(ir::make<tir::Select>(simplify(s->condition), simplify(s->true_value),
                                        simplify(s->false_value)));
  }
  Ref<PrimExpr> cond = simplify(s->condition);
  if (auto v = tir::as_const_int(cond)) return canon(*v ? s->true_value : s->false_value);
  std::vector<Poly> ops;
  ops.push_back(canon(s->true_value));
  ops.push_back(canon(s->false_value));
  if (ops[0] == ops[1]) return ops[0];
  // Both sides are evaluated, so what they share can move out: select(c, x + 1, x) == x + select(c,
  // 1, 0).
  Poly common = extract_common(ops);
  Atom a;
  a.kind = AtomKind::kSelect;
  a.dtype = t;
  a.expr = cond;
  a.operands = std::move(ops);
  Poly out;
  if (!poly_add(common, atom_or_const(intern(std::move(a))), 1, &out))
    return Poly();  // unreachable
  return out;
}

Poly Simplifier::canon_cast(const PrimExpr* e, const Ref<PrimExpr>& ref) {
  auto* c = static_cast<const tir::Cast*>(e);
  DataType t = e->dtype;
  DataType vt = c->value->dtype;
  if (vt == t) return canon(c->value);
  if (is_index_dtype(vt)) {
    Poly p = canon(c->value);
    if (p.is_const()) return Poly::constant_of(wrap_to_bits(p.constant, t.bits()));
    Poly out;
    if (distribute_cast(p, vt, t, &out)) return out;
    Atom a;
    a.kind = AtomKind::kCast;
    a.dtype = t;
    a.operand_dtype = vt;
    a.operands.push_back(std::move(p));
    return atom_or_const(intern(std::move(a)));
  }
  Ref<PrimExpr> v = simplify(c->value);
  if (auto imm = v.as_ptr<tir::IntImm>()) {
    // bool and narrow unsigned values are stored as their non-negative value.
    if (vt.is_bool() || (vt.is_uint() && vt.bits() < 64) || vt.is_int()) {
      return Poly::constant_of(wrap_to_bits(imm->value, t.bits()));
    }
  }
  if (auto imm = v.as_ptr<tir::FloatImm>()) {
    // Float to int truncates toward zero; fold only when the result is representable.
    double d = std::trunc(imm->value);
    if (std::isfinite(d) && d >= -9.2e18 && d <= 9.2e18) {
      auto i = static_cast<int64_t>(d);
      if (fits_dtype(t, i)) return Poly::constant_of(i);
    }
  }
  if (v.same_as(c->value)) return opaque(ref);
  return opaque(ir::make<tir::Cast>(t, v));
}

}  // namespace relax::analysis::arith
