// The TIR statement parser: turns the body of a `@T.prim_func` into TIR, with the frames of
// TVMScript's IR builder (function, blocks, loops) and its concise scoping (a `T.attr`,
// `T.launch_thread`, let binding or allocation covers the rest of the enclosing body).
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "syntax/frontend/tir_internal.h"

namespace relax::syntax::tirfe {

// The statements of one body. A concise-scoping statement opens a level whose statements
// become its body when the body ends.
class StmtSink {
 public:
  using Wrap = std::function<Ref<Stmt>(Ref<Stmt>)>;
  StmtSink() { levels_.emplace_back(); }
  void emit(Ref<Stmt> stmt);
  void open(Wrap wrap);
  // The body: nothing is `T.evaluate(0)`, one statement is itself, more are a SeqStmt.
  Ref<Stmt> finish();
  // The levels opened so far, each nesting the statements after it one deeper.
  uint32_t open_levels() const { return static_cast<uint32_t>(levels_.size() - 1); }

 private:
  struct Level {
    std::vector<Ref<Stmt>> stmts;
    Wrap wrap;
  };
  std::vector<Level> levels_;
};

// A `with T.block(...)` being parsed.
struct BlockFrame {
  Ref<Block> block;
  std::vector<Ref<PrimExpr>> iter_values;
  Ref<PrimExpr> predicate;
  bool has_reads = false;
  bool has_writes = false;
  bool has_attrs = false;
};

class StmtParser {
 public:
  explicit StmtParser(Frontend& fe) : fe_(fe) {}

  // Parses the decorated definition; null when it had errors.
  Ref<PrimFunc> parse_function(Node decorated, const Ref<ir::GlobalVar>& gvar);

 private:
  // --- Signature (tir_parser.cc) ---
  bool parse_decorator(Node decorated, bool& is_private);
  void parse_params(Node def);
  void finish_function(Node def, Ref<Stmt> body, bool is_private, const std::string& name);

  // --- Statements (tir_stmt.cc) ---
  void parse_suite(Node block, StmtSink& sink);
  void parse_stmt(Node stmt, StmtSink& sink);
  void parse_expr_stmt(Node stmt, StmtSink& sink);
  void parse_assignment(Node stmt, StmtSink& sink);
  void parse_aug_assignment(Node stmt, StmtSink& sink);
  void parse_annotated(Node stmt, Node left, StmtSink& sink);
  void parse_store(Node left, const Value& value, Node value_node, StmtSink& sink);
  void bind_value(const std::string& name, const Value& value, Node at, StmtSink& sink);
  void parse_for(Node stmt, StmtSink& sink);
  void parse_while(Node stmt, StmtSink& sink);
  void parse_if(Node cond_node, Node consequence, Node alternatives_owner, size_t alt_index,
                StmtSink& sink);
  void parse_with(Node stmt, StmtSink& sink);
  void parse_block(Node stmt, const CallArgs& call, StmtSink& sink);
  void parse_assert(Node stmt, StmtSink& sink);
  void parse_return(Node stmt, StmtSink& sink);

  // --- Statement-level builtins (tir_frame_builtins.cc) ---
  // Handles `T.reads(...)`, `x = T.axis.spatial(...)`, ... when `name` is one; `targets` are
  // the assigned names (empty for an expression statement). True when handled.
  bool frame_builtin(const std::string& name, const CallArgs& call,
                     const std::vector<Node>& targets, StmtSink& sink);
  bool axis_builtin(const std::string& name, const CallArgs& call,
                    const std::vector<Node>& targets);
  void buffer_decl_builtin(const std::string& name, const CallArgs& call,
                           const std::vector<Node>& targets, StmtSink& sink);
  void thread_builtin(const std::string& name, const CallArgs& call,
                      const std::vector<Node>& targets, StmtSink& sink, Node with_body = Node());
  Ref<Stmt> attr_stmt(const CallArgs& call, Ref<Stmt> body, bool& ok);
  void bind_meta_var(Node left, const std::vector<Node>& targets, Node call_node);

  // --- Helpers ---
  // The canonical builtin name a callee denotes (`T.reads`, `range`), without evaluating
  // anything that could report errors; empty when it is not a plain dotted name.
  std::string static_callee(Node fn);
  // Evaluates a call's arguments into `call` (name left to the caller). False on errors.
  bool eval_call(Node call_node, CallArgs& call);
  // Names of an assignment target: `x` or `a, b`; empty on an unsupported target.
  std::vector<Node> target_names(Node left);
  BlockFrame* current_block(Node at, const char* what);
  void define_name(Node name_node, const Value& v) { fe_.define(std::string(name_node.text()), v); }

  Frontend& fe_;
  Ref<PrimFunc> func_;
  std::string func_name_;
  std::vector<Ref<Buffer>> root_allocs_;
  std::vector<BlockFrame*> blocks_;
  // Loop variables in scope with their domains (for T.axis.remap), innermost last.
  std::vector<std::pair<const Var*, Ref<Range>>> loops_;
  std::unordered_map<const Var*, Ref<IterVar>> env_threads_;
  std::unordered_map<const Block*, DetectMask> masks_;
  int init_depth_ = 0;
  // The nesting of the statement being parsed (ir::kTirStmtNesting): enclosing bodies, `elif`s
  // and concise-scoping levels.
  uint32_t nesting_ = 0;
  // Reports E0616 at `stmt` when it is nested past the limit; false then.
  bool check_nesting(Node stmt);
};

}  // namespace relax::syntax::tirfe
