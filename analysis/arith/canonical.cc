// Expression -> polynomial and back: dispatch, sums and products (walked iteratively along their
// left spine, so long chains do not recurse), the atom table, rendering, and the recombination
// floordiv(a, c) * c + floormod(a, c) == a. Division, min/max, select and cast rules are in
// canonical_rules.cc.
#include "analysis/arith/canonical.h"

#include <algorithm>
#include <functional>

#include "analysis/arith/expr_equal.h"
#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;

// Nesting beyond this is kept as an opaque subtree; it bounds the recursion of every analysis.
constexpr int kMaxDepth = 400;

size_t mix(size_t h, size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

size_t atom_hash(const Atom& a) {
  size_t h = mix(static_cast<size_t>(a.kind),
                 (static_cast<size_t>(a.dtype.bits()) << 8) | static_cast<size_t>(a.dtype.code()));
  switch (a.kind) {
    case AtomKind::kVar:
    case AtomKind::kIdentity:
      return mix(h, std::hash<const void*>()(a.expr.get()));
    case AtomKind::kOpaque:
      return mix(h, expr_hash(a.expr));
    case AtomKind::kSelect:
      h = mix(h, expr_hash(a.expr));
      break;
    case AtomKind::kCast:
      h = mix(h, static_cast<size_t>(a.operand_dtype.bits()));
      break;
    default:
      break;
  }
  for (const Poly& p : a.operands) h = mix(h, poly_hash(p));
  return h;
}

bool is_sum(const PrimExpr* e) {
  return e->kind() == ObjectKind::kAdd || e->kind() == ObjectKind::kSub;
}

ObjectKind atom_op_kind(AtomKind k) {
  switch (k) {
    case AtomKind::kFloorDiv:
      return ObjectKind::kFloorDiv;
    case AtomKind::kFloorMod:
      return ObjectKind::kFloorMod;
    case AtomKind::kTruncDiv:
      return ObjectKind::kDiv;
    case AtomKind::kTruncMod:
      return ObjectKind::kMod;
    case AtomKind::kMin:
      return ObjectKind::kMin;
    default:
      return ObjectKind::kMax;
  }
}

}  // namespace

ConstIntBound VarTable::bound_of(const tir::Var* v) const {
  ConstIntBound b{std::max(dtype_min(v->dtype), ConstIntBound::kNegInf),
                  std::min(dtype_max(v->dtype), ConstIntBound::kPosInf)};
  if (non_negative_int64 && v->dtype == DataType::Int64())
    b.min_value = std::max<int64_t>(b.min_value, 0);
  if (const VarInfo* info = find(v)) b = bound_intersect(b, info->bound);
  return b;
}

void Simplifier::reset() {
  atoms_.clear();
  if (slots_.size() != 64) {
    slots_.assign(64, 0);
  } else {
    std::fill(slots_.begin(), slots_.end(), 0);
  }
  if (!poly_memo_.empty()) poly_memo_.clear();
  if (!expr_memo_.empty()) expr_memo_.clear();
  expanding_.clear();
  depth_ = 0;
  budget_ = 0;
}

// ---------------------------------------------------------------------------------------------
// Atom table

bool Simplifier::atoms_equal(const Atom& a, const Atom& b) const {
  if (a.kind != b.kind || a.dtype != b.dtype) return false;
  switch (a.kind) {
    case AtomKind::kVar:
    case AtomKind::kIdentity:
      return a.expr.get() == b.expr.get();
    case AtomKind::kOpaque:
      return expr_equal(a.expr, b.expr);
    case AtomKind::kSelect:
      if (!expr_equal(a.expr, b.expr)) return false;
      break;
    case AtomKind::kCast:
      if (a.operand_dtype != b.operand_dtype) return false;
      break;
    default:
      break;
  }
  if (a.operands.size() != b.operands.size()) return false;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (!(a.operands[i] == b.operands[i])) return false;
  }
  return true;
}

int64_t Simplifier::lookup(const Atom& a) const {
  if (slots_.empty()) return -1;
  size_t mask = slots_.size() - 1;
  for (size_t i = a.hash & mask;; i = (i + 1) & mask) {
    uint32_t s = slots_[i];
    if (s == 0) return -1;
    const Atom& other = atoms_[s - 1];
    if (other.hash == a.hash && atoms_equal(a, other)) return s - 1;
  }
}

AtomId Simplifier::intern(Atom&& a) {
  a.hash = atom_hash(a);
  if (slots_.empty()) slots_.assign(64, 0);
  int64_t found = lookup(a);
  if (found >= 0) return static_cast<AtomId>(found);
  AtomId id = static_cast<AtomId>(atoms_.size());
  atoms_.push_back(std::move(a));
  if (atoms_.size() * 2 > slots_.size()) {
    slots_.assign(slots_.size() * 2, 0);
    size_t mask = slots_.size() - 1;
    for (AtomId i = 0; i < atoms_.size(); ++i) {
      size_t j = atoms_[i].hash & mask;
      while (slots_[j] != 0) j = (j + 1) & mask;
      slots_[j] = i + 1;
    }
  } else {
    size_t mask = slots_.size() - 1;
    size_t j = atoms_[id].hash & mask;
    while (slots_[j] != 0) j = (j + 1) & mask;
    slots_[j] = id + 1;
  }
  return id;
}

Poly Simplifier::atom_poly(AtomKind kind, DataType t, std::vector<Poly> operands) {
  Atom a;
  a.kind = kind;
  a.dtype = t;
  a.operands = std::move(operands);
  return atom_or_const(intern(std::move(a)));
}

Poly Simplifier::atom_or_const(AtomId id) {
  // An atom whose bound is a single value is that value: truncdiv(x % 2, 8) is 0.
  ConstIntBound b = atom_bound(id);
  if (b.is_const()) return Poly::constant_of(b.min_value);
  return Poly::atom(id);
}

Poly Simplifier::opaque(const Ref<PrimExpr>& e) {
  if (auto v = tir::as_const_int(e); v && *v != INT64_MIN && fits_dtype(e->dtype, *v)) {
    return Poly::constant_of(*v);
  }
  if (e->kind() == ObjectKind::kTirVar) return canon_var(e);
  Atom a;
  a.kind = AtomKind::kOpaque;
  a.dtype = e->dtype;
  a.expr = e;
  return Poly::atom(intern(std::move(a)));
}

// ---------------------------------------------------------------------------------------------
// Expression -> polynomial

Poly Simplifier::canon(const Ref<PrimExpr>& e) {
  const PrimExpr* node = e.get();
  if (node->kind() == ObjectKind::kIntImm) {
    int64_t v = static_cast<const tir::IntImm*>(node)->value;
    if (v != INT64_MIN && fits_dtype(node->dtype, v)) return Poly::constant_of(v);
    return opaque_leaf(e);
  }
  if (node->kind() == ObjectKind::kTirVar) return canon_var(e);
  // Only nodes referenced from more than one place can recur; the rest need no memo.
  bool shared = node->use_count() > 1;
  if (shared) {
    auto it = poly_memo_.find(node);
    if (it != poly_memo_.end()) return it->second.poly;
  }
  Poly p;
  if (depth_ >= kMaxDepth || !has_operands(node)) {
    p = opaque_leaf(e);
  } else {
    ++depth_;
    p = canon_node(node, e);
    --depth_;
    if (!poly_fits(p, node->dtype)) p = opaque(simplify_children(e));
  }
  if (shared) poly_memo_.emplace(node, PolyMemo{e, p});
  return p;
}

Poly Simplifier::opaque_leaf(const Ref<PrimExpr>& e) {
  Atom a;
  a.kind = AtomKind::kIdentity;
  a.dtype = e->dtype;
  a.expr = e;
  return Poly::atom(intern(std::move(a)));
}

Poly Simplifier::canon_node(const PrimExpr* e, const Ref<PrimExpr>& ref) {
  ObjectKind k = e->kind();
  if (tir::BinaryOp::classof(e) && !well_typed_binary(e)) return opaque(simplify_children(ref));
  switch (k) {
    case ObjectKind::kAdd:
    case ObjectKind::kSub:
      return canon_sum(e);
    case ObjectKind::kMul:
      return canon_product(e);
    case ObjectKind::kDiv:
    case ObjectKind::kMod:
    case ObjectKind::kFloorDiv:
    case ObjectKind::kFloorMod:
      return canon_div(e);
    case ObjectKind::kMin:
    case ObjectKind::kMax:
      return canon_minmax(e);
    case ObjectKind::kSelect:
      return canon_select(e);
    case ObjectKind::kCast:
      return canon_cast(e, ref);
    case ObjectKind::kTirCall: {
      // if_then_else evaluates only the chosen branch: a known condition picks it.
      auto* c = static_cast<const tir::Call*>(e);
      if (c->op == "tir.if_then_else" && c->args.size() == 3 && c->args[1]->dtype == e->dtype &&
          c->args[2]->dtype == e->dtype) {
        if (auto v = tir::as_const_int(simplify(c->args[0]))) return canon(c->args[*v ? 1 : 2]);
      }
      return opaque(simplify_children(ref));
    }
    default:
      return opaque(simplify_children(ref));
  }
}

Poly Simplifier::canon_var(const Ref<PrimExpr>& e) {
  auto* v = static_cast<const tir::Var*>(e.get());
  if (const VarInfo* info = vars_.find(v)) {
    if (info->value && info->value->dtype == v->dtype && depth_ < kMaxDepth &&
        std::find(expanding_.begin(), expanding_.end(), v) == expanding_.end()) {
      Ref<PrimExpr> value = info->value;
      expanding_.push_back(v);
      ++depth_;
      Poly p = canon(value);
      --depth_;
      expanding_.pop_back();
      return p;
    }
  }
  ConstIntBound b = vars_.bound_of(v);
  if (b.is_const()) return Poly::constant_of(b.min_value);
  Atom a;
  a.kind = AtomKind::kVar;
  a.dtype = v->dtype;
  a.expr = e;
  return Poly::atom(intern(std::move(a)));
}

Poly Simplifier::canon_sum(const PrimExpr* e) {
  DataType t = e->dtype;
  // Walk down the left spine of unshared +/- nodes; the sign of every right operand relative to
  // the root is its own node's sign, because only left operands continue the spine.
  size_t base = spine_.size();
  const PrimExpr* node = e;
  while (true) {
    spine_.push_back(node);
    const PrimExpr* next = static_cast<const tir::BinaryOp*>(node)->a.get();
    if (!is_sum(next) || next->dtype != t || next->use_count() != 1 || !well_typed_binary(next))
      break;
    node = next;
  }
  // Canonicalize every operand, then merge all their terms at once: adding them one by one
  // would cost quadratic time on long sums of distinct terms.
  std::vector<Poly> operands;
  operands.reserve(spine_.size() - base + 1);
  operands.push_back(canon(static_cast<const tir::BinaryOp*>(spine_.back())->a));
  for (size_t i = spine_.size(); i-- > base;)
    operands.push_back(canon(static_cast<const tir::BinaryOp*>(spine_[i])->b));
  Poly acc;
  if (!merge_sum(operands, spine_.size() - base, base, &acc) || !poly_fits(acc, t)) {
    // Overflow somewhere: add step by step, keeping the nodes that overflow as written.
    acc = std::move(operands[0]);
    for (size_t i = spine_.size(), k = 1; i-- > base; ++k) {
      auto* item = static_cast<const tir::BinaryOp*>(spine_[i]);
      Poly next;
      if (!poly_add(acc, operands[k], item->kind() == ObjectKind::kSub ? -1 : 1, &next) ||
          !poly_fits(next, t)) {
        next = opaque(tir::binary(item->kind(), render(acc, t), render(operands[k], t)));
      }
      acc = std::move(next);
    }
  }
  spine_.resize(base);
  recombine(&acc);
  return acc;
}

bool Simplifier::merge_sum(const std::vector<Poly>& operands, size_t count, size_t base,
                           Poly* out) {
  // operands[0] is the leftmost leaf; operands[k] is the right operand of spine_[base + count - k].
  if (count == 1) {
    bool sub = spine_[base]->kind() == ObjectKind::kSub;
    return poly_add(operands[0], operands[1], sub ? -1 : 1, out);
  }
  std::vector<Term> terms;
  int64_t constant = 0;
  for (size_t k = 0; k < operands.size(); ++k) {
    bool sub = k > 0 && spine_[base + count - k]->kind() == ObjectKind::kSub;
    const Poly& p = operands[k];
    if (!checked_add(constant, sub ? -p.constant : p.constant, &constant)) return false;
    for (const Term& t : p.terms) terms.push_back({t.mono, sub ? -t.coeff : t.coeff});
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const Term& a, const Term& b) { return compare(a.mono, b.mono) < 0; });
  Poly r;
  r.constant = constant;
  for (size_t i = 0; i < terms.size();) {
    int64_t sum = terms[i].coeff;
    size_t j = i + 1;
    for (; j < terms.size() && terms[j].mono == terms[i].mono; ++j) {
      if (!checked_add(sum, terms[j].coeff, &sum)) return false;
    }
    if (sum != 0) r.terms.push_back({terms[i].mono, sum});
    i = j;
  }
  *out = std::move(r);
  return true;
}

Poly Simplifier::canon_product(const PrimExpr* e) {
  DataType t = e->dtype;
  size_t base = spine_.size();
  const PrimExpr* node = e;
  while (true) {
    spine_.push_back(node);
    const PrimExpr* next = static_cast<const tir::BinaryOp*>(node)->a.get();
    if (next->kind() != ObjectKind::kMul || next->dtype != t || next->use_count() != 1 ||
        !well_typed_binary(next)) {
      break;
    }
    node = next;
  }
  Poly acc = canon(static_cast<const tir::BinaryOp*>(spine_.back())->a);
  for (size_t i = spine_.size(); i-- > base;) {
    auto* item = static_cast<const tir::BinaryOp*>(spine_[i]);
    Poly rhs = canon(item->b);
    Poly next;
    if (!poly_mul(acc, rhs, &next) || !poly_fits(next, t)) {
      next = opaque(tir::binary(ObjectKind::kMul, render(acc, t), render(rhs, t)));
    }
    acc = std::move(next);
  }
  spine_.resize(base);
  return acc;
}

// Uses a % c == a - c * (a // c) (and the same for truncation) wherever it makes p simpler:
// fewer terms holding a division, then fewer terms. So a // c * c + a % c becomes a, and
// a - a // c * c becomes a % c, while a // c * c alone stays.
void Simplifier::recombine(Poly* p) {
  auto is_division = [&](const Term& t) {
    for (AtomId id : t.mono.ids()) {
      AtomKind k = atoms_[id].kind;
      if (k == AtomKind::kFloorMod || k == AtomKind::kFloorDiv || k == AtomKind::kTruncMod ||
          k == AtomKind::kTruncDiv) {
        return true;
      }
    }
    return false;
  };
  auto cost = [&](const Poly& q) {
    size_t divisions = 0;
    for (const Term& t : q.terms) divisions += is_division(t);
    return std::pair<size_t, size_t>(divisions, q.terms.size());
  };
  auto current = cost(*p);
  if (current.first == 0 || p->terms.size() < 2) return;
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (size_t i = 0; i < p->terms.size() && !changed; ++i) {
      if (p->terms[i].mono.degree != 1) continue;
      AtomId id = p->terms[i].mono.atoms[0];
      int64_t coeff = p->terms[i].coeff;
      AtomKind kind = atoms_[id].kind;
      bool floor = kind == AtomKind::kFloorMod || kind == AtomKind::kFloorDiv;
      bool is_mod = kind == AtomKind::kFloorMod || kind == AtomKind::kTruncMod;
      bool is_div = kind == AtomKind::kFloorDiv || kind == AtomKind::kTruncDiv;
      if ((!is_mod && !is_div) || !atoms_[id].operands[1].is_const()) continue;
      int64_t c = atoms_[id].operands[1].constant;
      DataType t = atoms_[id].dtype;
      Poly numerator = atoms_[id].operands[0];  // a copy: computing the partner may add atoms
      // The partner in canonical form (a % c for a // c and the other way round).
      Poly partner;
      bool ok = floor ? divmod_const(numerator, c, !is_mod, t, &partner)
                      : truncdivmod_const(numerator, c, !is_mod, t, &partner);
      if (!ok) continue;
      Poly out;
      if (is_mod) {
        // b * mod == b * a - (b * c) * div.
        int64_t bc;
        if (!checked_mul(coeff, c, &bc) || !poly_add(*p, Poly::atom(id), -coeff, &out) ||
            !poly_add(out, numerator, coeff, &out) || !poly_add(out, partner, -bc, &out)) {
          continue;
        }
      } else {
        // (-b * c) * div == b * mod - b * a, for a coefficient that is a multiple of c.
        if (coeff % c != 0) continue;
        int64_t b = -(coeff / c);
        if (!poly_add(*p, Poly::atom(id), -coeff, &out) || !poly_add(out, partner, b, &out) ||
            !poly_add(out, numerator, -b, &out)) {
          continue;
        }
      }
      auto next = cost(out);
      if (next >= current) continue;
      *p = std::move(out);
      current = next;
      changed = true;
    }
    if (!changed) return;
  }
}

bool Simplifier::difference(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b, Poly* out) {
  Poly pa = canon(a);
  Poly pb = canon(b);
  if (!poly_add(pa, pb, -1, out)) return false;
  recombine(out);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Polynomial -> expression

Ref<PrimExpr> Simplifier::render_atom(AtomId id) {
  if (atoms_[id].rendered) return atoms_[id].rendered;
  const Atom& a = atoms_[id];  // rendering never adds atoms, so the reference stays valid
  Ref<PrimExpr> r;
  switch (a.kind) {
    case AtomKind::kVar:
    case AtomKind::kOpaque:
    case AtomKind::kIdentity:
      r = a.expr;
      break;
    case AtomKind::kFloorDiv:
    case AtomKind::kFloorMod:
    case AtomKind::kTruncDiv:
    case AtomKind::kTruncMod:
      r = tir::binary(atom_op_kind(a.kind), render(a.operands[0], a.dtype),
                      render(a.operands[1], a.dtype));
      break;
    case AtomKind::kMin:
    case AtomKind::kMax: {
      const std::vector<Poly>& ops = a.display_operands.empty() ? a.operands : a.display_operands;
      r = render(ops[0], a.dtype);
      for (size_t i = 1; i < ops.size(); ++i)
        r = tir::binary(atom_op_kind(a.kind), r, render(ops[i], a.dtype));
      break;
    }
    case AtomKind::kSelect:
      r = ir::make<tir::Select>(a.expr, render(a.operands[0], a.dtype),
                                render(a.operands[1], a.dtype));
      break;
    case AtomKind::kCast:
      r = ir::make<tir::Cast>(a.dtype, render(a.operands[0], a.operand_dtype));
      break;
  }
  atoms_[id].rendered = r;
  return r;
}

Ref<PrimExpr> Simplifier::render_term(const Term& t, int64_t coeff, DataType dt) {
  Ref<PrimExpr> prod;
  for (AtomId id : t.mono.ids()) {
    Ref<PrimExpr> x = render_atom(id);
    prod = prod ? tir::binary(ObjectKind::kMul, prod, x) : x;
  }
  if (coeff != 1) prod = tir::binary(ObjectKind::kMul, prod, tir::int_imm(dt, coeff));
  return prod;
}

Ref<PrimExpr> Simplifier::render(const Poly& p, DataType t) {
  if (p.terms.empty()) return tir::int_imm(t, p.constant);
  Ref<PrimExpr> acc;
  bool any_positive =
      std::any_of(p.terms.begin(), p.terms.end(), [](const Term& x) { return x.coeff > 0; });
  bool constant_first = !any_positive && p.constant > 0;
  if (constant_first) acc = tir::int_imm(t, p.constant);
  for (const Term& term : p.terms) {
    if (term.coeff < 0) continue;
    Ref<PrimExpr> x = render_term(term, term.coeff, t);
    acc = acc ? tir::binary(ObjectKind::kAdd, acc, x) : x;
  }
  for (const Term& term : p.terms) {
    if (term.coeff > 0) continue;
    if (!acc) {
      acc = render_term(term, term.coeff, t);
    } else if (fits_dtype(t, -term.coeff)) {
      acc = tir::binary(ObjectKind::kSub, acc, render_term(term, -term.coeff, t));
    } else {
      acc = tir::binary(ObjectKind::kAdd, acc, render_term(term, term.coeff, t));
    }
  }
  if (!constant_first && p.constant != 0) {
    if (p.constant < 0 && fits_dtype(t, -p.constant)) {
      acc = tir::binary(ObjectKind::kSub, acc, tir::int_imm(t, -p.constant));
    } else {
      acc = tir::binary(ObjectKind::kAdd, acc, tir::int_imm(t, p.constant));
    }
  }
  return acc;
}

}  // namespace relax::analysis::arith
