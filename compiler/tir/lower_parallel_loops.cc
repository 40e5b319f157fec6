// LowerParallelLoops: a parallel loop nested inside another parallel loop becomes serial: the
// outer loop already has the threads (the runtime's parallel_for runs nested calls serially, so
// outlining the inner loop would only add overhead). Parallel loops themselves stay parallel;
// the code generator outlines each into a function run through the context's parallel_for.
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

class ParallelNesting : public irt::Mutator {
 public:
  Ref<Stmt> mutate_for(const Ref<irt::For>& loop) override {
    bool parallel = loop->for_kind == irt::ForKind::kParallel;
    if (!parallel) return Mutator::mutate_for(loop);
    if (depth_ > 0) {
      auto n = ir::copy(loop);
      n->for_kind = irt::ForKind::kSerial;
      n->body = mutate_stmt(loop->body);
      return n;
    }
    ++depth_;
    auto r = Mutator::mutate_for(loop);
    --depth_;
    return r;
  }

 private:
  int depth_ = 0;
};

}  // namespace

Ref<PrimFunc> lower_parallel_loops(const Ref<PrimFunc>& f, LowerContext&) {
  ParallelNesting m;
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir
