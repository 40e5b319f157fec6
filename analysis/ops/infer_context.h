// What an op's inference function sees: the normalized call, the struct info of each argument,
// typed access to attributes, the symbolic analyzer, and error reporting that points at the
// offending argument or attribute and names where an operand's shape came from.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/arith/analyzer.h"
#include "analysis/ops/op_registry.h"
#include "ir/diagnostic.h"
#include "ir/expr.h"

namespace relax::analysis {

class InferContext {
 public:
  InferContext(const OpInfo& op, ir::Ref<ir::Call> call,
               std::vector<ir::Ref<ir::StructInfo>> arg_sinfo, arith::Analyzer& analyzer,
               ir::DiagnosticBag& diags);

  const OpInfo& op() const { return op_; }
  const ir::Ref<ir::Call>& call() const { return call_; }
  // Installs the canonical call a normalize hook returned: arguments it replaced take their own
  // struct info (unknown when they carry none), the others keep theirs.
  void set_call(ir::Ref<ir::Call> call);
  arith::Analyzer& analyzer() { return analyzer_; }
  size_t num_args() const { return call_->args.size(); }
  const ir::Ref<ir::Expr>& arg(size_t i) const { return call_->args[i]; }
  // The inferred struct info of argument i (never null: ObjectStructInfo when unknown).
  const ir::Ref<ir::StructInfo>& arg_sinfo(size_t i) const { return arg_sinfo_[i]; }

  // The argument as a tensor; reports "R.op requires argument `name` to be a tensor, got ..."
  // and returns null otherwise.
  const ir::TensorStructInfo* tensor_arg(size_t i);
  // Any tensor arguments' shared vdevice (the binary rule); reports conflicts.
  ir::Ref<ir::VDevice> common_vdevice(const std::vector<size_t>& args);

  // Attribute values, normalized to their AttrKind (see op_registry.h); absent/None -> nullopt.
  std::optional<int64_t> attr_int(std::string_view name) const;
  std::optional<double> attr_float(std::string_view name) const;
  std::optional<bool> attr_bool(std::string_view name) const;
  std::optional<std::string> attr_string(std::string_view name) const;
  // A dtype attribute; nullopt for None, "void" or "" (no override).
  std::optional<ir::DataType> attr_dtype(std::string_view name) const;
  std::optional<std::vector<int64_t>> attr_int_array(std::string_view name) const;
  std::optional<std::vector<ir::Ref<ir::tir::PrimExpr>>> attr_prim_array(
      std::string_view name) const;
  ir::ObjectRef attr(std::string_view name) const;

  // Errors at the call, at argument i, or at attribute `name` (falling back to the call's span
  // when the source has no span for it). `op_name()` gives "R.nn.conv2d" for messages.
  ir::Diagnostic& error(std::string code, std::string message);
  ir::Diagnostic& error_at_arg(size_t i, std::string code, std::string message);
  ir::Diagnostic& error_at_attr(std::string_view name, std::string code, std::string message);
  ir::Diagnostic& warning(std::string code, std::string message);
  // An error at another place of the call (a struct-info argument such as out_sinfo); the call's
  // span when `span` is unknown.
  ir::Diagnostic& error_at(ir::Span span, std::string code, std::string message);
  // "where `x`'s shape comes from": the span of the binding or parameter that defined argument
  // i's variable, when known. Inference errors about shapes add it as a secondary label.
  std::optional<ir::Span> origin_of_arg(size_t i) const;
  void set_arg_origins(std::vector<std::optional<ir::Span>> origins) {
    origins_ = std::move(origins);
  }
  std::string op_name() const;  // "R.add"
  bool failed() const { return failed_; }

  // The value bound to `expr` when it is a variable whose binding the normalizer has seen
  // (following aliases), else `expr` itself. Inference depends on struct info alone except in
  // the few places TVM looks through bindings (R.memory.view's dtype, call_tir's argument tuple).
  ir::Ref<ir::Expr> lookup_binding(const ir::Ref<ir::Expr>& expr) const;
  void set_binding_lookup(std::function<ir::Ref<ir::Expr>(const ir::Var&)> lookup) {
    lookup_ = std::move(lookup);
  }

 private:
  const OpInfo& op_;
  ir::Ref<ir::Call> call_;
  std::vector<ir::Ref<ir::StructInfo>> arg_sinfo_;
  std::vector<std::optional<ir::Span>> origins_;
  arith::Analyzer& analyzer_;
  ir::DiagnosticBag& diags_;
  bool failed_ = false;
  std::function<ir::Ref<ir::Expr>(const ir::Var&)> lookup_;
};

}  // namespace relax::analysis
