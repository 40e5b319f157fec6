// UnrollLoop: an unrolled loop whose extent is a constant no larger than the option's limit
// becomes one copy of its body per iteration, the loop variable replaced by its value. Longer
// unrolled loops and those of symbolic extent stay loops; the code generator gives them LLVM's
// unroll hint. Other loop kinds are left alone.
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

class Unroller : public irt::Mutator {
 public:
  explicit Unroller(int limit) : limit_(limit) {}

  Ref<Stmt> mutate_for(const Ref<irt::For>& loop) override {
    auto r = Mutator::mutate_for(loop).as<irt::For>();
    if (r->for_kind != irt::ForKind::kUnrolled) return r;
    auto extent = irt::as_const_int(r->extent);
    if (!extent || *extent > limit_ || *extent < 0) return r;
    std::vector<Ref<Stmt>> copies;
    for (int64_t i = 0; i < *extent; ++i) {
      Ref<PrimExpr> value = add(r->min, irt::int_imm(r->loop_var->dtype, i));
      VarExprMap m{{r->loop_var.get(), cast(r->loop_var->dtype, value)}};
      copies.push_back(substitute(r->body, m));
    }
    return seq(std::move(copies));
  }

 private:
  int limit_;
};

}  // namespace

Ref<PrimFunc> unroll_loop(const Ref<PrimFunc>& f, LowerContext& ctx) {
  Unroller m(ctx.options.max_unroll_extent);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir
