// LowerOpaqueBlock: blocks disappear (TVM's LowerOpaqueBlock). A block's predicate becomes an
// `if` around its body; its alloc_buffers become `T.allocate` + `T.decl_buffer` around the body
// (so an allocation lives exactly as long as its block); reads, writes and annotations are
// dropped. Loops bound to threads are rejected on CPU targets (E0700); the other loop kinds and
// their annotations are left alone.
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

class BlockLowerer : public irt::Mutator {
 public:
  explicit BlockLowerer(LowerContext& ctx) : ctx_(ctx) {}
  bool failed = false;

  Ref<Stmt> mutate_block_realize(const Ref<irt::BlockRealize>& realize) override {
    const auto& block = realize->block;
    Ref<Stmt> body = mutate_stmt(block->body);
    if (block->init) body = seq({mutate_stmt(block->init), body});
    for (size_t i = block->alloc_buffers.size(); i-- > 0;) {
      const Ref<Buffer>& buf = block->alloc_buffers[i];
      auto alloc = make<irt::Allocate>();
      alloc->buffer_var = buf->data;
      alloc->dtype = buf->dtype;
      alloc->extents = buf->shape;
      alloc->condition = const_true();
      alloc->body = make<irt::DeclBuffer>(buf, body);
      alloc->span = buf->span;
      body = alloc;
    }
    Ref<PrimExpr> pred = mutate_expr(realize->predicate);
    if (pred && !is_const_true(pred)) body = make<irt::IfThenElse>(pred, body, nullptr);
    return body;
  }

  Ref<Stmt> mutate_for(const Ref<irt::For>& loop) override {
    if (loop->for_kind == irt::ForKind::kThreadBinding && ctx_.target.kind == Target::Kind::kLLVM) {
      failed = true;
      std::string tag = loop->thread_binding ? loop->thread_binding->thread_tag : "";
      ctx_.diags.error("E0700", loop->span,
                       "prim_func `" + ctx_.func_name + "`: loop `" + loop->loop_var->name +
                           "` is bound to thread `" + tag +
                           "`, which a CPU target cannot run; remove the binding (T.serial or "
                           "T.parallel) or compile for a GPU target");
    }
    return Mutator::mutate_for(loop);
  }

 private:
  LowerContext& ctx_;
};

}  // namespace

Ref<PrimFunc> lower_opaque_block(const Ref<PrimFunc>& f, LowerContext& ctx) {
  BlockLowerer m(ctx);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (m.failed) return nullptr;
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir
