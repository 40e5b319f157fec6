// The TIR front end: the IR it builds for the constructs whose structure matters beyond the
// printed text (detected block regions, loop nests, remapped axes, int64 indices,
// match_buffer, symbolic dims, concise scoping, implicit root blocks).
#include "tir_test_util.h"

using namespace relax;
using namespace relax::tirtest;
using namespace relax::ir;
using namespace relax::ir::tir;

namespace {

// The first BlockRealize (depth-first) whose block is named `name`.
const BlockRealize* find_block(const Ref<Stmt>& s, const std::string& name) {
  if (!s) return nullptr;
  switch (s->kind()) {
    case ObjectKind::kBlockRealize: {
      auto r = s.as_ptr<BlockRealize>();
      if (r->block->name_hint == name) return r;
      if (auto x = find_block(r->block->init, name)) return x;
      return find_block(r->block->body, name);
    }
    case ObjectKind::kSeqStmt:
      for (const auto& x : s.as_ptr<SeqStmt>()->seq) {
        if (auto b = find_block(x, name)) return b;
      }
      return nullptr;
    case ObjectKind::kFor:
      return find_block(s.as_ptr<For>()->body, name);
    case ObjectKind::kLetStmt:
      return find_block(s.as_ptr<LetStmt>()->body, name);
    case ObjectKind::kAttrStmt:
      return find_block(s.as_ptr<AttrStmt>()->body, name);
    case ObjectKind::kIfThenElse:
      return find_block(s.as_ptr<IfThenElse>()->then_case, name);
    default:
      return nullptr;
  }
}

Ref<PrimFunc> only_func(const Parsed& p) {
  REQUIRE(p.result.module->functions.size() == 1);
  return as_prim_func(p.result.module->functions[0].func);
}

}  // namespace

TEST_CASE("blocks without T.reads/T.writes get the regions TVM detects") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((64, 16), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
    for i in range(64):
        with T.block("add"):
            vi = T.axis.spatial(64, i)
            C[vi] = A[vi, 0] + B[vi] + A[vi, 3]
    for i in range(64):
        with T.block("sum"):
            vi = T.axis.spatial(64, i)
            with T.init():
                C[vi] = T.float32(0)
            for k in range(4):
                C[vi] = C[vi] + A[vi, k * 4 + 1]
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = only_func(p);
  const BlockRealize* add = find_block(f->body, "add");
  REQUIRE(add);
  const Block& b = *add->block;
  REQUIRE(b.reads.size() == 2);
  CHECK(b.reads[0]->buffer->name == "A");
  CHECK(b.reads[1]->buffer->name == "B");
  // A is read at [vi, 0] and [vi, 3]: the union is vi, 0:4.
  REQUIRE(b.reads[0]->region.size() == 2);
  CHECK(b.reads[0]->region[0]->min.same_as(b.iter_vars[0]->var));
  CHECK(is_const_int(b.reads[0]->region[0]->extent, 1));
  CHECK(is_const_int(b.reads[0]->region[1]->min, 0));
  CHECK(is_const_int(b.reads[0]->region[1]->extent, 4));
  REQUIRE(b.writes.size() == 1);
  CHECK(b.writes[0]->buffer->name == "C");
  // With an init block, the written buffer is not a read; loads in inner loops are relaxed.
  const BlockRealize* sum = find_block(f->body, "sum");
  REQUIRE(sum);
  REQUIRE(sum->block->reads.size() == 1);
  CHECK(sum->block->reads[0]->buffer->name == "A");
  CHECK(is_const_int(sum->block->reads[0]->region[1]->min, 1));
  CHECK(is_const_int(sum->block->reads[0]->region[1]->extent, 13));
}

TEST_CASE("an implicit root block wraps bodies with blocks, holding root allocations") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    tmp = T.alloc_buffer((4,))
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            tmp[vi] = A[vi]

@T.prim_func
def g(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = prim_func(p, "f");
  auto root = f->body.as<BlockRealize>();
  REQUIRE(root);
  CHECK(root->block->name_hint == "root");
  CHECK(root->block->iter_vars.empty());
  REQUIRE(root->block->alloc_buffers.size() == 1);
  CHECK(root->block->alloc_buffers[0]->name == "tmp");
  CHECK(root->block->reads.empty());
  auto g = prim_func(p, "g");
  CHECK(g->body.is<For>());
}

TEST_CASE("T.grid builds a loop nest, T.axis.remap takes the loops' domains") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((T.int64(4), T.int64(8)), "float32")):
    for i, j in T.grid(T.int64(4), T.int64(8)):
        with T.block("b"):
            vi, vj = T.axis.remap("SR", [i, j])
            A[vi, vj] = T.float32(0)
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto root = only_func(p)->body.as<BlockRealize>();
  REQUIRE(root);
  auto outer = root->block->body.as<For>();
  REQUIRE(outer);
  auto inner = outer->body.as<For>();
  REQUIRE(inner);
  CHECK(outer->loop_var->dtype == DataType::Int64());
  CHECK(outer->min->dtype == DataType::Int64());
  CHECK(is_const_int(outer->min, 0));
  CHECK(is_const_int(inner->extent, 8));
  auto realize = inner->body.as<BlockRealize>();
  REQUIRE(realize);
  REQUIRE(realize->block->iter_vars.size() == 2);
  const IterVar& vi = *realize->block->iter_vars[0];
  const IterVar& vj = *realize->block->iter_vars[1];
  CHECK(vi.iter_type == IterType::kDataPar);
  CHECK(vj.iter_type == IterType::kCommReduce);
  CHECK(vi.var->dtype == DataType::Int64());
  CHECK(is_const_int(vj.dom->extent, 8));
  CHECK(realize->iter_values[0].same_as(outer->loop_var));
  CHECK(realize->iter_values[1].same_as(inner->loop_var));
  CHECK(is_const_int(realize->predicate, 1));
}

TEST_CASE("match_buffer binds handle parameters and block regions") {
  Parsed p = parse(R"(@T.prim_func
def f(a: T.handle, B: T.Buffer((16,), "float16")):
    n = T.int64()
    A = T.match_buffer(a, (n, 16), "float16")
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            sub = T.match_buffer(B[vi * 4:vi * 4 + 4])
            T.reads(sub[0:4])
            T.writes()
            T.evaluate(0)
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = only_func(p);
  REQUIRE(f->params.size() == 2);
  auto a = f->buffer_of(f->params[0]);
  REQUIRE(a);
  CHECK(a->dtype == DataType::Float(16));
  auto n = a->shape[0].as<tir::Var>();
  REQUIRE(n);
  CHECK(n->name == "n");
  CHECK(n->dtype == DataType::Int64());
  // The parameter annotated T.Buffer has a handle parameter of its own.
  CHECK(f->params[1]->dtype.is_handle());
  CHECK(f->buffer_of(f->params[1])->name == "B");
  const BlockRealize* b = find_block(f->body, "b");
  REQUIRE(b);
  REQUIRE(b->block->match_buffers.size() == 1);
  const MatchBufferRegion& m = *b->block->match_buffers[0];
  CHECK(m.buffer->name == "sub");
  CHECK(m.buffer->dtype == DataType::Float(16));
  CHECK(is_const_int(m.buffer->shape[0], 4));
  CHECK(m.source->buffer->name == "B");
}

TEST_CASE("symbolic dims: quoted names are int32, TypeVars and PEP 695 parameters int64") {
  Parsed p = parse(R"(N = TypeVar("N")

@T.prim_func
def f(A: T.Buffer((N, "M"), "float32"), B: T.Buffer(("M + 1",), "float32")):
    T.evaluate(0)

@T.prim_func
def g[n](A: T.Buffer((n,), "float32")):
    T.evaluate(0)
)");
  INFO(diag_text(p.diags));
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = prim_func(p, "f");
  auto a = f->buffer_of(f->params[0]);
  auto b = f->buffer_of(f->params[1]);
  REQUIRE(a->shape[0].is<tir::Var>());
  CHECK(a->shape[0]->dtype == DataType::Int64());
  auto m = a->shape[1].as<tir::Var>();
  REQUIRE(m);
  CHECK(m->dtype == DataType::Int32());
  auto sum = b->shape[0].as<BinaryOp>();
  REQUIRE(sum);
  CHECK(sum->a.same_as(m));
  auto g = prim_func(p, "g");
  CHECK(g->buffer_of(g->params[0])->shape[0]->dtype == DataType::Int64());
}

TEST_CASE("let bindings, threads and allocations cover the rest of their body") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((16,), "float32"), n: T.int32):
    x = n + 1
    A[x] = T.float32(1)
    bx = T.launch_thread("blockIdx.x", 4)
    B = T.decl_buffer((4,))
    B[bx] = A[bx]
    A[0] = B[0]
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto let = only_func(p)->body.as<LetStmt>();
  REQUIRE(let);
  CHECK(let->var->name == "x");
  auto seq = let->body.as<SeqStmt>();
  REQUIRE(seq);
  REQUIRE(seq->seq.size() == 2);
  CHECK(seq->seq[0].is<BufferStore>());
  auto attr = seq->seq[1].as<AttrStmt>();
  REQUIRE(attr);
  CHECK(attr->attr_key == "thread_extent");
  auto iv = attr->node.as<IterVar>();
  REQUIRE(iv);
  CHECK(iv->thread_tag == "blockIdx.x");
  CHECK(is_const_int(iv->dom->extent, 4));
  auto alloc = attr->body.as<Allocate>();
  REQUIRE(alloc);
  auto decl = alloc->body.as<DeclBuffer>();
  REQUIRE(decl);
  CHECK(decl->buffer->data.same_as(alloc->buffer_var));
  CHECK(decl->body.is<SeqStmt>());
}

TEST_CASE("constant conditions fold, slices are ramps, += stores a sum, intrinsics are typed") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((16,), "float32"), S: T.Buffer((), "int32")):
    if True:
        A[0:4] = A[4:8]
    else:
        A[0] = T.float32(1)
    S[()] += 1
    A[1] = T.call_extern("float32", "expf", A[2])
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto seq = only_func(p)->body.as<SeqStmt>();
  REQUIRE(seq);
  REQUIRE(seq->seq.size() == 3);
  auto vec = seq->seq[0].as<BufferStore>();
  REQUIRE(vec);
  auto ramp = vec->indices[0].as<Ramp>();
  REQUIRE(ramp);
  CHECK(ramp->dtype == DataType::Int32().with_lanes(4));
  CHECK(vec->value->dtype == DataType::Float32().with_lanes(4));
  auto inc = seq->seq[1].as<BufferStore>();
  REQUIRE(inc);
  CHECK(inc->indices.empty());
  auto add = inc->value.as<BinaryOp>();
  REQUIRE(add);
  CHECK(add->kind() == ObjectKind::kAdd);
  CHECK(add->a.is<BufferLoad>());
  auto call = seq->seq[2].as<BufferStore>()->value.as<tir::Call>();
  REQUIRE(call);
  CHECK(call->op == "tir.call_extern");
  CHECK(call->dtype == DataType::Float32());
  REQUIRE(call->args.size() == 2);
  CHECK(call->args[0].as<tir::StringImm>()->value == "expf");
}

TEST_CASE("functions get a global_symbol unless private, attributes are kept sorted") {
  Parsed p = parse(R"(@T.prim_func
def f():
    T.func_attr({"tir.noalias": True, "a": 1})
    T.evaluate(0)

@T.prim_func(private=True)
def g():
    T.evaluate(0)
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = prim_func(p, "f");
  REQUIRE(f->attrs.size() == 3);
  CHECK(f->attrs.entries()[0].first == "a");
  CHECK(f->attrs.get_string("global_symbol") == "f");
  CHECK_FALSE(prim_func(p, "g")->attrs.contains("global_symbol"));
}

TEST_CASE("legacy and current spellings parse to the same IR") {
  Parsed legacy = parse(R"(@T.prim_func
def f(A: T.Buffer[(4,), "float32"], n: T.int32):
    T.func_attr({"tir.noalias": True})
    C = T.alloc_buffer((4,))
    for i in range(4):
        with T.block("b"):
            vi = T.axis.S(4, i)
            T.block_attr({"x": 1})
            C[vi] = A[vi]
    x: T.int32 = n
    A[0] = T.Cast("float32", x)
)");
  Parsed current = parse(R"(@T.prim_func(s_tir=True)
def f(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    C = T.sblock_alloc_buffer((4,))
    for i in range(4):
        with T.sblock("b"):
            vi = T.axis.spatial(4, i)
            T.sblock_attr({"x": 1})
            C[vi] = A[vi]
    x: T.let[T.int32] = n
    A[0] = T.Cast("float32", x)
)");
  REQUIRE_FALSE(legacy.diags.has_errors());
  REQUIRE_FALSE(current.diags.has_errors());
  auto diff = structural_diff(legacy.result.module, current.result.module);
  INFO(diff.value_or(""));
  CHECK_FALSE(diff.has_value());
}
