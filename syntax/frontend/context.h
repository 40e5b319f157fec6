// The front end's shared state while it turns one syntax tree into an IRModule: diagnostics,
// name scopes, the builtin table (`R.Tensor`, `T.grid`, ...), and the conversions both dialects
// use. The Relax and TIR parsers (relax_parser.h, tir_parser.h) build on it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/depth_limit.h"
#include "ir/diagnostic.h"
#include "ir/module.h"
#include "syntax/cst.h"
#include "syntax/frontend/value.h"
#include "syntax/symbol_index.h"

namespace relax::syntax {

enum class Dialect { kNone, kRelax, kTir };

class Frontend;
namespace relax_fe {
struct FunctionState;
}

// The evaluated arguments of a builtin call `R.Tensor((4,), "float32")` (or of a legacy
// subscript form `T.Buffer[(4,), "float32"]`).
struct CallArgs {
  Node node;         // the call or subscript
  std::string name;  // canonical builtin name: "R.Tensor", "T.grid"
  std::vector<Value> args;
  std::vector<Node> arg_nodes;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<Node> kwarg_nodes;
  bool is_subscript = false;

  ir::Span span() const { return node.span(); }
  // The keyword argument `key`, or null.
  const Value* kwarg(std::string_view key) const;
};

// Binds a builtin's arguments to its parameters as Python would: positional first, then by
// keyword. A parameter spec is "name" (required), "name=" (optional) or "*" (the following
// parameters are keyword-only); "**" accepts any other keyword (collected in extra_kwargs).
// Reports "missing argument", "unexpected keyword argument" and "too many arguments".
class ArgBinder {
 public:
  ArgBinder(Frontend& fe, const CallArgs& call, std::initializer_list<std::string_view> params);

  bool ok() const { return ok_; }
  // The argument bound to `name`, or null when it was not given.
  const Value* get(std::string_view name) const;
  bool has(std::string_view name) const { return get(name) != nullptr; }
  // The node of the argument bound to `name` (for spans), or the call's node.
  Node node_of(std::string_view name) const;
  const std::vector<std::pair<std::string, Value>>& extra_kwargs() const { return extra_; }

 private:
  const CallArgs& call_;
  std::vector<std::string_view> names_;
  std::vector<const Value*> bound_;
  std::vector<Node> nodes_;
  std::vector<std::pair<std::string, Value>> extra_;
  bool ok_ = true;
};

using Builtin = std::function<Value(Frontend&, const CallArgs&)>;

// A lexical scope: names defined by parameters, bindings, loops, `with ... as`.
struct Scope {
  std::unordered_map<std::string, Value> names;
};

class Frontend {
 public:
  Frontend(const SyntaxTree& tree, ir::DiagnosticBag& diags);

  const SyntaxTree& tree() const { return tree_; }
  ir::DiagnosticBag& diags() { return diags_; }
  uint32_t file() const { return tree_.file(); }

  // --- Diagnostics -----------------------------------------------------------------------------
  ir::Diagnostic& error(std::string code, ir::Span span, std::string message);
  ir::Diagnostic& error(std::string code, Node at, std::string message) {
    return error(std::move(code), at.span(), std::move(message));
  }
  ir::Diagnostic& warning(std::string code, ir::Span span, std::string message);
  size_t error_count() const { return diags_.error_count(); }
  // The error limit was reached (ir::DiagnosticBag): nothing more is evaluated (eval gives
  // errors without reporting), statements are skipped, and the function being parsed and every
  // later one are left out of the module as failed.
  bool stopped() const { return diags_.limit_reached(); }

  // --- Scopes ----------------------------------------------------------------------------------
  void push_scope();
  void pop_scope();
  // Defines `name` in the innermost scope (shadowing outer ones). A Relax variable, a
  // GlobalVar, a TIR variable or a buffer is also entered in the symbol index, defined at the
  // value's span when that span is the name itself (else by its first use).
  void define(const std::string& name, Value value);
  // Defines `name` in the outermost (module) scope.
  void define_global(const std::string& name, Value value);
  // Innermost definition of `name`, or null.
  const Value* lookup(std::string_view name) const;
  // Records that `value` (a looked-up name) is used at `at`, for the symbol index.
  void note_use(const Value& value, ir::Span at);
  size_t scope_depth() const { return scopes_.size(); }
  // Names that failed to define (a statement with an error): uses stay silent.
  void poison(const std::string& name) { define(name, Value::error()); }

  // Opens a scope for the lifetime of the guard.
  class ScopeGuard {
   public:
    explicit ScopeGuard(Frontend& fe) : fe_(fe) { fe_.push_scope(); }
    ~ScopeGuard() { fe_.pop_scope(); }
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;

   private:
    Frontend& fe_;
  };

  // --- Builtins --------------------------------------------------------------------------------
  // The builtins are registered once per process into one immutable table (builtin_table() in
  // module.cc, built by a front end of its own), which every front end then reads: a parse does
  // not register 317 functions again, and documents parsed on several threads share the table.
  // What one parse registers itself (the `metadata` of its module) is looked up first.
  using BuiltinTable = std::unordered_map<std::string, Builtin>;
  void register_builtin(std::string name, Builtin fn);  // into this front end's own table
  BuiltinTable take_registered_builtins() { return std::move(own_builtins_); }
  void use_builtins(const BuiltinTable& table) { shared_builtins_ = &table; }
  const Builtin* find_builtin(std::string_view name) const;
  // Every registered name, sorted.
  std::vector<std::string> builtin_names() const;

  // --- Evaluation (eval.cc) --------------------------------------------------------------------
  // Evaluates an expression node. Errors are reported and give Value::error(). Nesting deeper
  // than ir::kExprNesting (parentheses, calls, subscripts; not the terms of an operator chain,
  // which are evaluated iteratively) is refused with E0242 instead of exhausting the stack.
  Value eval(Node expr);
  // --- (private to eval.cc) ---
  Value eval_node(Node expr);
  Value eval_binary_chain(Node expr);
  uint32_t eval_depth_ = 0;
  // Evaluates the content of a string that holds an expression (`"n * 2"` in a shape), with
  // spans pointing into the string literal `string_node`.
  Value eval_string_expr(const Value& string_value, Node string_node);
  // The span of a string literal's content (`n` in `"n"`), or the literal's span when the two
  // differ (escapes, prefixes) and `string_node` (the literal, when known) cannot tell.
  ir::Span string_content_span(const Value& string_value, Node string_node) const;
  // Calls a builtin by canonical name (the callee of `node`), reporting unknown names.
  Value call_builtin(CallArgs& call);
  // Python operators on values: literals fold, PrimExprs build TIR arithmetic, Relax
  // expressions go to the "R.operator.<op>" builtins.
  Value binary_op(const std::string& op, const Value& lhs, const Value& rhs, Node node);
  Value unary_op(const std::string& op, const Value& arg, Node node);

  // --- Conversions shared by both dialects (convert.cc) ----------------------------------------
  // A PrimExpr from a PrimExpr value or a Python number (ints become `int_dtype` immediates,
  // floats float32, bools bool). Reports an error and returns null otherwise.
  ir::Ref<ir::PrimExpr> to_prim_expr(const Value& v,
                                     ir::DataType int_dtype = ir::DataType::Int32());
  // A dtype from a string ("float32") or a dtype-like value (T.float32 namespace). Reports.
  std::optional<ir::DataType> to_dtype(const Value& v);
  std::optional<int64_t> to_int(const Value& v);
  std::optional<std::string> to_string(const Value& v);
  std::optional<bool> to_bool(const Value& v);
  // An attribute value (func_attr, block_attr, op attributes): Python literals become boxed
  // values, sequences arrays, dicts maps, IR objects stay as they are, None is a null ref.
  // Reports and returns nullopt for values that cannot be attributes.
  std::optional<ir::ObjectRef> to_attr_value(const Value& v);
  // Items of a tuple or list value; reports when `v` is not a sequence.
  std::optional<std::vector<Value>> to_sequence(const Value& v, std::string_view what);

  // Variables made with a name by `T.Var("n", "int64")` that no assignment has bound yet: in a
  // prim_func the first assignment names them (TVMScript's IRBuilder.name), as it names the
  // unnamed `T.int64()`. True (and forgets it) when `var` is one.
  void add_unbound_var(const ir::ObjectRef& var) { unbound_vars_.emplace(var.get(), var); }
  bool take_unbound_var(const ir::Object* var) { return unbound_vars_.erase(var) > 0; }

  // --- State the dialect parsers share ---------------------------------------------------------
  ir::Ref<ir::IRModule> module;  // the module being built
  SymbolIndex symbols;           // definitions and uses of the names resolved so far
  // The innermost Relax function being parsed (relax_fe::StateGuard installs it), or null:
  // state of this parse, so that documents parsed on other threads share none of it.
  relax_fe::FunctionState* relax_function_state = nullptr;
  // Whether the file declares module-level TypeVars (relax_signature.cc), once known.
  std::optional<bool> has_type_vars;
  std::string module_name = "Module";
  bool in_module_class = false;
  Dialect dialect = Dialect::kNone;
  // The file's metadata section (`metadata = tvm.ir.load_json("""...""")`, syntax/metadata.h):
  // kNone when there is none (references are opaque constants), kBroken when it could not be
  // read (reported once; references are then errors without a message of their own).
  enum class Metadata { kNone, kRead, kBroken };
  Metadata metadata = Metadata::kNone;
  std::vector<std::shared_ptr<const ir::TensorData>> metadata_constants;
  // References to the metadata section made while there is none (opaque constants).
  std::vector<ir::Span> opaque_metadata_refs;
  // The variable names of `import ... as X` that name the TVMScript dialects, canonicalised
  // (e.g. "relax" -> "R"). Module-level scope holds them as namespaces.

 private:
  const SyntaxTree& tree_;
  ir::DiagnosticBag& diags_;
  std::vector<Scope> scopes_;
  BuiltinTable own_builtins_;
  const BuiltinTable* shared_builtins_ = nullptr;
  std::unordered_map<const ir::Object*, ir::ObjectRef> unbound_vars_;  // held: keys stay unique
  // Trees of embedded expressions (string dims): values may point into them.
  std::vector<std::unique_ptr<SyntaxTree>> embedded_trees_;
};

// A canonical dotted builtin name: "tvm.script.tir.x" -> "T.x", "ir_module" -> "I.ir_module".
std::string canonical_path(const std::string& path);

// The canonical builtin prefix for a namespace root name: "R" for R/relax, "T" for
// T/tir/tirx/Tx, "I" for I/ir, "" for anything else.
std::string_view canonical_namespace(std::string_view root);

}  // namespace relax::syntax
