// Default recursion of the TIR visitor and mutator.
#include "ir/tir_visitor.h"

namespace relax::ir::tir {

void Visitor::visit_expr(const Ref<PrimExpr>& e) {
  if (!e) return;
  switch (e->kind()) {
    case ObjectKind::kTirVar:
      return visit_var(e.as<Var>());
    case ObjectKind::kIntImm:
      return visit_int_imm(e.as<IntImm>());
    case ObjectKind::kFloatImm:
      return visit_float_imm(e.as<FloatImm>());
    case ObjectKind::kTirStringImm:
      return visit_string_imm(e.as<StringImm>());
    case ObjectKind::kCast:
      return visit_cast(e.as<Cast>());
    case ObjectKind::kNot:
      return visit_not(e.as<Not>());
    case ObjectKind::kSelect:
      return visit_select(e.as<Select>());
    case ObjectKind::kBufferLoad:
      return visit_buffer_load(e.as<BufferLoad>());
    case ObjectKind::kRamp:
      return visit_ramp(e.as<Ramp>());
    case ObjectKind::kBroadcast:
      return visit_broadcast(e.as<Broadcast>());
    case ObjectKind::kShuffle:
      return visit_shuffle(e.as<Shuffle>());
    case ObjectKind::kLet:
      return visit_let(e.as<Let>());
    case ObjectKind::kTirCall:
      return visit_call(e.as<Call>());
    case ObjectKind::kReduce:
      return visit_reduce(e.as<Reduce>());
    default:
      assert(BinaryOp::classof(e.get()));
      return visit_binary(e.as<BinaryOp>());
  }
}

void Visitor::visit_stmt(const Ref<Stmt>& s) {
  if (!s) return;
  switch (s->kind()) {
    case ObjectKind::kLetStmt:
      return visit_let_stmt(s.as<LetStmt>());
    case ObjectKind::kAttrStmt:
      return visit_attr_stmt(s.as<AttrStmt>());
    case ObjectKind::kAssertStmt:
      return visit_assert_stmt(s.as<AssertStmt>());
    case ObjectKind::kBufferStore:
      return visit_buffer_store(s.as<BufferStore>());
    case ObjectKind::kBufferRealize:
      return visit_buffer_realize(s.as<BufferRealize>());
    case ObjectKind::kAllocate:
      return visit_allocate(s.as<Allocate>());
    case ObjectKind::kDeclBuffer:
      return visit_decl_buffer(s.as<DeclBuffer>());
    case ObjectKind::kSeqStmt:
      return visit_seq_stmt(s.as<SeqStmt>());
    case ObjectKind::kIfThenElse:
      return visit_if_then_else(s.as<IfThenElse>());
    case ObjectKind::kEvaluate:
      return visit_evaluate(s.as<Evaluate>());
    case ObjectKind::kFor:
      return visit_for(s.as<For>());
    case ObjectKind::kWhile:
      return visit_while(s.as<While>());
    case ObjectKind::kBlock:
      return visit_block(s.as<Block>());
    case ObjectKind::kBlockRealize:
      return visit_block_realize(s.as<BlockRealize>());
    default:
      assert(false && "not a TIR statement");
  }
}

void Visitor::visit_buffer_def(const Ref<Buffer>& buffer) {
  for (const auto& d : buffer->shape) visit_expr(d);
  for (const auto& d : buffer->strides) visit_expr(d);
  visit_expr(buffer->elem_offset);
}

void Visitor::visit_range(const Ref<Range>& r) {
  if (!r) return;
  visit_expr(r->min);
  visit_expr(r->extent);
}

void Visitor::visit_region(const Ref<BufferRegion>& r) {
  for (const auto& range : r->region) visit_range(range);
}

void Visitor::visit_cast(const Ref<Cast>& cast) {
  visit_expr(cast->value);
}
void Visitor::visit_binary(const Ref<BinaryOp>& op) {
  visit_expr(op->a);
  visit_expr(op->b);
}
void Visitor::visit_not(const Ref<Not>& op) {
  visit_expr(op->a);
}
void Visitor::visit_select(const Ref<Select>& op) {
  visit_expr(op->condition);
  visit_expr(op->true_value);
  visit_expr(op->false_value);
}
void Visitor::visit_buffer_load(const Ref<BufferLoad>& load) {
  for (const auto& i : load->indices) visit_expr(i);
  visit_expr(load->predicate);
}
void Visitor::visit_ramp(const Ref<Ramp>& ramp) {
  visit_expr(ramp->base);
  visit_expr(ramp->stride);
  visit_expr(ramp->lanes);
}
void Visitor::visit_broadcast(const Ref<Broadcast>& bc) {
  visit_expr(bc->value);
  visit_expr(bc->lanes);
}
void Visitor::visit_shuffle(const Ref<Shuffle>& sh) {
  for (const auto& v : sh->vectors) visit_expr(v);
  for (const auto& i : sh->indices) visit_expr(i);
}
void Visitor::visit_let(const Ref<Let>& let) {
  visit_expr(let->value);
  visit_expr(let->body);
}
void Visitor::visit_call(const Ref<Call>& call) {
  for (const auto& a : call->args) visit_expr(a);
}
void Visitor::visit_reduce(const Ref<Reduce>& reduce) {
  for (const auto& s : reduce->source) visit_expr(s);
  for (const auto& i : reduce->init) visit_expr(i);
  visit_expr(reduce->condition);
}

void Visitor::visit_let_stmt(const Ref<LetStmt>& s) {
  visit_expr(s->value);
  visit_stmt(s->body);
}
void Visitor::visit_attr_stmt(const Ref<AttrStmt>& s) {
  visit_expr(s->value);
  visit_stmt(s->body);
}
void Visitor::visit_assert_stmt(const Ref<AssertStmt>& s) {
  visit_expr(s->condition);
  visit_expr(s->message);
  visit_stmt(s->body);
}
void Visitor::visit_buffer_store(const Ref<BufferStore>& s) {
  visit_expr(s->value);
  for (const auto& i : s->indices) visit_expr(i);
  visit_expr(s->predicate);
}
void Visitor::visit_buffer_realize(const Ref<BufferRealize>& s) {
  for (const auto& r : s->bounds) visit_range(r);
  visit_expr(s->condition);
  visit_stmt(s->body);
}
void Visitor::visit_allocate(const Ref<Allocate>& s) {
  for (const auto& e : s->extents) visit_expr(e);
  visit_expr(s->condition);
  visit_stmt(s->body);
}
void Visitor::visit_decl_buffer(const Ref<DeclBuffer>& s) {
  visit_buffer_def(s->buffer);
  visit_stmt(s->body);
}
void Visitor::visit_seq_stmt(const Ref<SeqStmt>& s) {
  for (const auto& st : s->seq) visit_stmt(st);
}
void Visitor::visit_if_then_else(const Ref<IfThenElse>& s) {
  visit_expr(s->condition);
  visit_stmt(s->then_case);
  visit_stmt(s->else_case);
}
void Visitor::visit_evaluate(const Ref<Evaluate>& s) {
  visit_expr(s->value);
}
void Visitor::visit_for(const Ref<For>& s) {
  visit_expr(s->min);
  visit_expr(s->extent);
  visit_stmt(s->body);
}
void Visitor::visit_while(const Ref<While>& s) {
  visit_expr(s->condition);
  visit_stmt(s->body);
}
void Visitor::visit_block(const Ref<Block>& s) {
  for (const auto& iv : s->iter_vars) visit_range(iv->dom);
  for (const auto& b : s->alloc_buffers) visit_buffer_def(b);
  for (const auto& m : s->match_buffers) {
    visit_region(m->source);
    visit_buffer_def(m->buffer);
  }
  for (const auto& r : s->reads) visit_region(r);
  for (const auto& r : s->writes) visit_region(r);
  visit_stmt(s->init);
  visit_stmt(s->body);
}
void Visitor::visit_block_realize(const Ref<BlockRealize>& s) {
  for (const auto& v : s->iter_values) visit_expr(v);
  visit_expr(s->predicate);
  visit_stmt(s->block);
}

// ---------------------------------------------------------------------------------------------

Ref<PrimExpr> Mutator::mutate_expr(const Ref<PrimExpr>& e) {
  if (!e) return e;
  switch (e->kind()) {
    case ObjectKind::kTirVar:
      return mutate_var(e.as<Var>());
    case ObjectKind::kIntImm:
      return mutate_int_imm(e.as<IntImm>());
    case ObjectKind::kFloatImm:
      return mutate_float_imm(e.as<FloatImm>());
    case ObjectKind::kTirStringImm:
      return mutate_string_imm(e.as<StringImm>());
    case ObjectKind::kCast:
      return mutate_cast(e.as<Cast>());
    case ObjectKind::kNot:
      return mutate_not(e.as<Not>());
    case ObjectKind::kSelect:
      return mutate_select(e.as<Select>());
    case ObjectKind::kBufferLoad:
      return mutate_buffer_load(e.as<BufferLoad>());
    case ObjectKind::kRamp:
      return mutate_ramp(e.as<Ramp>());
    case ObjectKind::kBroadcast:
      return mutate_broadcast(e.as<Broadcast>());
    case ObjectKind::kShuffle:
      return mutate_shuffle(e.as<Shuffle>());
    case ObjectKind::kLet:
      return mutate_let(e.as<Let>());
    case ObjectKind::kTirCall:
      return mutate_call(e.as<Call>());
    case ObjectKind::kReduce:
      return mutate_reduce(e.as<Reduce>());
    default:
      return mutate_binary(e.as<BinaryOp>());
  }
}

Ref<Stmt> Mutator::mutate_stmt(const Ref<Stmt>& s) {
  if (!s) return s;
  switch (s->kind()) {
    case ObjectKind::kLetStmt:
      return mutate_let_stmt(s.as<LetStmt>());
    case ObjectKind::kAttrStmt:
      return mutate_attr_stmt(s.as<AttrStmt>());
    case ObjectKind::kAssertStmt:
      return mutate_assert_stmt(s.as<AssertStmt>());
    case ObjectKind::kBufferStore:
      return mutate_buffer_store(s.as<BufferStore>());
    case ObjectKind::kBufferRealize:
      return mutate_buffer_realize(s.as<BufferRealize>());
    case ObjectKind::kAllocate:
      return mutate_allocate(s.as<Allocate>());
    case ObjectKind::kDeclBuffer:
      return mutate_decl_buffer(s.as<DeclBuffer>());
    case ObjectKind::kSeqStmt:
      return mutate_seq_stmt(s.as<SeqStmt>());
    case ObjectKind::kIfThenElse:
      return mutate_if_then_else(s.as<IfThenElse>());
    case ObjectKind::kEvaluate:
      return mutate_evaluate(s.as<Evaluate>());
    case ObjectKind::kFor:
      return mutate_for(s.as<For>());
    case ObjectKind::kWhile:
      return mutate_while(s.as<While>());
    case ObjectKind::kBlock:
      return mutate_block(s.as<Block>());
    case ObjectKind::kBlockRealize:
      return mutate_block_realize(s.as<BlockRealize>());
    default:
      assert(false && "not a TIR statement");
      return s;
  }
}

bool Mutator::mutate_exprs(const std::vector<Ref<PrimExpr>>& in, std::vector<Ref<PrimExpr>>& out) {
  bool changed = false;
  out.clear();
  out.reserve(in.size());
  for (const auto& e : in) {
    out.push_back(mutate_expr(e));
    changed |= !out.back().same_as(e);
  }
  return changed;
}

Ref<Range> Mutator::mutate_range(const Ref<Range>& r) {
  if (!r) return r;
  auto mn = mutate_expr(r->min);
  auto ex = mutate_expr(r->extent);
  if (mn.same_as(r->min) && ex.same_as(r->extent)) return r;
  return make<Range>(mn, ex);
}

Ref<BufferRegion> Mutator::mutate_region(const Ref<BufferRegion>& r) {
  std::vector<Ref<Range>> region;
  bool changed = false;
  for (const auto& range : r->region) {
    region.push_back(mutate_range(range));
    changed |= !region.back().same_as(range);
  }
  if (!changed) return r;
  return make<BufferRegion>(r->buffer, std::move(region));
}

// Rebuilds `node` as a copy with the given changes when `changed`, keeping its span.
#define RELAX_REBUILD(node, changed, body) \
  if (!(changed)) return node;             \
  auto n = copy(node);                     \
  body;                                    \
  return n;

Ref<PrimExpr> Mutator::mutate_cast(const Ref<Cast>& cast) {
  auto v = mutate_expr(cast->value);
  RELAX_REBUILD(cast, !v.same_as(cast->value), n->value = v);
}
Ref<PrimExpr> Mutator::mutate_binary(const Ref<BinaryOp>& op) {
  auto a = mutate_expr(op->a);
  auto b = mutate_expr(op->b);
  RELAX_REBUILD(op, !a.same_as(op->a) || !b.same_as(op->b), n->a = a; n->b = b);
}
Ref<PrimExpr> Mutator::mutate_not(const Ref<Not>& op) {
  auto a = mutate_expr(op->a);
  RELAX_REBUILD(op, !a.same_as(op->a), n->a = a);
}
Ref<PrimExpr> Mutator::mutate_select(const Ref<Select>& op) {
  auto c = mutate_expr(op->condition);
  auto t = mutate_expr(op->true_value);
  auto f = mutate_expr(op->false_value);
  RELAX_REBUILD(
      op, !c.same_as(op->condition) || !t.same_as(op->true_value) || !f.same_as(op->false_value),
      n->condition = c;
      n->true_value = t; n->false_value = f);
}
Ref<PrimExpr> Mutator::mutate_buffer_load(const Ref<BufferLoad>& load) {
  std::vector<Ref<PrimExpr>> idx;
  bool changed = mutate_exprs(load->indices, idx);
  auto pred = mutate_expr(load->predicate);
  RELAX_REBUILD(load, changed || !pred.same_as(load->predicate), n->indices = std::move(idx);
                n->predicate = pred);
}
Ref<PrimExpr> Mutator::mutate_ramp(const Ref<Ramp>& ramp) {
  auto b = mutate_expr(ramp->base);
  auto s = mutate_expr(ramp->stride);
  RELAX_REBUILD(ramp, !b.same_as(ramp->base) || !s.same_as(ramp->stride), n->base = b;
                n->stride = s);
}
Ref<PrimExpr> Mutator::mutate_broadcast(const Ref<Broadcast>& bc) {
  auto v = mutate_expr(bc->value);
  RELAX_REBUILD(bc, !v.same_as(bc->value), n->value = v);
}
Ref<PrimExpr> Mutator::mutate_shuffle(const Ref<Shuffle>& sh) {
  std::vector<Ref<PrimExpr>> vecs, idx;
  bool changed = mutate_exprs(sh->vectors, vecs);
  changed |= mutate_exprs(sh->indices, idx);
  RELAX_REBUILD(sh, changed, n->vectors = std::move(vecs); n->indices = std::move(idx));
}
Ref<PrimExpr> Mutator::mutate_let(const Ref<Let>& let) {
  auto v = mutate_expr(let->value);
  auto b = mutate_expr(let->body);
  RELAX_REBUILD(let, !v.same_as(let->value) || !b.same_as(let->body), n->value = v; n->body = b);
}
Ref<PrimExpr> Mutator::mutate_call(const Ref<Call>& call) {
  std::vector<Ref<PrimExpr>> args;
  bool changed = mutate_exprs(call->args, args);
  RELAX_REBUILD(call, changed, n->args = std::move(args));
}

Ref<Stmt> Mutator::mutate_let_stmt(const Ref<LetStmt>& s) {
  auto v = mutate_expr(s->value);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !v.same_as(s->value) || !b.same_as(s->body), n->value = v; n->body = b);
}
Ref<Stmt> Mutator::mutate_attr_stmt(const Ref<AttrStmt>& s) {
  auto v = mutate_expr(s->value);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !v.same_as(s->value) || !b.same_as(s->body), n->value = v; n->body = b);
}
Ref<Stmt> Mutator::mutate_assert_stmt(const Ref<AssertStmt>& s) {
  auto c = mutate_expr(s->condition);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !c.same_as(s->condition) || !b.same_as(s->body), n->condition = c; n->body = b);
}
Ref<Stmt> Mutator::mutate_buffer_store(const Ref<BufferStore>& s) {
  auto v = mutate_expr(s->value);
  std::vector<Ref<PrimExpr>> idx;
  bool changed = mutate_exprs(s->indices, idx) || !v.same_as(s->value);
  auto pred = mutate_expr(s->predicate);
  RELAX_REBUILD(s, changed || !pred.same_as(s->predicate), n->value = v;
                n->indices = std::move(idx); n->predicate = pred);
}
Ref<Stmt> Mutator::mutate_buffer_realize(const Ref<BufferRealize>& s) {
  auto c = mutate_expr(s->condition);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !c.same_as(s->condition) || !b.same_as(s->body), n->condition = c; n->body = b);
}
Ref<Stmt> Mutator::mutate_allocate(const Ref<Allocate>& s) {
  std::vector<Ref<PrimExpr>> ext;
  bool changed = mutate_exprs(s->extents, ext);
  auto c = mutate_expr(s->condition);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, changed || !c.same_as(s->condition) || !b.same_as(s->body),
                n->extents = std::move(ext);
                n->condition = c; n->body = b);
}
Ref<Stmt> Mutator::mutate_decl_buffer(const Ref<DeclBuffer>& s) {
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !b.same_as(s->body), n->body = b);
}
Ref<Stmt> Mutator::mutate_seq_stmt(const Ref<SeqStmt>& s) {
  std::vector<Ref<Stmt>> seq;
  bool changed = false;
  for (const auto& st : s->seq) {
    seq.push_back(mutate_stmt(st));
    changed |= !seq.back().same_as(st);
  }
  RELAX_REBUILD(s, changed, n->seq = std::move(seq));
}
Ref<Stmt> Mutator::mutate_if_then_else(const Ref<IfThenElse>& s) {
  auto c = mutate_expr(s->condition);
  auto t = mutate_stmt(s->then_case);
  auto e = mutate_stmt(s->else_case);
  RELAX_REBUILD(s, !c.same_as(s->condition) || !t.same_as(s->then_case) || !e.same_as(s->else_case),
                n->condition = c;
                n->then_case = t; n->else_case = e);
}
Ref<Stmt> Mutator::mutate_evaluate(const Ref<Evaluate>& s) {
  auto v = mutate_expr(s->value);
  RELAX_REBUILD(s, !v.same_as(s->value), n->value = v);
}
Ref<Stmt> Mutator::mutate_for(const Ref<For>& s) {
  auto mn = mutate_expr(s->min);
  auto ex = mutate_expr(s->extent);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !mn.same_as(s->min) || !ex.same_as(s->extent) || !b.same_as(s->body),
                n->min = mn;
                n->extent = ex; n->body = b);
}
Ref<Stmt> Mutator::mutate_while(const Ref<While>& s) {
  auto c = mutate_expr(s->condition);
  auto b = mutate_stmt(s->body);
  RELAX_REBUILD(s, !c.same_as(s->condition) || !b.same_as(s->body), n->condition = c; n->body = b);
}
Ref<Stmt> Mutator::mutate_block(const Ref<Block>& s) {
  std::vector<Ref<BufferRegion>> reads, writes;
  bool changed = false;
  for (const auto& r : s->reads) {
    reads.push_back(mutate_region(r));
    changed |= !reads.back().same_as(r);
  }
  for (const auto& r : s->writes) {
    writes.push_back(mutate_region(r));
    changed |= !writes.back().same_as(r);
  }
  auto init = mutate_stmt(s->init);
  auto body = mutate_stmt(s->body);
  changed |= !init.same_as(s->init) || !body.same_as(s->body);
  RELAX_REBUILD(s, changed, n->reads = std::move(reads); n->writes = std::move(writes);
                n->init = init; n->body = body);
}
Ref<Stmt> Mutator::mutate_block_realize(const Ref<BlockRealize>& s) {
  std::vector<Ref<PrimExpr>> values;
  bool changed = mutate_exprs(s->iter_values, values);
  auto pred = mutate_expr(s->predicate);
  auto block = mutate_stmt(s->block);
  RELAX_REBUILD(s, changed || !pred.same_as(s->predicate) || !block.same_as(s->block),
                n->iter_values = std::move(values);
                n->predicate = pred; n->block = block.as<Block>());
}

#undef RELAX_REBUILD

}  // namespace relax::ir::tir
