// Visitor and mutator bases for TIR: one virtual method per expression and statement kind, with
// default recursion into every child expression and statement (buffers are visited through
// their uses, not their declarations, unless a subclass overrides visit_buffer_def).
#pragma once

#include "ir/tir.h"

namespace relax::ir::tir {

class Visitor {
 public:
  virtual ~Visitor() = default;

  virtual void visit_expr(const Ref<PrimExpr>& expr);
  virtual void visit_stmt(const Ref<Stmt>& stmt);
  // A buffer where it is declared: a parameter, an allocation, a match_buffer, a decl_buffer.
  virtual void visit_buffer_def(const Ref<Buffer>& buffer);

  // Expressions.
  virtual void visit_var(const Ref<Var>& var) { (void)var; }
  virtual void visit_int_imm(const Ref<IntImm>& imm) { (void)imm; }
  virtual void visit_float_imm(const Ref<FloatImm>& imm) { (void)imm; }
  virtual void visit_string_imm(const Ref<StringImm>& imm) { (void)imm; }
  virtual void visit_cast(const Ref<Cast>& cast);
  virtual void visit_binary(const Ref<BinaryOp>& op);
  virtual void visit_not(const Ref<Not>& op);
  virtual void visit_select(const Ref<Select>& op);
  virtual void visit_buffer_load(const Ref<BufferLoad>& load);
  virtual void visit_ramp(const Ref<Ramp>& ramp);
  virtual void visit_broadcast(const Ref<Broadcast>& bc);
  virtual void visit_shuffle(const Ref<Shuffle>& sh);
  virtual void visit_let(const Ref<Let>& let);
  virtual void visit_call(const Ref<Call>& call);
  virtual void visit_reduce(const Ref<Reduce>& reduce);

  // Statements.
  virtual void visit_let_stmt(const Ref<LetStmt>& s);
  virtual void visit_attr_stmt(const Ref<AttrStmt>& s);
  virtual void visit_assert_stmt(const Ref<AssertStmt>& s);
  virtual void visit_buffer_store(const Ref<BufferStore>& s);
  virtual void visit_buffer_realize(const Ref<BufferRealize>& s);
  virtual void visit_allocate(const Ref<Allocate>& s);
  virtual void visit_decl_buffer(const Ref<DeclBuffer>& s);
  virtual void visit_seq_stmt(const Ref<SeqStmt>& s);
  virtual void visit_if_then_else(const Ref<IfThenElse>& s);
  virtual void visit_evaluate(const Ref<Evaluate>& s);
  virtual void visit_for(const Ref<For>& s);
  virtual void visit_while(const Ref<While>& s);
  virtual void visit_block(const Ref<Block>& s);
  virtual void visit_block_realize(const Ref<BlockRealize>& s);

 protected:
  void visit_range(const Ref<Range>& r);
  void visit_region(const Ref<BufferRegion>& r);
};

// Rebuilds TIR bottom-up, sharing every node whose children did not change.
class Mutator {
 public:
  virtual ~Mutator() = default;

  virtual Ref<PrimExpr> mutate_expr(const Ref<PrimExpr>& expr);
  virtual Ref<Stmt> mutate_stmt(const Ref<Stmt>& stmt);

  virtual Ref<PrimExpr> mutate_var(const Ref<Var>& var) { return var; }
  virtual Ref<PrimExpr> mutate_int_imm(const Ref<IntImm>& imm) { return imm; }
  virtual Ref<PrimExpr> mutate_float_imm(const Ref<FloatImm>& imm) { return imm; }
  virtual Ref<PrimExpr> mutate_string_imm(const Ref<StringImm>& imm) { return imm; }
  virtual Ref<PrimExpr> mutate_cast(const Ref<Cast>& cast);
  virtual Ref<PrimExpr> mutate_binary(const Ref<BinaryOp>& op);
  virtual Ref<PrimExpr> mutate_not(const Ref<Not>& op);
  virtual Ref<PrimExpr> mutate_select(const Ref<Select>& op);
  virtual Ref<PrimExpr> mutate_buffer_load(const Ref<BufferLoad>& load);
  virtual Ref<PrimExpr> mutate_ramp(const Ref<Ramp>& ramp);
  virtual Ref<PrimExpr> mutate_broadcast(const Ref<Broadcast>& bc);
  virtual Ref<PrimExpr> mutate_shuffle(const Ref<Shuffle>& sh);
  virtual Ref<PrimExpr> mutate_let(const Ref<Let>& let);
  virtual Ref<PrimExpr> mutate_call(const Ref<Call>& call);
  virtual Ref<PrimExpr> mutate_reduce(const Ref<Reduce>& reduce) { return reduce; }

  virtual Ref<Stmt> mutate_let_stmt(const Ref<LetStmt>& s);
  virtual Ref<Stmt> mutate_attr_stmt(const Ref<AttrStmt>& s);
  virtual Ref<Stmt> mutate_assert_stmt(const Ref<AssertStmt>& s);
  virtual Ref<Stmt> mutate_buffer_store(const Ref<BufferStore>& s);
  virtual Ref<Stmt> mutate_buffer_realize(const Ref<BufferRealize>& s);
  virtual Ref<Stmt> mutate_allocate(const Ref<Allocate>& s);
  virtual Ref<Stmt> mutate_decl_buffer(const Ref<DeclBuffer>& s);
  virtual Ref<Stmt> mutate_seq_stmt(const Ref<SeqStmt>& s);
  virtual Ref<Stmt> mutate_if_then_else(const Ref<IfThenElse>& s);
  virtual Ref<Stmt> mutate_evaluate(const Ref<Evaluate>& s);
  virtual Ref<Stmt> mutate_for(const Ref<For>& s);
  virtual Ref<Stmt> mutate_while(const Ref<While>& s);
  virtual Ref<Stmt> mutate_block(const Ref<Block>& s);
  virtual Ref<Stmt> mutate_block_realize(const Ref<BlockRealize>& s);

 protected:
  // Mutates each element; true when any changed.
  bool mutate_exprs(const std::vector<Ref<PrimExpr>>& in, std::vector<Ref<PrimExpr>>& out);
  Ref<Range> mutate_range(const Ref<Range>& r);
  Ref<BufferRegion> mutate_region(const Ref<BufferRegion>& r);
};

}  // namespace relax::ir::tir
