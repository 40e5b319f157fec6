// Helpers the lint rules share: walking the Relax functions of a module, telling the names the
// author wrote from the temporaries the front end made, purity of calls, counting uses of
// variables, and finding the syntax node (and whole source lines) behind a span.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "ir/module.h"
#include "ir/source.h"
#include "ir/visitor.h"
#include "syntax/cst.h"

namespace relax::analysis::lint {

// Calls `fn` for every Relax function of the module, nested functions included (after their
// enclosing function), with the name of the module member they belong to.
void for_each_function(
    const ir::IRModule& module,
    const std::function<void(const std::string& member, const ir::Ref<ir::Function>& func,
                             bool nested)>& fn);

// True for a variable the author named: its span is the name as written. The front end's
// temporaries (`lv`, `gv` of nested calls) and void bindings (`_ = R.print(...)`) are not.
bool is_user_named(const ir::Var& var, const ir::SourceFile* source);

enum class Purity { kPure, kImpure, kUnknown };
// Whether a call may have side effects: impure ops (R.print, ...), packed calls, impure module
// functions, direct prim_func calls, closures whose struct info says impure. Unknown callees
// are kUnknown.
Purity call_purity(const ir::Call& call, const ir::IRModule& module);
// kPure when every call inside `expr` (branches included, nested functions excluded) is pure,
// kImpure when one is impure, else kUnknown.
Purity expr_purity(const ir::Ref<ir::Expr>& expr, const ir::IRModule& module);

// Counts the uses of every Relax variable and symbolic variable in a function, nested functions
// included: occurrences as expressions and inside struct info (a tensor whose shape is a
// shape-typed variable, symbolic dims in annotations, match_cast targets, shapes).
class UseCounter : public ir::ExprVisitor {
 public:
  size_t uses(const ir::Var* var) const;
  size_t tir_uses(const ir::tir::Var* var) const;

  void visit_var(const ir::Ref<ir::Var>& var) override;
  void visit_var_def(const ir::Ref<ir::Var>& var) override;
  void visit_struct_info(const ir::Ref<ir::StructInfo>& sinfo) override;
  void visit_prim_expr(const ir::Ref<ir::tir::PrimExpr>& expr) override;
  void visit_function(const ir::Ref<ir::Function>& func) override;

 private:
  std::unordered_map<const ir::Var*, size_t> uses_;
  std::unordered_map<const ir::tir::Var*, size_t> tir_uses_;
};

// Calls `fn` for every symbolic variable occurrence in a struct info (in order, repeats kept).
void for_each_tir_var(const ir::Ref<ir::StructInfo>& sinfo,
                      const std::function<void(const ir::tir::Var*)>& fn);

// The named syntax node whose range is `span` (the smallest one covering it); null without a
// tree or when the span is in another file.
syntax::Node node_at(const syntax::SyntaxTree* tree, const ir::Span& span);

// The span of the whole lines `span` covers, line ending included, when nothing but blanks
// shares those lines with it (a comment after it is removed with it). For fixes that delete a
// statement.
std::optional<ir::Span> whole_lines(const ir::SourceFile* source, const ir::Span& span);

// The 1-based line of the start of a span ("line 12" in messages).
uint32_t line_of(const ir::SourceFile* source, const ir::Span& span);

// Calls `fn` for every named node of the tree in document order; `fn` returns false to skip
// the node's children.
void walk_named_nodes(const syntax::SyntaxTree& tree, const std::function<bool(syntax::Node)>& fn);

// The named nodes whose text starts where `needle` occurs in the source text (the smallest named
// node covering each occurrence), in order: a quick way to the few places a rule looks at
// without walking the whole tree. `ignore_case` matches ASCII letters in either case.
void for_each_occurrence(const syntax::SyntaxTree& tree, std::string_view needle,
                         const std::function<void(syntax::Node)>& fn, bool ignore_case = false);

// The callee written in a CST call node: "R.match_cast", "T.block", "" when not a dotted name.
std::string callee_text(syntax::Node call);

}  // namespace relax::analysis::lint
