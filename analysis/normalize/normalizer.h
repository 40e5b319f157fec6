// Internal interface of the normalizer (analysis/normalize.h is the public one): the state of one
// module's inference — the symbolic-variable scope used for erasure, where each variable was
// defined, the values bound to variables, and which values are unknown because of an earlier
// error (so that one error is reported once, not again at every use).
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/arith/analyzer.h"
#include "analysis/normalize.h"
#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"

namespace relax::analysis::normalize_detail {

using ir::Ref;
using ir::StructInfo;

// Diagnostic codes of the normalizer (docs/diagnostics/inference.md).
namespace codes {
inline constexpr const char* kUnknownOp = "E0301";         // an op the registry does not know
inline constexpr const char* kAnnotation = "E0350";        // annotation provably incompatible
inline constexpr const char* kCallArity = "E0351";         // wrong number of call arguments
inline constexpr const char* kCallArgument = "E0352";      // argument does not fit its parameter
inline constexpr const char* kNotCallable = "E0353";       // calling a value that is no function
inline constexpr const char* kTupleIndex = "E0354";        // tuple index out of range / not a tuple
inline constexpr const char* kMatchCast = "E0355";         // match_cast that can never succeed
inline constexpr const char* kNonVoidStatement = "E0356";  // non-void expression as a statement
inline constexpr const char* kShapeVar = "E0357";        // R.Tensor(v, ...) where v is not a shape
inline constexpr const char* kReturnMismatch = "W0351";  // return can never match the annotation
}  // namespace codes

class Normalizer {
 public:
  Normalizer(ir::IRModule& module, ir::DiagnosticBag& diags, const NormalizeOptions& options);

  void run();

 private:
  // --- Module and functions (normalizer.cc) ---
  void declare_globals();
  void normalize_function(const Ref<ir::Function>& func);
  void normalize_seq(const Ref<ir::SeqExpr>& seq);
  void normalize_binding(const Ref<ir::Binding>& binding);
  void normalize_var_binding(ir::VarBinding& binding);
  void normalize_match_cast(ir::MatchCast& binding);

  // --- Expressions (expr.cc) ---
  // Infers `e` (setting its struct info) and returns it, or the node that replaces it (a call in
  // canonical form, `()` for a use of a void variable).
  Ref<ir::Expr> normalize_expr(const Ref<ir::Expr>& e);
  // The same for a call argument, tuple field or sequence result.
  Ref<ir::Expr> normalize_arg(const Ref<ir::Expr>& e);
  Ref<ir::Expr> normalize_call(const Ref<ir::Call>& call);
  Ref<ir::Expr> normalize_op_call(const Ref<ir::Call>& call, std::vector<Ref<ir::Expr>> args);
  Ref<ir::Expr> normalize_function_call(const Ref<ir::Call>& call, Ref<ir::Expr> callee,
                                        std::vector<Ref<ir::Expr>> args);
  Ref<ir::Expr> normalize_if(const Ref<ir::If>& node);
  Ref<ir::Expr> normalize_tuple_get_item(const Ref<ir::TupleGetItem>& item);
  // "parameter `y`" for argument i of a call of `callee`, or "parameter i" when unnamed.
  std::string parameter_name(const Ref<ir::Expr>& callee, size_t i) const;
  std::string callee_name(const Ref<ir::Expr>& callee) const;

  // Struct info as written in the text, completed with what only inference knows (TVM's parser
  // infers as it goes): `e.struct_info` (StructInfoOf) becomes the struct info of `e`, and a
  // tensor whose shape is a variable takes that variable's rank. Nested struct info (tuple
  // fields, callable parameters) is completed too; null stays null (normalizer.cc).
  Ref<StructInfo> complete_written(const Ref<StructInfo>& sinfo, ir::Span at, int depth = 0);
  Ref<StructInfo> complete_uncached(const Ref<StructInfo>& sinfo, ir::Span at, int depth);

  // --- Scope of symbolic variables (normalizer.cc) ---
  // Defines the vars `sinfo` can define (bare dims) in the current scope, marking them >= 0.
  void define_symbolic_vars(const Ref<StructInfo>& sinfo);
  bool in_scope(const ir::tir::Var* var) const;
  Ref<StructInfo> erase_in_scope(const Ref<StructInfo>& sinfo);

  // --- Helpers ---
  // Whether `sinfo` nests deeper than ir::kStructInfoNesting; if so, reported at `at` as `what`
  // ("the struct info of `t`"; not reported when `what` is empty) and the caller uses R.Object
  // instead.
  bool too_deep(const Ref<StructInfo>& sinfo, ir::Span at, const std::string& what);
  Ref<StructInfo> set_sinfo(const Ref<ir::Expr>& e, Ref<StructInfo> sinfo);
  void poison(const ir::Object* node) { poisoned_.insert(node); }
  bool is_poisoned(const ir::Object* node) const { return poisoned_.count(node) != 0; }
  ir::Span span_of(const Ref<ir::Expr>& e, ir::Span fallback) const;
  // Where a binding's value is written (a variable is found by name in the binding's text).
  ir::Span value_span(const Ref<ir::Expr>& value, ir::Span binding) const;

  ir::IRModule& module_;
  ir::DiagnosticBag& diags_;
  NormalizeOptions options_;
  const OpRegistry& registry_;
  arith::Analyzer analyzer_;

  // Symbolic vars visible for erasure: scope_vars_[scope_start_ ..]. A function opens a fresh
  // scope (its parameters only, as TVM's BeginScope); an if branch inherits its parent's.
  std::vector<const ir::tir::Var*> scope_vars_;
  size_t scope_start_ = 0;

  // Where each Relax variable was defined (the binding or parameter), for secondary labels.
  std::unordered_map<const ir::Var*, ir::Span> origins_;
  // The value of each variable bound by a VarBinding.
  std::unordered_map<const ir::Var*, Ref<ir::Expr>> bound_values_;
  // Local functions by their binding variable (for parameter names in messages).
  std::unordered_map<const ir::Var*, Ref<ir::Function>> local_functions_;
  // Expressions and variables whose struct info is unknown because of an error already reported.
  std::unordered_set<const ir::Object*> poisoned_;
  // Written struct info already completed (a call_tir's out_sinfo is also its variable's
  // annotation): completed once, reported once. The key's node is held (first) so that its
  // address is not reused.
  std::unordered_map<const StructInfo*, std::pair<Ref<StructInfo>, Ref<StructInfo>>> completed_;
  // The closest known op name for each unknown op seen ("" when none is close).
  std::unordered_map<std::string, std::string> suggestions_;
};

}  // namespace relax::analysis::normalize_detail
