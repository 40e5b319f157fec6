// TVMScript forms that TVM v0.20 accepts in prim_funcs and how they print: `dtype=` on
// intrinsics, loop variables bound as one tuple, star-unpacked shapes, T.meta_var, T.Var,
// int64 slices, size variables, and variables used first in a loop header.
#include "tir_test_util.h"

using namespace relax;
using namespace relax::tirtest;

TEST_CASE("a variable first used in a loop's extent is defined before the loop") {
  // `n` of the signature and the body's `n = T.int32()` are two variables; the second one is
  // used only by the loop, and TVM v0.20 defines it inside the loop, after its use.
  std::string text = R"(# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer(("n",), "float32")):
    n = T.int32()
    for i in range(n):
        A[i] = T.float32(1)
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(A_handle: T.handle):
    n = T.int32()
    A = T.match_buffer(A_handle, (n,))
    n_1 = T.int32()
    for i in range(n_1):
        A[i] = T.float32(1.0))");
  // The same in a T.grid nest and a loop with a start.
  std::string grid = R"(@T.prim_func
def g(A: T.Buffer((8, 8), "float32")):
    m = T.int32()
    k = T.int32()
    for i, j in T.grid(m, 8):
        for l in range(k, 8):
            A[i, j] = A[i, l]
)";
  CHECK(roundtrip(grid) == R"(# from tvm.script import tir as T

@T.prim_func
def g(A: T.Buffer((8, 8), "float32")):
    m = T.int32()
    for i, j in T.grid(m, 8):
        k = T.int32()
        for l in range(k, k + (8 - k)):
            A[i, j] = A[i, l])");
}

TEST_CASE("size variables keep their flag in the current profile") {
  // TypeVars declare plain int64 variables, so a size variable keeps its declaration.
  std::string text = R"(from tvm.script import relax as R
from tvm.script import tir as T

@R.function
def main(x: R.Tensor(("A", "n"), dtype="float32")) -> R.Tensor(("A", "n"), dtype="float32"):
    A = T.int64(is_size_var=True)
    n = T.int64()
    return x
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def main(x: R.Tensor(("A", "n"), dtype="float32")) -> R.Tensor(("A", "n"), dtype="float32"):
    A = T.int64(is_size_var=True)
    n = T.int64()
    return x)");
  CHECK(roundtrip(text, syntax::Profile::kCurrent) == R"(# from typing import TypeVar
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

n = TypeVar("n")
@R.function
def main(x: R.Tensor(("A", n), dtype="float32")) -> R.Tensor(("A", n), dtype="float32"):
    A = T.int64(is_size_var=True)
    return x)");
}

TEST_CASE("intrinsics take dtype= as TVMScript's wrappers do") {
  // Math and arithmetic wrappers drop the keyword; dtype-first intrinsics take it as their
  // first argument, tvm_struct_get as its last.
  std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "int32")):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            B[vi] = T.exp(A[vi], dtype="float32") + T.log(A[vi], dtype="float32") + T.rsqrt(A[vi], dtype="float32") + T.round(A[vi], dtype="float32")
            C[vi] = T.if_then_else(vi > 2, 1, 0, dtype="int32") + T.reinterpret(A[vi], dtype="int32") + T.floordiv(C[vi], 2, dtype="int32")
    for i in range(4):
        C[i] = T.call_extern("f", A[i], dtype="int32") + T.tvm_struct_get(A.data, 0, 1, dtype="int32")
        A[i] = T.call_intrin("tir.exp", A[i], dtype="float32")
)";
  Parsed p = parse(text);
  CHECK(p.diags.empty());
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "int32")):
    # with T.block("root"):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            T.reads(A[vi], C[vi])
            T.writes(B[vi], C[vi])
            B[vi] = T.exp(A[vi]) + T.log(A[vi]) + T.rsqrt(A[vi]) + T.round(A[vi])
            C[vi] = T.if_then_else(vi > 2, 1, 0) + T.reinterpret("int32", A[vi]) + C[vi] // 2
    for i in range(4):
        C[i] = T.call_extern("int32", "f", A[i]) + T.tvm_struct_get(A.data, 0, 1, "int32")
        A[i] = T.exp(A[i]))");
}

TEST_CASE("a dropped dtype= that is not the result's type is a warning") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.exp(A[i], dtype="float16")
)");
  CHECK_FALSE(p.diags.has_errors());
  const ir::Diagnostic* w = find_code(p.diags, "W0602");
  REQUIRE(w);
  CHECK(w->severity == ir::Severity::kWarning);
  CHECK(line_col(*w) == std::pair<uint32_t, uint32_t>{4, 28});
  CHECK(w->message.find("the result is float32") != std::string::npos);
  // Keywords other than dtype= are still refused, and so is dtype= where TVM takes none.
  Parsed bad = parse(R"(@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    A[0] = T.exp(A[0], scale=2)
    T.tvm_storage_sync("shared", dtype="int32")
    A[1] = T.call_intrin("float32", "tir.exp", A[1], fast=True)
)");
  CHECK(bad.diags.error_count() == 3);
  for (const auto& d : bad.diags.items()) CHECK(d.code == "E0214");
}

TEST_CASE("loop variables bound to one name and star-unpacked shapes") {
  std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, B: T.Buffer((4, 8), "float32")):
    n, m = T.int64(), T.int64()
    A = T.match_buffer(a, (n, m))
    for iters in T.grid(4, 8):
        with T.block("b"):
            vi, vj = T.axis.remap("SS", iters)
            B[vi, vj] = B[vi, vj] + T.float32(1)
    for i, j in T.grid(*A.shape):
        A[i, j] = T.float32(0)
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, B: T.Buffer((4, 8), "float32")):
    n, m = T.int64(), T.int64()
    A = T.match_buffer(a, (n, m))
    # with T.block("root"):
    for iters_0, iters_1 in T.grid(4, 8):
        with T.block("b"):
            vi, vj = T.axis.remap("SS", [iters_0, iters_1])
            T.reads(B[vi, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = B[vi, vj] + T.float32(1.0)
    for i, j in T.grid(n, m):
        A[i, j] = T.float32(0.0))");
  // The tuple indexes like a Python one.
  Parsed p = parse(R"(@T.prim_func
def g(B: T.Buffer((4, 8), "float32")):
    for ij in T.grid(4, 8):
        B[ij[0], ij[1]] = T.float32(0)
)");
  CHECK(p.diags.empty());
  CHECK(print(p).find("for ij_0, ij_1 in T.grid(4, 8):\n        B[ij_0, ij_1] = T.float32(0.0)") !=
        std::string::npos);
}

TEST_CASE("T.meta_var binds the value itself, T.Var names a variable") {
  std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, B: T.Buffer((4,), "float32")):
    k = T.Var("k", "int64")
    A = T.match_buffer(a, (k,))
    n = T.meta_var(4)
    lo, hi = T.meta_var([1, 3])
    for i in range(n):
        x = T.meta_var(B[i] + T.float32(1))
        B[i] = x * x
    for i in range(lo, hi):
        A[i] = B[i]
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, B: T.Buffer((4,), "float32")):
    k = T.int64()
    A = T.match_buffer(a, (k,))
    for i in range(4):
        B[i] = (B[i] + T.float32(1.0)) * (B[i] + T.float32(1.0))
    for i in range(1, 3):
        A[i] = B[i])");
  // An assignment names a T.Var it binds first (TVMScript renames it), and a size variable
  // keeps its flag.
  Parsed p = parse(R"(@T.prim_func
def g(a: T.handle):
    m = T.Var("n", "int32")
    s = T.SizeVar("s", "int32")
    A = T.match_buffer(a, (m, s))
    A[0, 0] = T.float32(0)
)");
  CHECK(p.diags.empty());
  CHECK(print(p).find("    m, s = T.int32(), T.int32(is_size_var=True)\n") != std::string::npos);
}

TEST_CASE("T.Var in a Relax function declares the signature's variable") {
  std::string text = R"(from tvm.script import relax as R
from tvm.script import tir as T

@R.function
def main(x: R.Tensor(("batch", "m"), dtype="float32"), w0: R.Tensor(("m", "n"), dtype="float32")) -> R.Tensor(("batch", "n"), dtype="float32"):
    batch = T.Var("batch", "int64")
    n = T.Var("n", "int64")
    lv0 = R.call_dps_packed("test0", (x, w0), out_sinfo=R.Tensor((batch, n), dtype="float32"))
    return lv0
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def main(x: R.Tensor(("batch", "m"), dtype="float32"), w0: R.Tensor(("m", "n"), dtype="float32")) -> R.Tensor(("batch", "n"), dtype="float32"):
    batch = T.int64()
    n = T.int64()
    m = T.int64()
    lv0 = R.call_dps_packed("test0", (x, w0), out_sinfo=R.Tensor((batch, n), dtype="float32"))
    return lv0)");
  Parsed bad = parse(R"(from tvm.script import relax as R
from tvm.script import tir as T

@R.function
def main(x: R.Tensor(("n",), dtype="float32")):
    m = T.Var("n", "int64")
    return x
)");
  const ir::Diagnostic* e = find_code(bad.diags, "E0514");
  REQUIRE(e);
  CHECK(line_col(*e) == std::pair<uint32_t, uint32_t>{6, 5});
}

TEST_CASE("int64 slices keep their types: regions as TVM builds them, int32 vector lanes") {
  // A region's extent has the common type of its bounds (TVM's Buffer.__getitem__); a vector
  // load or store keeps int32 lanes (TVM's Ramp), so TVM prints the store as `B[0:4]`.
  std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
    with T.block("root"):
        T.reads(A[0:T.int64(4)])
        T.writes(B[0:T.int64(4)])
        B[0:T.int64(4)] = A[0:T.int64(4)]
        B[T.int64(4):T.int64(8)] = A[T.int64(0):T.int64(4)]
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
    with T.block("root"):
        T.reads(A[0:T.int64(4)])
        T.writes(B[0:T.int64(4)])
        B[0:4] = A[0:4]
        B[T.int64(4):T.int64(8)] = A[T.int64(0):T.int64(4)])");
  Parsed p = parse(text);
  auto f = prim_func(p, "f");
  REQUIRE(f);
  auto root = f->body.as_ptr<ir::tir::BlockRealize>();
  REQUIRE(root);
  const auto& read = root->block->reads.at(0)->region.at(0);
  CHECK(read->min->dtype == ir::DataType::Int32());
  CHECK(read->extent->dtype == ir::DataType::Int64());
}
