// Helpers shared by the Relax passes.
#include "compiler/relax/pass_util.h"

#include <algorithm>

#include "analysis/normalize.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

Ref<IRModule> map_relax_functions(const Ref<IRModule>& module, PassContext& ctx,
                                  const std::function<Ref<Function>(const Ref<Function>&)>& fn) {
  auto out = make<IRModule>();
  out->name = module->name;
  out->attrs = module->attrs;
  out->global_infos = module->global_infos;
  for (const auto& m : module->functions) {
    if (auto f = as_relax_function(m.func)) {
      out->functions.push_back({m.gvar, fn(f)});
    } else {
      out->functions.push_back(m);
    }
  }
  analysis::normalize_module(*out, ctx.diagnostics());
  return out;
}

Ref<Call> op_call(const std::string& name, std::vector<Ref<Expr>> args,
                  std::vector<Ref<StructInfo>> sinfo_args) {
  return make<Call>(Op::get(name), std::move(args), Attrs{}, std::move(sinfo_args));
}

bool is_op_call(const Ref<Expr>& e, const std::string& name) {
  auto call = e.as_ptr<Call>();
  return call && call->op_name() == name;
}

int64_t element_bytes(DataType t) {
  return static_cast<int64_t>(t.bytes()) * std::max(1, t.lanes());
}

std::optional<std::vector<Ref<tir::PrimExpr>>> known_dims(const Ref<StructInfo>& sinfo) {
  auto t = sinfo.as_ptr<TensorStructInfo>();
  if (!t) return std::nullopt;
  const auto* dims = t->shape_values();
  if (!dims) return std::nullopt;
  return *dims;
}

std::optional<int64_t> static_elements(const std::vector<Ref<tir::PrimExpr>>& dims) {
  int64_t n = 1;
  for (const auto& d : dims) {
    auto v = tir::as_const_int(d);
    if (!v) return std::nullopt;
    n *= *v;
  }
  return n;
}

namespace {
class UseCollector : public ExprVisitor {
 public:
  explicit UseCollector(std::vector<const Var*>& out) : out_(out) {}
  void visit_var(const Ref<Var>& var) override { out_.push_back(var.get()); }

 private:
  std::vector<const Var*>& out_;
};

class NameCollector : public ExprVisitor {
 public:
  explicit NameCollector(std::unordered_set<std::string>& out) : out_(out) {}
  void visit_var_def(const Ref<Var>& var) override { out_.insert(var->name); }

 private:
  std::unordered_set<std::string>& out_;
};
}  // namespace

void collect_used_vars(const Ref<Expr>& e, std::vector<const Var*>& out) {
  UseCollector c(out);
  c.visit(e);
}

NameSupply::NameSupply(const Ref<Function>& func) {
  NameCollector c(used_);
  c.visit(func);
}

std::string NameSupply::fresh(const std::string& base) {
  int& i = next_[base];
  std::string name = i == 0 ? base : base + std::to_string(i);
  while (used_.count(name)) name = base + std::to_string(++i);
  ++i;
  used_.insert(name);
  return name;
}

}  // namespace relax::compiler::relax_passes
