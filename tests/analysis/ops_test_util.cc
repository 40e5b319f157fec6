// The op-inference test harness.
#include "tests/analysis/ops_test_util.h"

#include "analysis/arith/analyzer.h"
#include "analysis/ops/call_binding.h"
#include "analysis/ops/infer_context.h"
#include "ir/source.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::test {

using ir::make;
using ir::Ref;

Ref<ir::StructInfo> leaf_struct_info(const Ref<ir::Expr>& expr) {
  if (!expr) return make<ir::ObjectStructInfo>();
  if (expr->struct_info) return expr->struct_info;
  if (auto c = expr.as_ptr<ir::Constant>(); c && c->data) {
    std::vector<Ref<ir::tir::PrimExpr>> dims;
    for (int64_t d : c->data->shape) dims.push_back(ir::tir::int64(d));
    return ir::tensor_sinfo(std::move(dims), c->data->dtype);
  }
  if (auto s = expr.as_ptr<ir::ShapeExpr>()) return make<ir::ShapeStructInfo>(s->values);
  if (auto p = expr.as_ptr<ir::PrimValue>())
    return make<ir::PrimStructInfo>(p->value->dtype, p->value);
  if (auto t = expr.as_ptr<ir::Tuple>()) {
    std::vector<Ref<ir::StructInfo>> fields;
    for (const auto& f : t->fields) fields.push_back(leaf_struct_info(f));
    return make<ir::TupleStructInfo>(std::move(fields));
  }
  return make<ir::ObjectStructInfo>();
}

Ref<ir::StructInfo> infer_call(const Ref<ir::Call>& call, ir::DiagnosticBag& diags,
                               Ref<ir::Call>& canonical) {
  static thread_local analysis::arith::Analyzer analyzer({.non_negative_int64_vars = true});
  canonical = nullptr;
  auto op_node = call->op.as_ptr<ir::Op>();
  const analysis::OpInfo* op =
      op_node ? analysis::OpRegistry::global().find(op_node->name) : nullptr;
  if (!op) {
    diags.error("E0301", call->span, "unknown op " + (op_node ? op_node->name : std::string("?")));
    return nullptr;
  }
  Ref<ir::Call> bound = analysis::bind_op_call(*op, call, diags);
  if (!bound) return nullptr;
  std::vector<Ref<ir::StructInfo>> args;
  for (const auto& a : bound->args) args.push_back(leaf_struct_info(a));
  analysis::InferContext ctx(*op, bound, std::move(args), analyzer, diags);
  canonical = bound;
  if (op->normalize) {
    Ref<ir::Call> normalized = op->normalize(ctx);
    if (!normalized) return nullptr;
    if (!normalized.same_as(ctx.call())) ctx.set_call(normalized);
    canonical = normalized;
  }
  Ref<ir::StructInfo> result = op->infer(ctx);
  if (ctx.failed()) return nullptr;
  return result;
}

namespace {

std::string located(const ir::Diagnostic& d, bool text) {
  auto file = ir::SourceManager::global().get(d.span.file);
  if (!file) return d.code + "@?";
  if (text) return d.code + "@" + std::string(file->slice(d.span));
  auto pos = file->position(d.span.begin);
  return d.code + "@" + std::to_string(pos.line + 1) + ":" + std::to_string(pos.column + 1);
}

}  // namespace

std::vector<OpResult> infer_bindings(const std::string& source) {
  ir::DiagnosticBag parse_diags;
  auto parsed = syntax::parse_text(source, "op_test.relax", parse_diags);
  if (parse_diags.has_errors() || parsed.module->functions.empty()) {
    OpResult r;
    for (const auto& d : parse_diags.items()) r.messages += d.code + ": " + d.message + "\n";
    if (r.messages.empty()) r.messages = "no function parsed\n";
    return {r};
  }
  auto fn = parsed.module->functions.front().func.as<ir::Function>();
  std::vector<OpResult> out;
  if (!fn) return out;
  for (const auto& block : fn->body->blocks) {
    for (const auto& binding : block->bindings) {
      auto call = binding->value.as<ir::Call>();
      if (!call || !call->op.is<ir::Op>()) continue;
      ir::DiagnosticBag diags;
      Ref<ir::Call> canonical;
      Ref<ir::StructInfo> sinfo = infer_call(call, diags, canonical);
      OpResult r;
      if (sinfo) r.sinfo = syntax::to_text(sinfo);
      if (canonical) r.call = syntax::to_text(Ref<ir::Expr>(canonical));
      for (const auto& d : diags.items()) {
        (d.severity == ir::Severity::kError ? r.errors : r.warnings).push_back(located(d, true));
        if (d.severity == ir::Severity::kError) r.positions.push_back(located(d, false));
        r.messages += d.code + ": " + d.message + "\n";
        for (const auto& n : d.notes) r.messages += "  note: " + n + "\n";
      }
      // Later bindings see this one's result (as a normalizer would give it).
      binding->var->struct_info = sinfo ? sinfo : Ref<ir::StructInfo>(make<ir::ObjectStructInfo>());
      out.push_back(std::move(r));
    }
  }
  return out;
}

OpResult infer_op(const std::string& params, const std::string& call) {
  std::string source =
      "@R.function\ndef f(" + params + "):\n    gv = " + call + "\n    return gv\n";
  auto results = infer_bindings(source);
  if (results.empty()) {
    OpResult r;
    r.messages = "no op call in: " + call + "\n";
    return r;
  }
  return results.back();
}

}  // namespace relax::test
