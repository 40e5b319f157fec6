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
