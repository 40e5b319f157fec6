// Bounds and congruences of polynomials, and the decisions built on them. A plain interval
// forgets that two occurrences of an atom are the same value, so strong_bound also splits cases
// on min/max/select atoms (the atom equals one of its operands) and eliminates floordiv atoms
// through floordiv(a, c) * c == a - floormod(a, c), which is what proves `n // 2 * 2 <= n`.
#include <algorithm>

#include "analysis/arith/canonical.h"
#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

namespace {

constexpr int kDecisionDepth = 3;
// Case splits one strong_bound call may make.
constexpr int kSplitBudget = 64;
// Case splits on an atom with more operands than this are skipped (each one multiplies work).
constexpr size_t kMaxSplitOperands = 4;

ConstIntBound dtype_bound(DataType t) {
  return {std::max(dtype_min(t), ConstIntBound::kNegInf),
          std::min(dtype_max(t), ConstIntBound::kPosInf)};
}

}  // namespace

ConstIntBound Simplifier::atom_bound(AtomId id) {
  if (atoms_[id].has_bound) return atoms_[id].bound;
  // Operands only mention older atoms, so the recursion ends; bound() never adds atoms, so
  // atoms_ does not move while `a` is in use.
  const Atom& a = atoms_[id];
  ConstIntBound b;
  switch (a.kind) {
    case AtomKind::kVar:
      b = vars_.bound_of(static_cast<const tir::Var*>(a.expr.get()));
      break;
    case AtomKind::kFloorDiv:
      b = bound_floordiv(bound(a.operands[0]), bound(a.operands[1]));
      break;
    case AtomKind::kFloorMod:
      b = bound_floormod(bound(a.operands[0]), bound(a.operands[1]));
      break;
    case AtomKind::kTruncDiv:
      b = bound_truncdiv(bound(a.operands[0]), bound(a.operands[1]));
      break;
    case AtomKind::kTruncMod:
      b = bound_truncmod(bound(a.operands[0]), bound(a.operands[1]));
      break;
    case AtomKind::kMin:
    case AtomKind::kMax:
      b = bound(a.operands[0]);
      for (size_t i = 1; i < a.operands.size(); ++i) {
        b = a.kind == AtomKind::kMin ? bound_min(b, bound(a.operands[i]))
                                     : bound_max(b, bound(a.operands[i]));
      }
      break;
    case AtomKind::kSelect:
      b = bound_union(bound(a.operands[0]), bound(a.operands[1]));
      break;
    case AtomKind::kCast: {
      // A narrowing cast of a value out of range wraps: then only the dtype's range is known.
      ConstIntBound inner = bound(a.operands[0]);
      b = (inner.min_value >= dtype_min(a.dtype) && inner.max_value <= dtype_max(a.dtype))
              ? inner
              : dtype_bound(a.dtype);
      break;
    }
    case AtomKind::kOpaque:
      b = a.dtype.is_bool() ? ConstIntBound::range(0, 1) : dtype_bound(a.dtype);
      break;
    case AtomKind::kIdentity:
      b = dtype_bound(a.dtype);
      break;
  }
  b = bound_intersect(b, dtype_bound(a.dtype));
  atoms_[id].bound = b;
  atoms_[id].has_bound = true;
  return b;
}

ConstIntBound Simplifier::mono_bound(const Monomial& m) {
  ConstIntBound acc = ConstIntBound::point(1);
  for (int i = 0; i < m.degree;) {
    int j = i + 1;
    while (j < m.degree && m.atoms[j] == m.atoms[i]) ++j;
    ConstIntBound b = atom_bound(m.atoms[i]);
    acc = bound_mul(acc, j - i == 1 ? b : bound_pow(b, j - i));
    i = j;
  }
  return acc;
}

ConstIntBound Simplifier::bound(const Poly& p) {
  ConstIntBound acc = ConstIntBound::point(p.constant);
  for (const Term& t : p.terms) acc = bound_add(acc, bound_mul_const(mono_bound(t.mono), t.coeff));
  return acc;
}

ModularSet Simplifier::atom_modular(AtomId id) {
  if (atoms_[id].has_modular) return atoms_[id].modular;
  ConstIntBound b = atom_bound(id);
  const Atom& a = atoms_[id];
  ModularSet m = ModularSet::everything();
  if (b.is_const()) {
    m = ModularSet::constant(b.min_value);
  } else {
    switch (a.kind) {
      case AtomKind::kFloorMod:
        if (a.operands[1].is_const()) {
          // x == base (mod coeff) gives x % c == base (mod gcd(coeff, c)).
          ModularSet x = modular(a.operands[0]);
          int64_t c = a.operands[1].constant;
          m = x.is_const() ? ModularSet::constant(floormod_i64(x.base, c))
                           : ModularSet::make(gcd_i64(x.coeff, c), x.base);
        }
        break;
      case AtomKind::kFloorDiv:
        if (a.operands[1].is_const()) {
          ModularSet x = modular(a.operands[0]);
          int64_t c = a.operands[1].constant;
          if (x.is_const()) {
            m = ModularSet::constant(floordiv_i64(x.base, c));
          } else if (x.coeff % c == 0) {
            m = ModularSet::make(x.coeff / c, floordiv_i64(x.base, c));
          }
        }
        break;
      case AtomKind::kMin:
      case AtomKind::kMax:
      case AtomKind::kSelect:
        m = modular(a.operands[0]);
        for (size_t i = 1; i < a.operands.size(); ++i) m = modular_union(m, modular(a.operands[i]));
        break;
      case AtomKind::kCast: {
        ConstIntBound inner = bound(a.operands[0]);
        if (inner.min_value >= dtype_min(a.dtype) && inner.max_value <= dtype_max(a.dtype)) {
          m = modular(a.operands[0]);
        }
        break;
      }
      default:
        break;
    }
  }
  atoms_[id].modular = m;
  atoms_[id].has_modular = true;
  return m;
}

ModularSet Simplifier::modular(const Poly& p) {
  ModularSet acc = ModularSet::constant(p.constant);
  for (const Term& t : p.terms) {
    ModularSet mono = ModularSet::constant(1);
    for (AtomId id : t.mono.ids()) mono = modular_mul(mono, atom_modular(id));
    acc = modular_add(acc, modular_scale(mono, t.coeff));
    if (acc.is_everything()) break;
  }
  return acc;
}

ConstIntBound Simplifier::strong_bound(const Poly& p, int depth) {
  budget_ = kSplitBudget;  // per question, so that one question cannot starve the next
  return strong_bound_at(p, depth);
}

ConstIntBound Simplifier::strong_bound_at(const Poly& p, int depth) {
  ConstIntBound b = tighten(bound(p), modular(p));
  if (p.is_const() || depth <= 0 || budget_ <= 0 || b.is_const() || b.is_empty()) return b;
  for (size_t ti = 0; ti < p.terms.size(); ++ti) {
    const Term term = p.terms[ti];
    if (term.mono.degree != 1) continue;
    AtomId id = term.mono.atoms[0];
    AtomKind kind = atoms_[id].kind;
    if (kind == AtomKind::kMin || kind == AtomKind::kMax || kind == AtomKind::kSelect) {
      if (atoms_[id].operands.size() > kMaxSplitOperands) continue;
      // p == rest + k * atom and the atom equals one of its operands, so p is one of the
      // rest + k * operand; for min with k > 0 (or max with k < 0) p is also <= each of them.
      std::vector<Poly> ops = atoms_[id].operands;  // splits below may add atoms
      Poly rest;
      if (!poly_add(p, Poly::atom(id), -term.coeff, &rest)) continue;
      --budget_;
      ConstIntBound hull{ConstIntBound::kPosInf, ConstIntBound::kNegInf};
      int64_t hi_min = ConstIntBound::kPosInf, lo_max = ConstIntBound::kNegInf;
      bool ok = true;
      for (const Poly& op : ops) {
        Poly d;
        if (!poly_add(rest, op, term.coeff, &d)) {
          ok = false;
          break;
        }
        recombine(&d);
        ConstIntBound bi = strong_bound_at(d, depth - 1);
        if (bi.is_empty()) continue;  // an impossible case constrains nothing
        hull = bound_union(hull, bi);
        hi_min = std::min(hi_min, bi.max_value);
        lo_max = std::max(lo_max, bi.min_value);
      }
      if (!ok) continue;
      b = bound_intersect(b, hull);
      bool upper =
          (kind == AtomKind::kMin && term.coeff > 0) || (kind == AtomKind::kMax && term.coeff < 0);
      bool lower =
          (kind == AtomKind::kMax && term.coeff > 0) || (kind == AtomKind::kMin && term.coeff < 0);
      if (upper) b.max_value = std::min(b.max_value, hi_min);
      if (lower) b.min_value = std::max(b.min_value, lo_max);
      return b;
    }
    if (kind == AtomKind::kFloorDiv && atoms_[id].operands[1].is_const() &&
        atoms_[id].operands[1].constant > 0) {
      // Scale p by s so that the atom's coefficient is a multiple of c, then replace
      // c * floordiv(x, c) by x - floormod(x, c); bounds of s * p divide back to bounds of p.
      int64_t c = atoms_[id].operands[1].constant;
      int64_t s = c / gcd_i64(term.coeff, c);
      int64_t scaled_coeff;
      Poly scaled;
      if (!checked_mul(term.coeff, s, &scaled_coeff) || !poly_scale(p, s, &scaled)) continue;
      int64_t u = scaled_coeff / c;
      Poly x = atoms_[id].operands[0];
      Atom mod;
      mod.kind = AtomKind::kFloorMod;
      mod.dtype = atoms_[id].dtype;
      mod.operands = {x, Poly::constant_of(c)};
      AtomId mod_id = intern(std::move(mod));
      Poly d;
      if (!poly_add(scaled, Poly::atom(id), -scaled_coeff, &d) || !poly_add(d, x, u, &d) ||
          !poly_add(d, Poly::atom(mod_id), -u, &d)) {
        continue;
      }
      --budget_;
      ConstIntBound bs = strong_bound_at(d, depth - 1);
      ConstIntBound back{bs.min_value == ConstIntBound::kNegInf ? ConstIntBound::kNegInf
                                                                : ceildiv_i64(bs.min_value, s),
                         bs.max_value == ConstIntBound::kPosInf ? ConstIntBound::kPosInf
                                                                : floordiv_i64(bs.max_value, s)};
      return bound_intersect(b, back);
    }
  }
  return b;
}

Proof Simplifier::decide_lt0(const Poly& p) {
  if (p.is_const()) return p.constant < 0 ? Proof::kYes : Proof::kNo;
  ConstIntBound b = strong_bound(p, kDecisionDepth);
  if (b.is_empty()) return Proof::kUnknown;
  if (b.max_value < 0) return Proof::kYes;
  if (b.min_value >= 0) return Proof::kNo;
  return Proof::kUnknown;
}

Proof Simplifier::decide_le0(const Poly& p) {
  if (p.is_const()) return p.constant <= 0 ? Proof::kYes : Proof::kNo;
  ConstIntBound b = strong_bound(p, kDecisionDepth);
  if (b.is_empty()) return Proof::kUnknown;
  if (b.max_value <= 0) return Proof::kYes;
  if (b.min_value > 0) return Proof::kNo;
  return Proof::kUnknown;
}

Proof Simplifier::decide_eq0(const Poly& p) {
  if (p.is_const()) return p.constant == 0 ? Proof::kYes : Proof::kNo;
  // Zero is in {coeff * k + base} only when base == 0 (the base is reduced into [0, coeff)).
  if (modular(p).base != 0) return Proof::kNo;
  ConstIntBound b = strong_bound(p, kDecisionDepth);
  if (b.is_empty()) return Proof::kUnknown;
  if (!b.contains(0)) return Proof::kNo;
  if (b.is_const()) return Proof::kYes;
  return Proof::kUnknown;
}

}  // namespace relax::analysis::arith
