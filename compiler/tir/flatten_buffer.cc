// FlattenBuffer: every buffer access in the body becomes a one-dimensional access of a flat
// buffer sharing the original's data pointer: the index is the row-major offset (or the sum of
// index times stride for buffers with strides) plus the buffer's elem_offset. Allocations become
// one-dimensional with the product of the extents. The function's buffer map keeps the N-d
// buffers (the kernel entry checks argument shapes against them). Buffers with axis separators
// are rejected (E0707).
#include <unordered_map>

#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

class Flattener : public irt::Mutator {
 public:
  explicit Flattener(LowerContext& ctx) : ctx_(ctx) {}
  bool failed = false;

  Ref<PrimExpr> mutate_buffer_load(const Ref<irt::BufferLoad>& load) override {
    auto l = Mutator::mutate_buffer_load(load).as<irt::BufferLoad>();
    if (is_flat(*l->buffer)) return l;
    auto n = ir::copy(l);
    n->buffer = flat(l->buffer);
    n->indices = {flat_index(*l->buffer, l->indices)};
    return n;
  }

  Ref<Stmt> mutate_buffer_store(const Ref<irt::BufferStore>& store) override {
    auto s = Mutator::mutate_buffer_store(store).as<irt::BufferStore>();
    if (is_flat(*s->buffer)) return s;
    auto n = ir::copy(s);
    n->buffer = flat(s->buffer);
    n->indices = {flat_index(*s->buffer, s->indices)};
    return n;
  }

  Ref<Stmt> mutate_allocate(const Ref<irt::Allocate>& alloc) override {
    auto a = Mutator::mutate_allocate(alloc).as<irt::Allocate>();
    if (a->extents.size() == 1) return a;
    auto n = ir::copy(a);
    n->extents = {numel(a->extents)};
    return n;
  }

  Ref<Stmt> mutate_decl_buffer(const Ref<irt::DeclBuffer>& decl) override {
    auto d = Mutator::mutate_decl_buffer(decl).as<irt::DeclBuffer>();
    if (is_flat(*d->buffer)) return d;
    return make<irt::DeclBuffer>(flat(d->buffer), d->body);
  }

 private:
  static bool is_flat(const Buffer& b) {
    return b.shape.size() == 1 && b.strides.empty() && (!b.elem_offset || is_zero(b.elem_offset)) &&
           b.axis_separators.empty();
  }

  static Ref<PrimExpr> numel(const std::vector<Ref<PrimExpr>>& shape) {
    Ref<PrimExpr> n = irt::int64(1);
    if (!shape.empty()) n = shape[0];
    for (size_t i = 1; i < shape.size(); ++i) n = mul(n, shape[i]);
    if (shape.empty()) n = irt::int_imm(DataType::Int64(), 1);
    return n;
  }

  Ref<Buffer> flat(const Ref<Buffer>& b) {
    auto it = flat_.find(b.get());
    if (it != flat_.end()) return it->second;
    if (!b->axis_separators.empty() && !failed) {
      failed = true;
      ctx_.diags.error("E0707", b->span,
                       "prim_func `" + ctx_.func_name + "`: buffer `" + b->name +
                           "` has axis separators (multi-dimensional physical memory), which CPU "
                           "code generation does not support");
    }
    auto n = make<Buffer>(*b);
    n->shape = {numel(b->shape)};
    n->strides.clear();
    n->elem_offset = nullptr;
    n->axis_separators.clear();
    flat_[b.get()] = n;
    return n;
  }

  Ref<PrimExpr> flat_index(const Buffer& b, const std::vector<Ref<PrimExpr>>& idx) {
    Ref<PrimExpr> out;
    if (idx.empty()) {
      out = irt::int64(0);
    } else if (b.strides.empty()) {
      out = idx[0];
      for (size_t i = 1; i < idx.size() && i < b.shape.size(); ++i)
        out = add(mul(out, b.shape[i]), idx[i]);
    } else {
      for (size_t i = 0; i < idx.size() && i < b.strides.size(); ++i) {
        Ref<PrimExpr> term = mul(idx[i], b.strides[i]);
        out = out ? add(out, term) : term;
      }
    }
    if (b.elem_offset && !is_zero(b.elem_offset)) out = add(out, b.elem_offset);
    return out;
  }

  LowerContext& ctx_;
  std::unordered_map<const Buffer*, Ref<Buffer>> flat_;
};

}  // namespace

Ref<PrimFunc> flatten_buffer(const Ref<PrimFunc>& f, LowerContext& ctx) {
  Flattener m(ctx);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (m.failed) return nullptr;
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir
