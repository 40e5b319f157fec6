// Default recursion of the Relax visitor and mutator.
#include "ir/visitor.h"

namespace relax::ir {

void ExprVisitor::visit(const Ref<Expr>& expr) {
  if (!expr) return;
  switch (expr->kind()) {
    case ObjectKind::kVar:
    case ObjectKind::kDataflowVar:
      return visit_var(expr.as<Var>());
    case ObjectKind::kGlobalVar:
      return visit_global_var(expr.as<GlobalVar>());
    case ObjectKind::kConstant:
      return visit_constant(expr.as<Constant>());
    case ObjectKind::kTuple:
      return visit_tuple(expr.as<Tuple>());
    case ObjectKind::kTupleGetItem:
      return visit_tuple_get_item(expr.as<TupleGetItem>());
    case ObjectKind::kCall:
      return visit_call(expr.as<Call>());
    case ObjectKind::kIf:
      return visit_if(expr.as<If>());
    case ObjectKind::kSeqExpr:
      return visit_seq_expr(expr.as<SeqExpr>());
    case ObjectKind::kFunction:
      return visit_function(expr.as<Function>());
    case ObjectKind::kExternFunc:
      return visit_extern_func(expr.as<ExternFunc>());
    case ObjectKind::kShapeExpr:
      return visit_shape_expr(expr.as<ShapeExpr>());
    case ObjectKind::kPrimValue:
      return visit_prim_value(expr.as<PrimValue>());
    case ObjectKind::kStringImm:
      return visit_string_imm(expr.as<StringImm>());
    case ObjectKind::kDataTypeImm:
      return visit_data_type_imm(expr.as<DataTypeImm>());
    case ObjectKind::kOp:
      return visit_op(expr.as<Op>());
    default:
      assert(false && "not a Relax expression");
  }
}

void ExprVisitor::visit_binding_block(const Ref<BindingBlock>& block) {
  for (const auto& b : block->bindings) visit_binding(b);
}

void ExprVisitor::visit_binding(const Ref<Binding>& binding) {
  visit(binding->value);
  if (auto mc = binding.as_ptr<MatchCast>()) visit_struct_info(mc->struct_info);
  visit_var_def(binding->var);
}

void ExprVisitor::visit_var_def(const Ref<Var>& var) {
  (void)var;
}
void ExprVisitor::visit_struct_info(const Ref<StructInfo>& sinfo) {
  (void)sinfo;
}
void ExprVisitor::visit_prim_expr(const Ref<PrimExpr>& expr) {
  (void)expr;
}
void ExprVisitor::visit_var(const Ref<Var>& var) {
  (void)var;
}
void ExprVisitor::visit_global_var(const Ref<GlobalVar>& var) {
  (void)var;
}
void ExprVisitor::visit_constant(const Ref<Constant>& constant) {
  (void)constant;
}

void ExprVisitor::visit_tuple(const Ref<Tuple>& tuple) {
  for (const auto& f : tuple->fields) visit(f);
}

void ExprVisitor::visit_tuple_get_item(const Ref<TupleGetItem>& item) {
  visit(item->tuple);
}

void ExprVisitor::visit_call(const Ref<Call>& call) {
  visit(call->op);
  for (const auto& a : call->args) visit(a);
  for (const auto& s : call->sinfo_args) visit_struct_info(s);
}

void ExprVisitor::visit_if(const Ref<If>& node) {
  visit(node->condition);
  visit(node->true_branch);
  visit(node->false_branch);
}

void ExprVisitor::visit_seq_expr(const Ref<SeqExpr>& seq) {
  for (const auto& b : seq->blocks) visit_binding_block(b);
  visit(seq->body);
}

void ExprVisitor::visit_function(const Ref<Function>& func) {
  for (const auto& p : func->params) visit_var_def(p);
  visit(func->body);
}

void ExprVisitor::visit_extern_func(const Ref<ExternFunc>& func) {
  (void)func;
}

void ExprVisitor::visit_shape_expr(const Ref<ShapeExpr>& shape) {
  for (const auto& v : shape->values) visit_prim_expr(v);
}

void ExprVisitor::visit_prim_value(const Ref<PrimValue>& value) {
  visit_prim_expr(value->value);
}
void ExprVisitor::visit_string_imm(const Ref<StringImm>& value) {
  (void)value;
}
void ExprVisitor::visit_data_type_imm(const Ref<DataTypeImm>& value) {
  (void)value;
}
void ExprVisitor::visit_op(const Ref<Op>& op) {
  (void)op;
}

// ---------------------------------------------------------------------------------------------

Ref<Expr> ExprMutator::mutate(const Ref<Expr>& expr) {
  if (!expr) return expr;
  switch (expr->kind()) {
    case ObjectKind::kVar:
    case ObjectKind::kDataflowVar:
      return mutate_var(expr.as<Var>());
    case ObjectKind::kGlobalVar:
      return mutate_global_var(expr.as<GlobalVar>());
    case ObjectKind::kConstant:
      return mutate_constant(expr.as<Constant>());
    case ObjectKind::kTuple:
      return mutate_tuple(expr.as<Tuple>());
    case ObjectKind::kTupleGetItem:
      return mutate_tuple_get_item(expr.as<TupleGetItem>());
    case ObjectKind::kCall:
      return mutate_call(expr.as<Call>());
    case ObjectKind::kIf:
      return mutate_if(expr.as<If>());
    case ObjectKind::kSeqExpr:
      return mutate_seq_expr(expr.as<SeqExpr>());
    case ObjectKind::kFunction:
      return mutate_function(expr.as<Function>());
    case ObjectKind::kExternFunc:
      return mutate_extern_func(expr.as<ExternFunc>());
    case ObjectKind::kShapeExpr:
      return mutate_shape_expr(expr.as<ShapeExpr>());
    case ObjectKind::kPrimValue:
      return mutate_prim_value(expr.as<PrimValue>());
    case ObjectKind::kStringImm:
      return mutate_string_imm(expr.as<StringImm>());
    case ObjectKind::kDataTypeImm:
      return mutate_data_type_imm(expr.as<DataTypeImm>());
    case ObjectKind::kOp:
      return mutate_op(expr.as<Op>());
    default:
      assert(false && "not a Relax expression");
      return expr;
  }
}

Ref<Expr> ExprMutator::mutate_var(const Ref<Var>& var) {
  auto it = var_remap_.find(var.get());
  if (it != var_remap_.end()) return it->second;
  return var;
}

Ref<StructInfo> ExprMutator::mutate_struct_info_values(const Ref<StructInfo>& sinfo) {
  if (!sinfo) return sinfo;
  auto list = [this](const std::vector<Ref<StructInfo>>& in, std::vector<Ref<StructInfo>>& out) {
    bool changed = false;
    for (const auto& s : in) {
      out.push_back(mutate_struct_info_values(s));
      changed |= !out.back().same_as(s);
    }
    return changed;
  };
  Ref<StructInfo> out = sinfo;
  switch (sinfo->kind()) {
    case ObjectKind::kPrimStructInfo: {
      auto p = sinfo.as_ptr<PrimStructInfo>();
      if (!p->value) return sinfo;
      Ref<PrimExpr> v = mutate_prim_expr(p->value);
      if (v.same_as(p->value)) return sinfo;
      out = make<PrimStructInfo>(p->dtype, v);
      break;
    }
    case ObjectKind::kShapeStructInfo: {
      auto sh = sinfo.as_ptr<ShapeStructInfo>();
      if (!sh->values) return sinfo;
      std::vector<Ref<PrimExpr>> values;
      bool changed = false;
      for (const auto& v : *sh->values) {
        values.push_back(mutate_prim_expr(v));
        changed |= !values.back().same_as(v);
      }
      if (!changed) return sinfo;
      out = make<ShapeStructInfo>(std::move(values));
      break;
    }
    case ObjectKind::kTensorStructInfo: {
      auto t = sinfo.as_ptr<TensorStructInfo>();
      if (!t->shape) return sinfo;
      Ref<Expr> shape = mutate(t->shape);
      if (shape.same_as(t->shape)) return sinfo;
      out = make<TensorStructInfo>(shape, t->dtype, t->ndim, t->vdevice);
      break;
    }
    case ObjectKind::kTupleStructInfo: {
      std::vector<Ref<StructInfo>> fields;
      if (!list(sinfo.as_ptr<TupleStructInfo>()->fields, fields)) return sinfo;
      out = make<TupleStructInfo>(std::move(fields));
      break;
    }
    case ObjectKind::kFuncStructInfo: {
      auto f = sinfo.as_ptr<FuncStructInfo>();
      auto n = make<FuncStructInfo>(*f);
      bool changed = false;
      if (f->params) {
        n->params.emplace();
        changed |= list(*f->params, *n->params);
      }
      n->ret = mutate_struct_info_values(f->ret);
      changed |= !n->ret.same_as(f->ret);
      if (!changed) return sinfo;
      out = n;
      break;
    }
    default:
      return sinfo;
  }
  out->span = sinfo->span;
  return out;
}

Ref<Var> ExprMutator::mutate_var_def(const Ref<Var>& var) {
  Ref<StructInfo> sinfo = var->struct_info ? mutate_struct_info(var->struct_info) : nullptr;
  if (sinfo == var->struct_info) return var;
  auto fresh = copy(var);
  fresh->struct_info = sinfo;
  var_remap_[var.get()] = fresh;
  return fresh;
}

namespace {
template <class T>
bool mutate_list(ExprMutator& m, const std::vector<Ref<T>>& in, std::vector<Ref<T>>& out) {
  bool changed = false;
  out.reserve(in.size());
  for (const auto& e : in) {
    Ref<Expr> n = m.mutate(e);
    changed |= !n.same_as(e);
    out.push_back(n.template as<T>());
  }
  return changed;
}
}  // namespace

Ref<Expr> ExprMutator::mutate_tuple(const Ref<Tuple>& tuple) {
  std::vector<Ref<Expr>> fields;
  if (!mutate_list(*this, tuple->fields, fields)) return tuple;
  auto n = make<Tuple>(std::move(fields));
  n->span = tuple->span;
  return n;
}

Ref<Expr> ExprMutator::mutate_tuple_get_item(const Ref<TupleGetItem>& item) {
  Ref<Expr> t = mutate(item->tuple);
  if (t.same_as(item->tuple)) return item;
  auto n = make<TupleGetItem>(t, item->index);
  n->span = item->span;
  return n;
}

Ref<Expr> ExprMutator::mutate_call(const Ref<Call>& call) {
  Ref<Expr> op = mutate(call->op);
  std::vector<Ref<Expr>> args;
  bool changed = mutate_list(*this, call->args, args) || !op.same_as(call->op);
  std::vector<Ref<StructInfo>> sinfo_args;
  for (const auto& s : call->sinfo_args) {
    sinfo_args.push_back(mutate_struct_info(s));
    changed |= !sinfo_args.back().same_as(s);
  }
  if (!changed) return call;
  auto n = make<Call>(op, std::move(args), call->attrs, std::move(sinfo_args));
  n->span = call->span;
  return n;
}

Ref<Expr> ExprMutator::mutate_if(const Ref<If>& node) {
  Ref<Expr> c = mutate(node->condition);
  Ref<Expr> t = mutate(node->true_branch);
  Ref<Expr> f = mutate(node->false_branch);
  if (c.same_as(node->condition) && t.same_as(node->true_branch) && f.same_as(node->false_branch))
    return node;
  auto n = make<If>(c, t.as<SeqExpr>(), f.as<SeqExpr>());
  n->span = node->span;
  return n;
}

Ref<BindingBlock> ExprMutator::mutate_binding_block(const Ref<BindingBlock>& block) {
  std::vector<Ref<Binding>> out;
  for (const auto& b : block->bindings) mutate_binding(b, out);
  bool changed = out.size() != block->bindings.size();
  for (size_t i = 0; !changed && i < out.size(); ++i) changed = !out[i].same_as(block->bindings[i]);
  if (!changed) return block;
  auto n = make<BindingBlock>(std::move(out), block->is_dataflow);
  n->span = block->span;
  return n;
}

void ExprMutator::mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) {
  Ref<Expr> value = mutate(binding->value);
  if (auto mc = binding.as<MatchCast>()) {
    Ref<StructInfo> sinfo = mutate_struct_info(mc->struct_info);
    Ref<Var> var = mutate_var_def(binding->var);
    if (value.same_as(binding->value) && sinfo.same_as(mc->struct_info) &&
        var.same_as(binding->var)) {
      out.push_back(binding);
      return;
    }
    auto n = make<MatchCast>(var, value, sinfo);
    n->span = binding->span;
    out.push_back(n);
    return;
  }
  Ref<Var> var = mutate_var_def(binding->var);
  if (value.same_as(binding->value) && var.same_as(binding->var)) {
    out.push_back(binding);
    return;
  }
  auto n = make<VarBinding>(var, value);
  n->span = binding->span;
  out.push_back(n);
}

Ref<Expr> ExprMutator::mutate_seq_expr(const Ref<SeqExpr>& seq) {
  std::vector<Ref<BindingBlock>> blocks;
  bool changed = false;
  for (const auto& b : seq->blocks) {
    Ref<BindingBlock> nb = mutate_binding_block(b);
    changed |= !nb.same_as(b);
    if (!nb->bindings.empty())
      blocks.push_back(nb);
    else
      changed = true;
  }
  Ref<Expr> body = mutate(seq->body);
  if (!changed && body.same_as(seq->body)) return seq;
  auto n = make<SeqExpr>(std::move(blocks), body);
  n->span = seq->span;
  return n;
}

Ref<Expr> ExprMutator::mutate_function(const Ref<Function>& func) {
  std::vector<Ref<Var>> params;
  bool changed = false;
  for (const auto& p : func->params) {
    params.push_back(mutate_var_def(p));
    changed |= !params.back().same_as(p);
  }
  Ref<Expr> body = mutate(func->body);
  Ref<StructInfo> ret = func->ret_struct_info ? mutate_struct_info(func->ret_struct_info) : nullptr;
  if (!changed && body.same_as(func->body) && ret.same_as(func->ret_struct_info)) return func;
  auto n = copy(func);
  n->params = std::move(params);
  n->body = body.as<SeqExpr>();
  n->ret_struct_info = ret;
  n->struct_info = nullptr;
  return n;
}

Ref<Expr> ExprMutator::mutate_shape_expr(const Ref<ShapeExpr>& shape) {
  std::vector<Ref<PrimExpr>> values;
  bool changed = false;
  for (const auto& v : shape->values) {
    values.push_back(mutate_prim_expr(v));
    changed |= !values.back().same_as(v);
  }
  if (!changed) return shape;
  auto n = make<ShapeExpr>(std::move(values));
  n->span = shape->span;
  return n;
}

Ref<Expr> ExprMutator::mutate_prim_value(const Ref<PrimValue>& value) {
  Ref<PrimExpr> v = mutate_prim_expr(value->value);
  if (v.same_as(value->value)) return value;
  auto n = make<PrimValue>(v);
  n->span = value->span;
  return n;
}

}  // namespace relax::ir
