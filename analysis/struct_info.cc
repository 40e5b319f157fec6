// The struct-info algebra of SEMANTICS.md §1.3-§1.7: base check (four levels), join (LCA),
// erasure of out-of-scope symbolic values, the static form, the symbolic variables a struct info
// uses or defines, and call-site derivation that binds a callee's symbolic parameters.
#include "analysis/struct_info.h"

#include <algorithm>

#include "analysis/arith/substitute.h"
#include "ir/structural_equal.h"
#include "ir/tir_visitor.h"

namespace relax::analysis {

using ir::make;
using ir::ObjectKind;
using ir::tir::PrimExpr;
using PrimExprs = std::vector<Ref<PrimExpr>>;

namespace {

BaseCheck combine(BaseCheck a, BaseCheck b) {
  return std::min(a, b);
}

Ref<StructInfo> object_sinfo() {
  return make<ir::ObjectStructInfo>();
}

bool same_vdevice(const ir::VDevice& a, const ir::VDevice& b) {
  if (&a == &b) return true;
  if (a.vdevice_id != b.vdevice_id || a.memory_scope != b.memory_scope) return false;
  if (a.target == b.target) return true;
  if (!a.target || !b.target) return false;
  return ir::structural_equal(a.target, b.target);
}

// TVM's CanProveShapeEqual on two shape expressions: the same node, or two ShapeExprs whose dims
// are provably equal one by one.
bool can_prove_shape_equal(const Ref<ir::Expr>& a, const Ref<ir::Expr>& b, arith::Analyzer& az) {
  if (a.same_as(b)) return true;
  auto sa = a.as_ptr<ir::ShapeExpr>();
  auto sb = b.as_ptr<ir::ShapeExpr>();
  if (!sa || !sb || sa->values.size() != sb->values.size()) return false;
  for (size_t i = 0; i < sa->values.size(); ++i) {
    if (!az.can_prove_equal(sa->values[i], sb->values[i])) return false;
  }
  return true;
}

bool can_prove_values_equal(const PrimExprs& a, const PrimExprs& b, arith::Analyzer& az) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!az.can_prove_equal(a[i], b[i])) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Base check

class BaseChecker {
 public:
  explicit BaseChecker(arith::Analyzer& az) : az_(az) {}
  virtual ~BaseChecker() = default;

  virtual BaseCheck check(const Ref<StructInfo>& base, const Ref<StructInfo>& derived) {
    if (base.same_as(derived)) return BaseCheck::kPass;
    return dispatch(base, derived);
  }

 protected:
  BaseCheck dispatch(const Ref<StructInfo>& base, const Ref<StructInfo>& derived) {
    if (!base || base.is<ir::ObjectStructInfo>()) return BaseCheck::kPass;
    if (!derived) return BaseCheck::kFailL1;
    if (base->kind() != derived->kind()) {
      return derived.is<ir::ObjectStructInfo>() ? BaseCheck::kFailL1 : BaseCheck::kFailL0;
    }
    switch (base->kind()) {
      case ObjectKind::kPrimStructInfo: {
        const auto& l = static_cast<const ir::PrimStructInfo&>(*base);
        const auto& r = static_cast<const ir::PrimStructInfo&>(*derived);
        if (l.dtype != r.dtype) return BaseCheck::kFailL0;
        if (!l.value) return BaseCheck::kPass;
        if (!r.value) return BaseCheck::kFailL2;
        return prim_match(l.value, r.value);
      }
      case ObjectKind::kShapeStructInfo: {
        const auto& l = static_cast<const ir::ShapeStructInfo&>(*base);
        const auto& r = static_cast<const ir::ShapeStructInfo&>(*derived);
        if (l.ndim == ir::kUnknownNDim) return BaseCheck::kPass;
        if (l.ndim != r.ndim)
          return r.ndim == ir::kUnknownNDim ? BaseCheck::kFailL1 : BaseCheck::kFailL0;
        if (!l.values) return BaseCheck::kPass;
        if (!r.values) return BaseCheck::kFailL2;
        return values_match(*l.values, *r.values);
      }
      case ObjectKind::kTensorStructInfo: {
        const auto& l = static_cast<const ir::TensorStructInfo&>(*base);
        const auto& r = static_cast<const ir::TensorStructInfo&>(*derived);
        if (!l.is_unknown_dtype() && l.dtype != r.dtype) {
          return r.is_unknown_dtype() ? BaseCheck::kFailL1 : BaseCheck::kFailL0;
        }
        if (!l.is_unknown_ndim() && l.ndim != r.ndim) {
          return r.is_unknown_ndim() ? BaseCheck::kFailL1 : BaseCheck::kFailL0;
        }
        if (l.vdevice && !r.vdevice) return BaseCheck::kFailL1;
        if (l.vdevice && r.vdevice) {
          if (l.vdevice->target && !r.vdevice->target) return BaseCheck::kFailL1;
          if (l.vdevice->target && r.vdevice->target && !same_vdevice(*l.vdevice, *r.vdevice)) {
            return BaseCheck::kFailL0;
          }
        }
        if (!l.shape) return BaseCheck::kPass;
        if (!r.shape) return BaseCheck::kFailL2;
        return shape_match(l.shape, r.shape);
      }
      case ObjectKind::kTupleStructInfo: {
        const auto& l = static_cast<const ir::TupleStructInfo&>(*base);
        const auto& r = static_cast<const ir::TupleStructInfo&>(*derived);
        return array_check(l.fields, r.fields);
      }
      case ObjectKind::kFuncStructInfo: {
        const auto& l = static_cast<const ir::FuncStructInfo&>(*base);
        const auto& r = static_cast<const ir::FuncStructInfo&>(*derived);
        if (l.purity && !r.purity) return BaseCheck::kFailL0;
        if (l.is_opaque()) {
          if (!l.derive_func.empty()) {
            return l.derive_func == r.derive_func ? BaseCheck::kPass : BaseCheck::kFailL2;
          }
          return check(l.ret ? l.ret : object_sinfo(), r.ret ? r.ret : object_sinfo());
        }
        if (r.is_opaque()) return BaseCheck::kFailL2;
        if (ir::structural_equal(base, derived)) return BaseCheck::kPass;
        BaseCheck params = func_params_check(*l.params, *r.params);
        return combine(params,
                       check(l.ret ? l.ret : object_sinfo(), r.ret ? r.ret : object_sinfo()));
      }
      default:
        return BaseCheck::kFailL0;
    }
  }

  virtual BaseCheck prim_match(const Ref<PrimExpr>& base, const Ref<PrimExpr>& derived) {
    auto a = base.as_ptr<ir::tir::IntImm>();
    auto b = derived.as_ptr<ir::tir::IntImm>();
    if (a && b) return a->value == b->value ? BaseCheck::kPass : BaseCheck::kFailL0;
    return az_.can_prove_equal(base, derived) ? BaseCheck::kPass : BaseCheck::kFailL2;
  }

  BaseCheck values_match(const PrimExprs& base, const PrimExprs& derived) {
    if (base.size() != derived.size()) return BaseCheck::kFailL0;
    BaseCheck ret = BaseCheck::kPass;
    for (size_t i = 0; i < base.size(); ++i) {
      ret = combine(ret, prim_match(base[i], derived[i]));
      if (ret == BaseCheck::kFailL0) return ret;
    }
    return ret;
  }

  virtual BaseCheck shape_match(const Ref<ir::Expr>& base, const Ref<ir::Expr>& derived) {
    if (base.same_as(derived)) return BaseCheck::kPass;
    auto a = base.as_ptr<ir::ShapeExpr>();
    auto b = derived.as_ptr<ir::ShapeExpr>();
    if (a && b) return values_match(a->values, b->values);
    return BaseCheck::kFailL2;
  }

  virtual BaseCheck func_params_check(const std::vector<Ref<StructInfo>>& base,
                                      const std::vector<Ref<StructInfo>>& derived) {
    BaseCheck res = array_check(base, derived);
    // Parameters are checked covariantly and best effort: a static mismatch is only "unproven".
    return res == BaseCheck::kFailL1 ? BaseCheck::kFailL2 : res;
  }

  BaseCheck array_check(const std::vector<Ref<StructInfo>>& base,
                        const std::vector<Ref<StructInfo>>& derived) {
    if (base.size() != derived.size()) return BaseCheck::kFailL0;
    BaseCheck ret = BaseCheck::kPass;
    for (size_t i = 0; i < base.size(); ++i) {
      ret = combine(ret, check(base[i], derived[i]));
      if (ret == BaseCheck::kFailL0) return ret;
    }
    return ret;
  }

  arith::Analyzer& az_;
};

// ---------------------------------------------------------------------------------------------
// Erasure

using ShapeVarMap = std::unordered_map<const ir::tir::Var*, Ref<PrimExpr>>;
using RelaxVarMap = std::unordered_map<const ir::Var*, Ref<ir::Expr>>;

class Eraser {
 public:
  Eraser(const ShapeVarMap& shape_map, const std::function<bool(const ir::tir::Var*)>* is_defined,
         const RelaxVarMap* var_map, arith::Analyzer& az)
      : shape_map_(shape_map), is_defined_(is_defined), var_map_(var_map), az_(az) {}

  Ref<StructInfo> erase(const Ref<StructInfo>& s) {
    if (!s) return s;
    switch (s->kind()) {
      case ObjectKind::kPrimStructInfo: {
        const auto& p = static_cast<const ir::PrimStructInfo&>(*s);
        if (!p.value) return s;
        bool undefined = false;
        Ref<PrimExpr> v = erase_prim(p.value, undefined);
        if (undefined) return make<ir::PrimStructInfo>(p.dtype);
        if (v.same_as(p.value)) return s;
        return make<ir::PrimStructInfo>(v->dtype, v);
      }
      case ObjectKind::kShapeStructInfo: {
        const auto& sh = static_cast<const ir::ShapeStructInfo&>(*s);
        if (!sh.values) return s;
        bool undefined = false, changed = false;
        PrimExprs values = erase_values(*sh.values, undefined, changed);
        if (undefined) return make<ir::ShapeStructInfo>(sh.ndim);
        if (!changed) return s;
        return make<ir::ShapeStructInfo>(std::move(values));
      }
      case ObjectKind::kTensorStructInfo: {
        const auto& t = static_cast<const ir::TensorStructInfo&>(*s);
        if (!t.shape) return s;
        bool undefined = false;
        Ref<ir::Expr> shape = erase_shape(t.shape, undefined);
        if (undefined) return make<ir::TensorStructInfo>(nullptr, t.dtype, t.ndim, t.vdevice);
        if (shape.same_as(t.shape)) return s;
        return make<ir::TensorStructInfo>(shape, t.dtype, t.ndim, t.vdevice);
      }
      case ObjectKind::kTupleStructInfo: {
        const auto& tu = static_cast<const ir::TupleStructInfo&>(*s);
        std::vector<Ref<StructInfo>> fields;
        bool changed = false;
        for (const auto& f : tu.fields) {
          fields.push_back(erase(f));
          changed |= !fields.back().same_as(f);
        }
        if (!changed) return s;
        return make<ir::TupleStructInfo>(std::move(fields));
      }
      default:
        // Function struct info is always well defined: its symbolic vars are its parameters'.
        return s;
    }
  }

 private:
  Ref<PrimExpr> erase_prim(const Ref<PrimExpr>& e, bool& undefined) {
    bool replaced = false;
    Ref<PrimExpr> out = arith::substitute(e, [&](const Ref<ir::tir::Var>& v) -> Ref<PrimExpr> {
      auto it = shape_map_.find(v.get());
      if (it != shape_map_.end()) {
        replaced = true;
        const Ref<PrimExpr>& value = it->second;
        if (auto imm = value.as_ptr<ir::tir::IntImm>();
            imm && imm->dtype != ir::DataType::Int64()) {
          return ir::tir::int64(imm->value);
        }
        return value;
      }
      if (!is_defined_ || !(*is_defined_)(v.get())) undefined = true;
      return nullptr;
    });
    if (undefined) return e;
    if (replaced && !out.same_as(e)) return az_.simplify(out);
    return e;
  }

  PrimExprs erase_values(const PrimExprs& values, bool& undefined, bool& changed) {
    PrimExprs out;
    out.reserve(values.size());
    for (const auto& v : values) {
      out.push_back(erase_prim(v, undefined));
      changed |= !out.back().same_as(v);
    }
    return out;
  }

  Ref<ir::Expr> erase_shape(const Ref<ir::Expr>& shape, bool& undefined) {
    if (auto se = shape.as_ptr<ir::ShapeExpr>()) {
      bool changed = false;
      PrimExprs values = erase_values(se->values, undefined, changed);
      if (undefined || !changed) return shape;
      auto out = make<ir::ShapeExpr>(std::move(values));
      out->struct_info = make<ir::ShapeStructInfo>(out->values);
      return out;
    }
    if (auto v = shape.as_ptr<ir::Var>()) {
      // A shape variable is only kept where the caller maps it (call-site derivation).
      if (var_map_) {
        auto it = var_map_->find(v);
        if (it != var_map_->end()) return it->second;
      }
      undefined = true;
      return shape;
    }
    undefined = true;
    return shape;
  }

  const ShapeVarMap& shape_map_;
  const std::function<bool(const ir::tir::Var*)>* is_defined_;
  const RelaxVarMap* var_map_;
  arith::Analyzer& az_;
};

// ---------------------------------------------------------------------------------------------
// Call-site derivation: the base check with the parameters on the left, binding each bare
// symbolic parameter var (and shape variable) to the argument's value on first sight.

class CallDeriver : public BaseChecker {
 public:
  explicit CallDeriver(arith::Analyzer& az) : BaseChecker(az) {}

  // No quick path: every pair is visited so that all bindings are collected.
  BaseCheck check(const Ref<StructInfo>& base, const Ref<StructInfo>& derived) override {
    return dispatch(base, derived);
  }

  ShapeVarMap shape_map;
  RelaxVarMap var_map;

 protected:
  BaseCheck prim_match(const Ref<PrimExpr>& param, const Ref<PrimExpr>& arg) override {
    if (!populate_) return BaseChecker::prim_match(param, arg);
    if (auto v = param.as_ptr<ir::tir::Var>()) {
      auto it = shape_map.find(v);
      if (it == shape_map.end()) {
        shape_map.emplace(v, arg);
        return BaseCheck::kPass;
      }
      return az_.can_prove_equal(it->second, arg) ? BaseCheck::kPass : BaseCheck::kFailL2;
    }
    // A compound parameter dim (`n + 1`) is only checked, never used to bind.
    return BaseChecker::prim_match(param, arg);
  }

  BaseCheck shape_match(const Ref<ir::Expr>& param, const Ref<ir::Expr>& arg) override {
    if (!populate_) return BaseChecker::shape_match(param, arg);
    if (auto v = param.as_ptr<ir::Var>()) {
      auto it = var_map.find(v);
      if (it == var_map.end()) {
        var_map.emplace(v, arg);
        return BaseCheck::kPass;
      }
      return can_prove_shape_equal(it->second, arg, az_) ? BaseCheck::kPass : BaseCheck::kFailL2;
    }
    auto p = param.as_ptr<ir::ShapeExpr>();
    auto a = arg.as_ptr<ir::ShapeExpr>();
    if (!p || !a) return BaseCheck::kFailL2;
    return values_match(p->values, a->values);
  }

  BaseCheck func_params_check(const std::vector<Ref<StructInfo>>& base,
                              const std::vector<Ref<StructInfo>>& derived) override {
    // Vars inside function-typed parameters are not bound.
    bool saved = populate_;
    populate_ = false;
    BaseCheck res = BaseChecker::func_params_check(base, derived);
    populate_ = saved;
    return res;
  }

 private:
  bool populate_ = true;
};

// ---------------------------------------------------------------------------------------------
// LCA

class LcaFinder {
 public:
  explicit LcaFinder(arith::Analyzer& az) : az_(az) {}

  Ref<StructInfo> lca(const Ref<StructInfo>& l, const Ref<StructInfo>& r) {
    if (l.same_as(r)) return l;
    if (!l || !r || l.is<ir::ObjectStructInfo>()) return l ? l : object_sinfo();
    if (l->kind() != r->kind()) return object_sinfo();
    switch (l->kind()) {
      case ObjectKind::kPrimStructInfo: {
        const auto& a = static_cast<const ir::PrimStructInfo&>(*l);
        const auto& b = static_cast<const ir::PrimStructInfo&>(*r);
        // Prim values are boxed: different dtypes only meet at Object.
        if (a.dtype != b.dtype) return object_sinfo();
        if (!a.value) return l;
        if (b.value && az_.can_prove_equal(a.value, b.value)) return l;
        return make<ir::PrimStructInfo>(a.dtype);
      }
      case ObjectKind::kShapeStructInfo: {
        const auto& a = static_cast<const ir::ShapeStructInfo&>(*l);
        const auto& b = static_cast<const ir::ShapeStructInfo&>(*r);
        int ndim = a.ndim == b.ndim ? a.ndim : ir::kUnknownNDim;
        if (a.ndim != b.ndim || !a.values || !b.values ||
            !can_prove_values_equal(*a.values, *b.values, az_)) {
          if (!a.values && a.ndim == ndim) return l;
          return make<ir::ShapeStructInfo>(ndim);
        }
        return l;
      }
      case ObjectKind::kTensorStructInfo: {
        const auto& a = static_cast<const ir::TensorStructInfo&>(*l);
        const auto& b = static_cast<const ir::TensorStructInfo&>(*r);
        ir::DataType dtype = a.dtype == b.dtype ? a.dtype : ir::DataType::Void();
        int ndim = a.ndim == b.ndim ? a.ndim : ir::kUnknownNDim;
        Ref<ir::VDevice> vdev;
        if (a.vdevice && b.vdevice && same_vdevice(*a.vdevice, *b.vdevice)) vdev = a.vdevice;
        if (a.ndim != b.ndim || !a.shape || !b.shape ||
            !can_prove_shape_equal(a.shape, b.shape, az_)) {
          if (!a.shape && a.dtype == dtype && a.ndim == ndim && (!a.vdevice || vdev)) return l;
          return make<ir::TensorStructInfo>(nullptr, dtype, ndim, vdev);
        }
        if (a.dtype != dtype || (a.vdevice && !vdev))
          return make<ir::TensorStructInfo>(a.shape, dtype, a.ndim, vdev);
        return l;
      }
      case ObjectKind::kTupleStructInfo: {
        const auto& a = static_cast<const ir::TupleStructInfo&>(*l);
        const auto& b = static_cast<const ir::TupleStructInfo&>(*r);
        if (a.fields.size() != b.fields.size()) return object_sinfo();
        std::vector<Ref<StructInfo>> fields;
        bool changed = false;
        for (size_t i = 0; i < a.fields.size(); ++i) {
          fields.push_back(lca(a.fields[i], b.fields[i]));
          changed |= !fields.back().same_as(a.fields[i]);
        }
        if (!changed) return l;
        return make<ir::TupleStructInfo>(std::move(fields));
      }
      case ObjectKind::kFuncStructInfo: {
        const auto& a = static_cast<const ir::FuncStructInfo&>(*l);
        const auto& b = static_cast<const ir::FuncStructInfo&>(*r);
        bool purity = a.purity && b.purity;
        auto opaque = [&](Ref<StructInfo> ret) {
          auto f = make<ir::FuncStructInfo>();
          f->ret = std::move(ret);
          f->purity = purity;
          return f;
        };
        Ref<StructInfo> aret = a.ret ? a.ret : object_sinfo();
        Ref<StructInfo> bret = b.ret ? b.ret : object_sinfo();
        if (a.is_opaque()) {
          if (!a.derive_func.empty()) {
            if (a.derive_func == b.derive_func) return l;
            return opaque(object_sinfo());
          }
          Ref<StructInfo> ret = lca(aret, bret);
          if (ret.same_as(aret)) return l;
          return opaque(ret);
        }
        if (b.is_opaque()) return opaque(lca(aret, bret));
        if (ir::structural_equal(l, r)) return l;
        Ref<StructInfo> ret = lca(aret, bret);
        if (a.params->size() != b.params->size()) return opaque(ret);
        std::vector<Ref<StructInfo>> params;
        bool changed = !ret.same_as(aret);
        for (size_t i = 0; i < a.params->size(); ++i) {
          params.push_back(lca((*a.params)[i], (*b.params)[i]));
          changed |= !params.back().same_as((*a.params)[i]);
        }
        if (!changed) return l;
        auto f = make<ir::FuncStructInfo>();
        f->params = std::move(params);
        f->ret = ret;
        f->purity = purity;
        return f;
      }
      default:
        return object_sinfo();
    }
  }

 private:
  arith::Analyzer& az_;
};

// ---------------------------------------------------------------------------------------------
// Symbolic variables in struct info

class TirVarCollector : public ir::tir::Visitor {
 public:
  explicit TirVarCollector(std::vector<Ref<ir::tir::Var>>& out) : out_(out) {}
  void visit_var(const Ref<ir::tir::Var>& v) override { record(v); }
  void record(const Ref<ir::tir::Var>& v) {
    for (const auto& seen : out_) {
      if (seen.same_as(v)) return;
    }
    out_.push_back(v);
  }

 private:
  std::vector<Ref<ir::tir::Var>>& out_;
};

void collect_vars(const Ref<StructInfo>& s, bool definable_only, TirVarCollector& c) {
  if (!s) return;
  auto visit_dim = [&](const Ref<PrimExpr>& d) {
    if (definable_only) {
      if (auto v = d.as<ir::tir::Var>()) c.record(v);
    } else {
      c.visit_expr(d);
    }
  };
  switch (s->kind()) {
    case ObjectKind::kPrimStructInfo: {
      const auto& p = static_cast<const ir::PrimStructInfo&>(*s);
      if (p.value) visit_dim(p.value);
      return;
    }
    case ObjectKind::kShapeStructInfo: {
      const auto& sh = static_cast<const ir::ShapeStructInfo&>(*s);
      if (sh.values) {
        for (const auto& d : *sh.values) visit_dim(d);
      }
      return;
    }
    case ObjectKind::kTensorStructInfo: {
      const auto& t = static_cast<const ir::TensorStructInfo&>(*s);
      if (const auto* values = t.shape_values()) {
        for (const auto& d : *values) visit_dim(d);
      }
      return;
    }
    case ObjectKind::kTupleStructInfo:
      for (const auto& f : static_cast<const ir::TupleStructInfo&>(*s).fields)
        collect_vars(f, definable_only, c);
      return;
    case ObjectKind::kFuncStructInfo: {
      const auto& f = static_cast<const ir::FuncStructInfo&>(*s);
      if (f.params) {
        for (const auto& p : *f.params) collect_vars(p, definable_only, c);
      }
      collect_vars(f.ret, definable_only, c);
      return;
    }
    default:
      return;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public API

BaseCheck struct_info_base_check(const Ref<StructInfo>& base, const Ref<StructInfo>& derived,
                                 arith::Analyzer& analyzer) {
  BaseChecker checker(analyzer);
  return checker.check(base, derived);
}

Ref<StructInfo> struct_info_lca(const Ref<StructInfo>& lhs, const Ref<StructInfo>& rhs,
                                arith::Analyzer& analyzer) {
  LcaFinder finder(analyzer);
  return finder.lca(lhs, rhs);
}

Ref<StructInfo> erase_to_well_defined(
    const Ref<StructInfo>& sinfo,
    const std::unordered_map<const ir::tir::Var*, Ref<ir::tir::PrimExpr>>& var_map,
    const std::function<bool(const ir::tir::Var*)>& is_defined, arith::Analyzer& analyzer) {
  Eraser eraser(var_map, is_defined ? &is_defined : nullptr, nullptr, analyzer);
  return eraser.erase(sinfo);
}

Ref<StructInfo> static_struct_info(const Ref<StructInfo>& sinfo) {
  if (!sinfo) return sinfo;
  switch (sinfo->kind()) {
    case ObjectKind::kPrimStructInfo: {
      const auto& p = static_cast<const ir::PrimStructInfo&>(*sinfo);
      if (!p.value) return sinfo;
      return make<ir::PrimStructInfo>(p.dtype);
    }
    case ObjectKind::kShapeStructInfo: {
      const auto& s = static_cast<const ir::ShapeStructInfo&>(*sinfo);
      if (!s.values) return sinfo;
      return make<ir::ShapeStructInfo>(s.ndim);
    }
    case ObjectKind::kTensorStructInfo: {
      const auto& t = static_cast<const ir::TensorStructInfo&>(*sinfo);
      if (!t.shape) return sinfo;
      return make<ir::TensorStructInfo>(nullptr, t.dtype, t.ndim, t.vdevice);
    }
    case ObjectKind::kTupleStructInfo: {
      std::vector<Ref<StructInfo>> fields;
      for (const auto& f : static_cast<const ir::TupleStructInfo&>(*sinfo).fields)
        fields.push_back(static_struct_info(f));
      return make<ir::TupleStructInfo>(std::move(fields));
    }
    case ObjectKind::kFuncStructInfo: {
      const auto& f = static_cast<const ir::FuncStructInfo&>(*sinfo);
      auto out = make<ir::FuncStructInfo>();
      out->purity = f.purity;
      if (f.is_opaque()) {
        // An opaque function's static form is a packed function: nothing known of its result.
        out->ret = object_sinfo();
        return out;
      }
      std::vector<Ref<StructInfo>> params;
      for (const auto& p : *f.params) params.push_back(static_struct_info(p));
      out->params = std::move(params);
      out->ret = static_struct_info(f.ret ? f.ret : object_sinfo());
      return out;
    }
    default:
      return sinfo;
  }
}

std::vector<Ref<ir::tir::Var>> tir_vars_in(const Ref<StructInfo>& sinfo) {
  std::vector<Ref<ir::tir::Var>> out;
  TirVarCollector collector(out);
  collect_vars(sinfo, false, collector);
  return out;
}

std::vector<Ref<ir::tir::Var>> definable_tir_vars(const Ref<StructInfo>& sinfo) {
  std::vector<Ref<ir::tir::Var>> out;
  TirVarCollector collector(out);
  collect_vars(sinfo, true, collector);
  return out;
}

Ref<StructInfo> struct_info_of(const Ref<ir::Expr>& expr) {
  if (!expr) return object_sinfo();
  if (expr->struct_info) return expr->struct_info;
  switch (expr->kind()) {
    case ObjectKind::kConstant: {
      const auto& c = static_cast<const ir::Constant&>(*expr);
      if (!c.data) return object_sinfo();
      PrimExprs shape;
      for (int64_t d : c.data->shape) shape.push_back(ir::tir::int64(d));
      return ir::tensor_sinfo(std::move(shape), c.data->dtype);
    }
    case ObjectKind::kShapeExpr:
      return make<ir::ShapeStructInfo>(static_cast<const ir::ShapeExpr&>(*expr).values);
    case ObjectKind::kPrimValue: {
      const auto& p = static_cast<const ir::PrimValue&>(*expr);
      return make<ir::PrimStructInfo>(p.value->dtype, p.value);
    }
    case ObjectKind::kExternFunc:
      return extern_func_struct_info();
    case ObjectKind::kTuple: {
      std::vector<Ref<StructInfo>> fields;
      for (const auto& f : static_cast<const ir::Tuple&>(*expr).fields)
        fields.push_back(struct_info_of(f));
      return make<ir::TupleStructInfo>(std::move(fields));
    }
    default:
      return object_sinfo();
  }
}

Ref<ir::FuncStructInfo> extern_func_struct_info() {
  auto f = make<ir::FuncStructInfo>();
  f->ret = object_sinfo();
  f->purity = false;
  f->derive_func = kInferBySinfoArgs;
  return f;
}

Ref<StructInfo> struct_info_from_sinfo_args(const std::vector<Ref<StructInfo>>& sinfo_args) {
  if (sinfo_args.empty()) return object_sinfo();
  if (sinfo_args.size() == 1) return sinfo_args[0];
  return make<ir::TupleStructInfo>(sinfo_args);
}

Ref<ir::FuncStructInfo> prim_func_struct_info(const ir::tir::PrimFunc& func) {
  auto out = make<ir::FuncStructInfo>();
  std::vector<Ref<StructInfo>> params;
  for (const auto& p : func.params) {
    if (auto buf = func.buffer_of(p)) {
      PrimExprs shape;
      for (const auto& d : buf->shape) {
        if (auto imm = d.as_ptr<ir::tir::IntImm>()) {
          shape.push_back(
              imm->dtype == ir::DataType::Int64() ? d : Ref<PrimExpr>(ir::tir::int64(imm->value)));
        } else if (d->dtype == ir::DataType::Int64()) {
          shape.push_back(d);
        } else {
          shape.push_back(make<ir::tir::Cast>(ir::DataType::Int64(), d));
        }
      }
      params.push_back(ir::tensor_sinfo(std::move(shape), buf->dtype));
    } else if (p->dtype.is_handle()) {
      params.push_back(object_sinfo());
    } else {
      params.push_back(make<ir::PrimStructInfo>(p->dtype));
    }
  }
  out->params = std::move(params);
  if (func.ret_type.is_void()) {
    out->ret = ir::void_sinfo();
  } else {
    out->ret = make<ir::PrimStructInfo>(func.ret_type);
  }
  out->purity = func.body != nullptr;
  return out;
}

CallDerivation derive_call_ret_struct_info(const ir::FuncStructInfo& func,
                                           const std::vector<Ref<StructInfo>>& args,
                                           arith::Analyzer& analyzer,
                                           const std::vector<Ref<StructInfo>>* sinfo_args) {
  CallDerivation out;
  if (func.is_opaque()) {
    if (!func.derive_func.empty()) {
      out.ret = func.derive_func == kInferBySinfoArgs && sinfo_args
                    ? struct_info_from_sinfo_args(*sinfo_args)
                    : object_sinfo();
    } else {
      out.ret = func.ret ? func.ret : object_sinfo();
    }
    return out;
  }
  const auto& params = *func.params;
  if (params.size() != args.size()) {
    out.error = "expects " + std::to_string(params.size()) + " argument" +
                (params.size() == 1 ? "" : "s") + ", got " + std::to_string(args.size());
    return out;
  }
  CallDeriver deriver(analyzer);
  for (size_t i = 0; i < params.size(); ++i) {
    BaseCheck res = deriver.check(params[i], args[i] ? args[i] : object_sinfo());
    if (res == BaseCheck::kFailL0 || res == BaseCheck::kFailL1) {
      out.mismatches.emplace_back(static_cast<int>(i), res);
      if (out.bad_argument < 0) {
        out.bad_argument = static_cast<int>(i);
        out.bad_argument_check = res;
      }
    }
  }
  if (out.bad_argument >= 0) {
    out.error = "argument " + std::to_string(out.bad_argument) + " does not match its parameter";
    return out;
  }
  Eraser eraser(deriver.shape_map, nullptr, &deriver.var_map, analyzer);
  out.ret = eraser.erase(func.ret ? func.ret : object_sinfo());
  return out;
}

}  // namespace relax::analysis
