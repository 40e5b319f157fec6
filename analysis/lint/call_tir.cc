// W1007 call-tir-arity: `R.call_tir(f, args, out_sinfo)` calls prim_func f with its inputs,
// then one buffer per output, then the symbolic arguments; the count must equal f's parameter
// count. (call_tir_inplace passes no buffer for outputs that reuse an input.) TVM finds the
// mismatch only when the module is built; this rule says it at the call.
#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

class CallTirVisitor : public ir::ExprVisitor {
 public:
  explicit CallTirVisitor(LintContext& ctx) : ctx_(ctx) {}

  void visit_call(const ir::Ref<ir::Call>& call) override {
    ir::ExprVisitor::visit_call(call);
    const std::string& op = call->op_name();
    if (op != "relax.call_tir" && op != "relax.call_tir_inplace" &&
        op != "relax.call_tir_with_grad")
      return;
    if (call->args.size() < 2 || call->sinfo_args.size() != 1) return;
    auto gv = call->args[0].as_ptr<ir::GlobalVar>();
    if (!gv) return;
    const ir::IRModule::Member* member = ctx_.module().find(gv->name);
    if (!member) return;
    auto prim = ir::as_prim_func(member->func);
    if (!prim) return;

    size_t inputs = 0;
    if (auto t = call->args[1].as_ptr<ir::Tuple>())
      inputs = t->fields.size();
    else if (auto ts = call->args[1]->struct_info.as_ptr<ir::TupleStructInfo>())
      inputs = ts->fields.size();
    else
      return;
    size_t outputs = 1;
    if (auto ts = call->sinfo_args[0].as_ptr<ir::TupleStructInfo>()) outputs = ts->fields.size();
    if (op == "relax.call_tir_inplace") {
      if (auto idx = call->attrs.find("inplace_indices").as_ptr<ir::ArrayValue>()) {
        size_t reused = 0;
        for (const auto& i : idx->items) {
          if (auto v = i.as_ptr<ir::IntValue>(); v && v->value >= 0) ++reused;
        }
        outputs = reused <= outputs ? outputs - reused : 0;
      }
    }
    size_t symbolic = 0;
    if (call->args.size() > 2) {
      if (auto s = call->args[2].as_ptr<ir::ShapeExpr>()) symbolic = s->values.size();
    }
    size_t passed = inputs + outputs + symbolic;
    size_t expected = prim->params.size();
    if (passed == expected) return;
    std::string what = plural(inputs, "input") + " and " + plural(outputs, "output buffer");
    if (symbolic) what += " and " + plural(symbolic, "symbolic argument");
    std::string short_op = op.substr(std::string("relax.").size());
    auto& d = ctx_.report(call->span.is_known() ? call->span : gv->span,
                          "R." + short_op + " passes " + what + " (" + std::to_string(passed) +
                              " in all) to `" + gv->name + "`, which takes " +
                              plural(expected, "parameter"));
    ir::Span def = prim->span;
    syntax::Node node = node_at(ctx_.tree(), prim->span);
    if (node && node.kind() == syntax::NodeKind::kFunctionDefinition) {
      if (syntax::Node name = node.field(syntax::Field::kName)) def = name.span();
    }
    if (def.is_known())
      d.label(def, "`" + gv->name + "` is defined here with " + plural(expected, "parameter"));
    d.note(
        "a prim_func called by R.call_tir takes its inputs, then one buffer per output, then the "
        "symbolic "
        "arguments");
  }

 private:
  LintContext& ctx_;
};

void check_call_tir(LintContext& ctx) {
  CallTirVisitor visitor(ctx);
  for (const auto& member : ctx.module().functions) {
    if (auto func = ir::as_relax_function(member.func)) visitor.visit(func);
  }
}

}  // namespace

void register_call_tir_rules(LintRegistry& registry) {
  registry.add(
      {"W1007", "call-tir-arity",
       "R.call_tir passes a different number of arguments than the prim_func has parameters", true,
       ir::Severity::kWarning, true, check_call_tir});
}

}  // namespace relax::analysis::lint
