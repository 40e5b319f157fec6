// BindParams: the parameters of one function that the tensors of a table (weights read from a
// .safetensors file) match by name (match_params: the same name, else dots as underscores) are
// removed from its parameter list and every use reads a constant holding that tensor instead;
// the symbolic dims of a bound parameter take the tensor's sizes everywhere in the function. A
// tensor whose dtype or rank does not match the parameter, or whose dims contradict static ones
// or each other, is reported (E0773) and the function is left unchanged; so is an ambiguous name
// (E0779). Tensors that bind nothing are warned about (W0778). Leaves alone: other functions
// and parameters no tensor matches.
#include "compiler/relax/bind_params.h"

#include <algorithm>
#include <unordered_map>

#include "compiler/relax/pass_util.h"
#include "ir/suggest.h"
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

std::string dots_as_underscores(std::string name) {
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

Ref<Function> bind(const Ref<Function>& f, const std::string& func, const ParamMap& params,
                   const std::string& source, DiagnosticBag& diags) {
  std::vector<std::string> tensor_names, param_names;
  for (const auto& [name, data] : params) tensor_names.push_back(name);
  for (const auto& p : f->params) param_names.push_back(p->name);
  size_t errors_before = diags.error_count();
  std::vector<ParamBinding> bindings =
      match_params(tensor_names, param_names, source, func, f->span, diags);
  if (diags.error_count() != errors_before) return f;
  std::vector<const ParamBinding*> binding_of(f->params.size(), nullptr);
  for (const auto& b : bindings) binding_of[b.param] = &b;
  Substitute sub;
  std::vector<Ref<Var>> kept;
  bool any = false;
  for (size_t i = 0; i < f->params.size(); ++i) {
    const auto& p = f->params[i];
    if (!binding_of[i]) {
      kept.push_back(p);
      continue;
    }
    auto it = params.find(binding_of[i]->tensor);
    const TensorData& data = *it->second;
    auto t = p->struct_info.as<TensorStructInfo>();
    auto fail = [&](const std::string& why) {
      std::string from = it->first == p->name ? "" : " to tensor `" + it->first + "`";
      diags.error("E0773", p->span,
                  "BindParams: cannot bind `" + p->name + "`" + from + ": " + why);
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

std::vector<ParamBinding> match_params(const std::vector<std::string>& tensors,
                                       const std::vector<std::string>& params,
                                       const std::string& source, const std::string& func,
                                       ir::Span span, ir::DiagnosticBag& diags) {
  // For each parameter, the tensors that name it; for each tensor, the parameters it names.
  std::vector<std::vector<std::string>> claims(params.size());
  std::vector<std::string> unused;
  for (const std::string& t : tensors) {
    std::vector<size_t> found;
    for (const std::string& name : {t, dots_as_underscores(t)}) {
      for (size_t i = 0; i < params.size(); ++i) {
        if (params[i] == name) found.push_back(i);
      }
      if (!found.empty()) break;
    }
    if (found.empty()) {
      unused.push_back(t);
    } else if (found.size() > 1) {
      diags.error("E0779", span,
                  "tensor `" + t + "` of " + source + " matches " + std::to_string(found.size()) +
                      " parameters of `" + func + "` called `" + params[found[0]] + "`");
    } else {
      claims[found[0]].push_back(t);
    }
  }
  std::vector<ParamBinding> out;
  std::vector<std::string> free_params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (claims[i].size() == 1) {
      out.push_back({i, claims[i][0]});
    } else if (claims[i].size() > 1) {
      std::string names;
      for (size_t k = 0; k < claims[i].size(); ++k)
        names += (k ? (k + 1 == claims[i].size() ? " and `" : ", `") : "`") + claims[i][k] + "`";
      diags.error("E0779", span,
                  "tensors " + names + " of " + source + " all name parameter `" + params[i] +
                      "` of `" + func + "`");
    } else {
      free_params.push_back(params[i]);
    }
  }
  for (const std::string& t : unused) {
    auto& d = diags.warning(
        "W0778", span, "tensor `" + t + "` of " + source + " binds no parameter of `" + func + "`");
    std::string key = dots_as_underscores(t);
    std::string best = ir::closest_match(key, free_params);
    if (!best.empty()) {
      d.note("did you mean `" + best + "`?");
    } else if (!free_params.empty()) {
      std::string list;
      for (size_t k = 0; k < free_params.size() && k < 8; ++k)
        list += (k ? ", `" : "`") + free_params[k] + "`";
      if (free_params.size() > 8) list += ", ...";
      d.note("the parameters it could bind: " + list);
    }
  }
  return out;
}

Pass bind_params_pass(std::string func, ParamMap params, std::string source) {
  Pass p;
  p.name = "BindParams";
  p.doc = "Binds named parameters of a function to constant tensors (weights)";
  p.fn = [func, params, source](Ref<IRModule> m, PassContext& ctx) {
    const auto* member = m->find(func);
    if (!member || !as_relax_function(member->func)) {
      ctx.diagnostics().error("E0773", Span{},
                              "BindParams: the module has no Relax function `" + func +
                                  "` to bind the tensors of " + source + " to");
      return m;
    }
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      if (!member->func.same_as(f)) return f;
      return bind(f, func, params, source, ctx.diagnostics());
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
