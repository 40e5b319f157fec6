// BindParams: the parameters of one function that are named in a table of tensors (weights
// read from a .safetensors file) are removed from its parameter list and every use reads a
// constant holding that tensor instead; the symbolic dims of a bound parameter take the
// tensor's sizes everywhere in the function. A tensor whose dtype or rank does not match the
// parameter, or whose dims contradict static ones or each other, is reported (E0773) and the
// function is left unchanged. Leaves alone: other functions, parameters not in the table,
// table entries that name no parameter.
#include "compiler/relax/bind_params.h"

#include <unordered_map>

#include "compiler/relax/pass_util.h"
#include "ir/visitor.h"
#include "vm/io/safetensors.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

// Replaces symbolic variables by constants in struct info and prim expressions.
class Substitute : public ExprMutator {
 public:
  std::unordered_map<const tir::Var*, int64_t> values;

  Ref<PrimExpr> mutate_prim_expr(const Ref<PrimExpr>& e) override { return subst(e); }
  Ref<StructInfo> mutate_struct_info(const Ref<StructInfo>& s) override {
    if (auto t = s.as<TensorStructInfo>()) {
      auto shape = t->shape.as<ShapeExpr>();
      if (!shape) return s;
      auto ns = mutate_shape_expr(shape);
      if (ns.same_as(shape)) return s;
      return make<TensorStructInfo>(ns, t->dtype, t->ndim, t->vdevice);
    }
    return s;
  }
  void bind_var(const Ref<Var>& param, Ref<Expr> value) {
    var_remap_[param.get()] = std::move(value);
  }

 private:
  Ref<PrimExpr> subst(const Ref<PrimExpr>& e) {
    if (auto v = e.as<tir::Var>()) {
      auto it = values.find(v.get());
      return it == values.end() ? e : Ref<PrimExpr>(tir::int_imm(v->dtype, it->second));
    }
    if (auto b = e.as<tir::BinaryOp>()) {
      auto a = subst(b->a), c = subst(b->b);
      if (a.same_as(b->a) && c.same_as(b->b)) return e;
      return tir::binary(b->kind(), a, c);
    }
    return e;
  }
};

Ref<Function> bind(const Ref<Function>& f, const ParamMap& params, DiagnosticBag& diags) {
  Substitute sub;
  std::vector<Ref<Var>> kept;
  bool any = false;
  for (const auto& p : f->params) {
    auto it = params.find(p->name);
    if (it == params.end()) {
      kept.push_back(p);
      continue;
    }
    const TensorData& data = *it->second;
    auto t = p->struct_info.as<TensorStructInfo>();
    auto fail = [&](const std::string& why) {
      diags.error("E0773", p->span, "BindParams: cannot bind `" + p->name + "`: " + why);
    };
    if (!t) {
      fail("the parameter is not a tensor");
      return f;
    }
    if (!t->is_unknown_dtype() && t->dtype != data.dtype) {
      fail("the tensor has dtype " + data.dtype.str() + ", the parameter " + t->dtype.str());
      return f;
    }
    if (!t->is_unknown_ndim() && t->ndim != static_cast<int>(data.shape.size())) {
      fail("the tensor has " + std::to_string(data.shape.size()) + " dimensions, the parameter " +
           std::to_string(t->ndim));
      return f;
    }
    if (const auto* dims = t->shape_values()) {
      for (size_t i = 0; i < dims->size(); ++i) {
        const auto& d = (*dims)[i];
        int64_t actual = data.shape[i];
        if (auto c = tir::as_const_int(d)) {
          if (*c != actual) {
            fail("dimension " + std::to_string(i) + " is " + std::to_string(actual) +
                 " but the parameter has " + std::to_string(*c));
            return f;
          }
        } else if (auto v = d.as<tir::Var>()) {
          auto [at, fresh] = sub.values.emplace(v.get(), actual);
          if (!fresh && at->second != actual) {
            fail("dimension " + std::to_string(i) + " is " + std::to_string(actual) + " but " +
                 v->name + " = " + std::to_string(at->second) + " from an earlier dimension");
            return f;
          }
        }
      }
    }
    auto c = make<Constant>(it->second);
    c->span = p->span;
    sub.bind_var(p, c);
    any = true;
  }
  if (!any) return f;
  auto g = copy(f);
  g->params = kept;
  g->struct_info = nullptr;
  return sub.mutate(g).as<Function>();
}

}  // namespace

Pass bind_params_pass(std::string func, ParamMap params) {
  Pass p;
  p.name = "BindParams";
  p.doc = "Binds named parameters of a function to constant tensors (weights)";
  p.fn = [func, params](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      const auto* member = m->find(func);
      if (!member || !member->func.same_as(f)) return f;
      return bind(f, params, ctx.diagnostics());
    });
  };
  return p;
}

bool read_params(const std::string& path, ParamMap& out, std::string& error) {
  auto file = vm::read_safetensors(path);
  if (!file) {
    error = file.error().message;
    return false;
  }
  for (const auto& nt : file->tensors) {
    auto data = std::make_shared<TensorData>();
    auto dt = DataType::parse(vm::dtype_name(nt.tensor->dtype()));
    if (!dt) {
      error = path + ": tensor `" + nt.name + "` has an unsupported dtype";
      return false;
    }
    data->dtype = *dt;
    data->shape.assign(nt.tensor->shape().begin(), nt.tensor->shape().end());
    const auto* bytes = static_cast<const uint8_t*>(nt.tensor->data());
    data->bytes.assign(bytes, bytes + nt.tensor->nbytes());
    out[nt.name] = std::move(data);
  }
  return true;
}

}  // namespace relax::compiler::relax_passes
