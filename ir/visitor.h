// Visitor and mutator bases for Relax expressions. One virtual method per node kind; the
// defaults recurse into children (visitors) or rebuild a node only when a child changed
// (mutators), so a pass overrides just the kinds it cares about.
#pragma once

#include <unordered_map>

#include "ir/expr.h"

namespace relax::ir {

class ExprVisitor {
 public:
  virtual ~ExprVisitor() = default;

  // Dispatches on the node's kind. Null is ignored.
  virtual void visit(const Ref<Expr>& expr);
  virtual void visit_binding_block(const Ref<BindingBlock>& block);
  virtual void visit_binding(const Ref<Binding>& binding);
  // A variable at its definition: a parameter or the left side of a binding.
  virtual void visit_var_def(const Ref<Var>& var);
  // Struct info in annotations, match_cast targets and call struct-info arguments. Off by
  // default; a pass that looks at symbolic variables turns it on by overriding.
  virtual void visit_struct_info(const Ref<StructInfo>& sinfo);
  // PrimExprs inside ShapeExprs, PrimValues and struct info. No-op by default.
  virtual void visit_prim_expr(const Ref<PrimExpr>& expr);

  virtual void visit_var(const Ref<Var>& var);
  virtual void visit_global_var(const Ref<GlobalVar>& var);
  virtual void visit_constant(const Ref<Constant>& constant);
  virtual void visit_tuple(const Ref<Tuple>& tuple);
  virtual void visit_tuple_get_item(const Ref<TupleGetItem>& item);
  virtual void visit_call(const Ref<Call>& call);
  virtual void visit_if(const Ref<If>& node);
  virtual void visit_seq_expr(const Ref<SeqExpr>& seq);
  virtual void visit_function(const Ref<Function>& func);
  virtual void visit_extern_func(const Ref<ExternFunc>& func);
  virtual void visit_shape_expr(const Ref<ShapeExpr>& shape);
  virtual void visit_prim_value(const Ref<PrimValue>& value);
  virtual void visit_string_imm(const Ref<StringImm>& value);
  virtual void visit_data_type_imm(const Ref<DataTypeImm>& value);
  virtual void visit_op(const Ref<Op>& op);
};

// Rebuilds expressions bottom-up. Variables defined by bindings keep their identity unless a
// subclass remaps them (through `var_remap_`), so untouched code is shared, not copied. New
// nodes get no struct info: normalization (in analysis) fills it.
class ExprMutator {
 public:
  virtual ~ExprMutator() = default;

  virtual Ref<Expr> mutate(const Ref<Expr>& expr);
  virtual Ref<BindingBlock> mutate_binding_block(const Ref<BindingBlock>& block);
  // Returns the new bindings for one binding (none to drop it, several to expand it).
  virtual void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out);
  virtual Ref<Var> mutate_var_def(const Ref<Var>& var);
  virtual Ref<StructInfo> mutate_struct_info(const Ref<StructInfo>& sinfo) { return sinfo; }
  virtual Ref<PrimExpr> mutate_prim_expr(const Ref<PrimExpr>& expr) { return expr; }

  virtual Ref<Expr> mutate_var(const Ref<Var>& var);
  virtual Ref<Expr> mutate_global_var(const Ref<GlobalVar>& var) { return var; }
  virtual Ref<Expr> mutate_constant(const Ref<Constant>& c) { return c; }
  virtual Ref<Expr> mutate_tuple(const Ref<Tuple>& tuple);
  virtual Ref<Expr> mutate_tuple_get_item(const Ref<TupleGetItem>& item);
  virtual Ref<Expr> mutate_call(const Ref<Call>& call);
  virtual Ref<Expr> mutate_if(const Ref<If>& node);
  virtual Ref<Expr> mutate_seq_expr(const Ref<SeqExpr>& seq);
  virtual Ref<Expr> mutate_function(const Ref<Function>& func);
  virtual Ref<Expr> mutate_extern_func(const Ref<ExternFunc>& f) { return f; }
  virtual Ref<Expr> mutate_shape_expr(const Ref<ShapeExpr>& shape);
  virtual Ref<Expr> mutate_prim_value(const Ref<PrimValue>& value);
  virtual Ref<Expr> mutate_string_imm(const Ref<StringImm>& v) { return v; }
  virtual Ref<Expr> mutate_data_type_imm(const Ref<DataTypeImm>& v) { return v; }
  virtual Ref<Expr> mutate_op(const Ref<Op>& op) { return op; }

 protected:
  // `sinfo` rebuilt with mutate_prim_expr applied to every PrimExpr in it and mutate() to a
  // tensor's shape expression, sharing what does not change: for a mutate_struct_info that
  // rewrites symbolic values.
  Ref<StructInfo> mutate_struct_info_values(const Ref<StructInfo>& sinfo);

  // Uses of a variable are replaced by the mapped expression.
  std::unordered_map<const Var*, Ref<Expr>> var_remap_;
};

}  // namespace relax::ir
