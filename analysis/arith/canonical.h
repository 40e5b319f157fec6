// The canonical form of integer index expressions and the engine behind the Analyzer: a
// polynomial (sum of monomials with int64 coefficients) over atoms, where atoms are symbolic vars
// and irreducible terms (floordiv/floormod, min/max, select, casts, opaque calls). Internal to
// analysis/arith; clients use analyzer.h.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "analysis/arith/bound.h"
#include "analysis/arith/proof.h"
#include "ir/tir.h"

namespace relax::analysis::arith {

namespace tir = ir::tir;
using ir::DataType;
using ir::Ref;
using tir::PrimExpr;

// ---------------------------------------------------------------------------------------------
// Polynomials

// Atoms are numbered per query in the order the simplifier first meets them (left to right), and
// that order is the order terms are written back in: `n * 2 + m` stays in that order.
using AtomId = uint32_t;

// Products of more atoms than this become an opaque atom; it keeps monomials allocation-free.
constexpr int kMaxDegree = 6;
// Expanding a product into more terms than this keeps it as an opaque product instead.
constexpr size_t kMaxTerms = 256;

// A product of atoms: a sorted multiset of atom ids (x * x * y is {x, x, y}).
struct Monomial {
  uint8_t degree = 0;
  std::array<AtomId, kMaxDegree> atoms{};

  static Monomial of(AtomId a) {
    Monomial m;
    m.degree = 1;
    m.atoms[0] = a;
    return m;
  }
  std::span<const AtomId> ids() const { return {atoms.data(), degree}; }
  bool operator==(const Monomial& o) const;
};

// Lexicographic on the sorted ids, a prefix first: x < x*y < y when x was met before y.
int compare(const Monomial& a, const Monomial& b);
// The product, or false when its degree would exceed kMaxDegree.
bool multiply(const Monomial& a, const Monomial& b, Monomial* out);
// Whether `b` divides `a` (multiset inclusion); the quotient goes to *out.
bool divide(const Monomial& a, const Monomial& b, Monomial* out);

struct Term {
  Monomial mono;
  int64_t coeff;
};

// sum(terms) + constant. Terms are sorted by monomial and have non-zero coefficients, and every
// coefficient lies in [-INT64_MAX, INT64_MAX], so two equal polynomials have equal members.
struct Poly {
  std::vector<Term> terms;
  int64_t constant = 0;

  static Poly constant_of(int64_t v) {
    Poly p;
    p.constant = v;
    return p;
  }
  static Poly atom(AtomId a, int64_t coeff = 1) {
    Poly p;
    p.terms.push_back({Monomial::of(a), coeff});
    return p;
  }
  bool is_const() const { return terms.empty(); }
  bool is_zero() const { return terms.empty() && constant == 0; }
  // The atom when the polynomial is exactly `1 * atom`.
  bool is_single_atom(AtomId* id) const {
    if (constant != 0 || terms.size() != 1 || terms[0].coeff != 1 || terms[0].mono.degree != 1)
      return false;
    *id = terms[0].mono.atoms[0];
    return true;
  }
  bool operator==(const Poly& o) const;
};

// Arithmetic on polynomials. Each returns false, leaving *out unspecified, on int64 overflow (or
// for poly_mul when the result would exceed kMaxDegree or kMaxTerms).
bool poly_add(const Poly& a, const Poly& b, int64_t k, Poly* out);  // a + k * b
bool poly_scale(const Poly& a, int64_t k, Poly* out);
bool poly_mul(const Poly& a, const Poly& b, Poly* out);
bool poly_add_const(Poly* p, int64_t k);
// a / b when b divides a exactly as a polynomial (a monomial divisor, or a constant multiple).
bool poly_exact_div(const Poly& a, const Poly& b, Poly* out);
// The gcd of the term coefficients (0 for a constant polynomial).
int64_t poly_content(const Poly& p);
int compare(const Poly& a, const Poly& b);
size_t poly_hash(const Poly& p);
// True when every coefficient and the constant fit in dtype `t`.
bool poly_fits(const Poly& p, DataType t);

// ---------------------------------------------------------------------------------------------
// Atoms

enum class AtomKind : uint8_t {
  kVar,       // expr: the variable
  kFloorDiv,  // operands: numerator, divisor
  kFloorMod,
  kTruncDiv,
  kTruncMod,
  kMin,  // operands: two or more, sorted
  kMax,
  kSelect,    // expr: the condition; operands: true value, false value
  kCast,      // operands: the value, of dtype `operand_dtype`
  kOpaque,    // expr: anything else, its children simplified; equal when expr_equal
  kIdentity,  // expr: a subtree too deep to analyse, equal only to itself
};

struct Atom {
  AtomKind kind;
  DataType dtype;
  DataType operand_dtype;
  Ref<PrimExpr> expr;
  std::vector<Poly> operands;
  // kMin/kMax: the operands in the order they are written back (operands are sorted).
  std::vector<Poly> display_operands;
  size_t hash = 0;

  // Caches, valid for the current query.
  Ref<PrimExpr> rendered;
  bool has_bound = false;
  bool has_modular = false;
  ConstIntBound bound;
  ModularSet modular;
};

// What the analyzer knows about a variable.
struct VarInfo {
  Ref<tir::Var> var;  // keeps the key alive, so an address is never reused for another var
  ConstIntBound bound;
  Ref<PrimExpr> value;  // bound to an expression: substituted when met
};

// The facts about variables the analyzer has been given.
struct VarTable {
  bool non_negative_int64 = false;
  std::unordered_map<const tir::Var*, VarInfo> vars;

  // The var's range: its dtype's, narrowed by the facts and the non-negative default.
  ConstIntBound bound_of(const tir::Var* v) const;
  const VarInfo* find(const tir::Var* v) const {
    auto it = vars.find(v);
    return it == vars.end() ? nullptr : &it->second;
  }
};

// A binary arithmetic node whose operands have its own dtype (malformed mixes stay opaque).
inline bool well_typed_binary(const PrimExpr* e) {
  auto* b = static_cast<const tir::BinaryOp*>(e);
  return b->a && b->b && b->a->dtype == e->dtype && b->b->dtype == e->dtype;
}

// Whether the node's direct operands are present (malformed IR may hold nulls; such a node is
// left as it is).
inline bool has_operands(const PrimExpr* e) {
  if (tir::BinaryOp::classof(e)) {
    auto* b = static_cast<const tir::BinaryOp*>(e);
    return b->a && b->b;
  }
  switch (e->kind()) {
    case ir::ObjectKind::kNot:
      return static_cast<const tir::Not*>(e)->a.get() != nullptr;
    case ir::ObjectKind::kCast:
      return static_cast<const tir::Cast*>(e)->value.get() != nullptr;
    case ir::ObjectKind::kSelect: {
      auto* s = static_cast<const tir::Select*>(e);
      return s->condition && s->true_value && s->false_value;
    }
    case ir::ObjectKind::kLet: {
      auto* l = static_cast<const tir::Let*>(e);
      return l->var && l->value && l->body;
    }
    case ir::ObjectKind::kTirCall:
      for (const auto& a : static_cast<const tir::Call*>(e)->args) {
        if (!a) return false;
      }
      return true;
    default:
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The simplifier

// Converts expressions to canonical polynomials and back, and answers questions about them.
// State (the atom table, memos) lives for one query: call reset() between queries. Not thread
// safe; each Analyzer owns one.
class Simplifier {
 public:
  explicit Simplifier(const VarTable& vars) : vars_(vars) {}

  void reset();

  // The canonical polynomial of an expression of index dtype (see is_index_dtype).
  Poly canon(const Ref<PrimExpr>& e);
  // An expression of dtype `t` for a polynomial: terms in atom order, positive terms first,
  // the constant last ("n * 2 + m - k - 1"); "1 - x" when only the constant is positive.
  Ref<PrimExpr> render(const Poly& p, DataType t);
  // Simplifies an expression of any dtype.
  Ref<PrimExpr> simplify(const Ref<PrimExpr>& e);

  // Interval and congruence of a polynomial of this query.
  ConstIntBound bound(const Poly& p);
  ModularSet modular(const Poly& p);
  // The interval, sharpened by case splits on min/max/select atoms and by eliminating
  // floordiv atoms (floordiv(a, c) * c == a - floormod(a, c)), up to `depth` levels.
  ConstIntBound strong_bound(const Poly& p, int depth);

  // Decisions about p compared with zero.
  Proof decide_lt0(const Poly& p);
  Proof decide_le0(const Poly& p);
  Proof decide_eq0(const Poly& p);

  // a - b, with floordiv/floormod pairs recombined; false on overflow.
  bool difference(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b, Poly* out);

  const Atom& atom(AtomId id) const { return atoms_[id]; }
  size_t atom_count() const { return atoms_.size(); }

 private:
  friend class CanonicalRules;

  // canonical.cc: dispatch, sums and products, atoms, rendering.
  Poly canon_node(const PrimExpr* e, const Ref<PrimExpr>& ref);
  Poly canon_var(const Ref<PrimExpr>& e);
  Poly canon_sum(const PrimExpr* e);
  bool merge_sum(const std::vector<Poly>& operands, size_t count, size_t base, Poly* out);
  Poly canon_product(const PrimExpr* e);
  Poly opaque(const Ref<PrimExpr>& e);
  Poly opaque_leaf(const Ref<PrimExpr>& e);
  AtomId intern(Atom&& a);
  // The id of an atom equal to `a`, or -1 when there is none (nothing is added).
  int64_t lookup(const Atom& a) const;
  bool atoms_equal(const Atom& a, const Atom& b) const;
  Ref<PrimExpr> render_atom(AtomId id);
  Ref<PrimExpr> render_term(const Term& t, int64_t coeff, DataType dt);
  void recombine(Poly* p);

  // canonical_rules.cc: division, min/max, select, cast.
  Poly canon_div(const PrimExpr* e);
  Poly canon_minmax(const PrimExpr* e);
  Poly canon_select(const PrimExpr* e);
  Poly canon_cast(const PrimExpr* e, const Ref<PrimExpr>& ref);
  bool divmod_const(const Poly& a, int64_t c, bool mod, DataType t, Poly* out, int depth = 0);
  bool truncdivmod_const(const Poly& a, int64_t c, bool mod, DataType t, Poly* out, int depth = 0);
  bool minmax_of(bool is_min, std::vector<Poly>& operands, DataType t, Poly* out);
  Poly atom_poly(AtomKind kind, DataType t, std::vector<Poly> operands);
  Poly atom_or_const(AtomId id);
  bool distribute_cast(const Poly& p, DataType from, DataType to, Poly* out);

  // canonical_bound.cc.
  ConstIntBound atom_bound(AtomId id);
  ModularSet atom_modular(AtomId id);
  ConstIntBound mono_bound(const Monomial& m);
  ConstIntBound strong_bound_at(const Poly& p, int depth);

  // simplify_expr.cc: comparisons, logic and the non-index dtypes.
  Ref<PrimExpr> simplify_bool(const Ref<PrimExpr>& e);
  Ref<PrimExpr> simplify_compare(const Ref<PrimExpr>& e);
  Ref<PrimExpr> simplify_logic(const Ref<PrimExpr>& e);
  Ref<PrimExpr> simplify_not(const Ref<PrimExpr>& e);
  Ref<PrimExpr> simplify_children(const Ref<PrimExpr>& e);
  Ref<PrimExpr> render_compare(ir::ObjectKind kind, const Poly& d, DataType t);
  // An integer comparison as `d <= 0`, `d == 0` or `d != 0` (for == and !=, d's first
  // coefficient is positive).
  struct ComparisonForm {
    ir::ObjectKind kind;
    Poly d;
    DataType dtype;
  };
  bool comparison_form(const Ref<PrimExpr>& e, ComparisonForm* out);
  Ref<PrimExpr> combine_comparisons(bool is_and, const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);

  const VarTable& vars_;
  std::vector<Atom> atoms_;
  // Open-addressing index over atoms_: slot holds id + 1, 0 when empty. Size a power of two.
  std::vector<uint32_t> slots_;
  // Results for nodes met more than once (shared subtrees), so DAGs cost their size.
  // Entries hold their key node: the simplifier makes and drops temporary nodes, and a dropped
  // node's address may be reused by a new one within the same query.
  struct PolyMemo {
    Ref<PrimExpr> key;
    Poly poly;
  };
  struct ExprMemo {
    Ref<PrimExpr> key;
    Ref<PrimExpr> result;
  };
  std::unordered_map<const PrimExpr*, PolyMemo> poly_memo_;
  std::unordered_map<const PrimExpr*, ExprMemo> expr_memo_;
  // Nodes of the +/- or * chains being walked (a stack shared by nested walks).
  std::vector<const PrimExpr*> spine_;
  // Vars being expanded through a binding; a var bound to itself stays an atom.
  std::vector<const tir::Var*> expanding_;
  int depth_ = 0;
  int budget_ = 0;  // case splits left to the current strong_bound call
};

}  // namespace relax::analysis::arith
