// Check-time bounds of TIR accesses (analysis/tir_bounds.cc, E0423 / E0424): the reproducers of
// heap corruption that `relax check` used to accept, each with its code, position and message,
// and in-bounds or undecidable accesses that must stay silent.
#include <catch2/catch.hpp>

#include "tests/analysis/inference_test_util.h"

using namespace relax;
using namespace relax::infer_test;

namespace {

Inferred checked(const std::string& text) {
  return infer(text, false, true);
}

}  // namespace

TEST_CASE("tir bounds: a constant loop extent past a constant shape (E0423)") {
  auto r = checked(R"(
@T.prim_func
def fill(A: T.Buffer((16,), "float32")):
    for i in range(16777216):
        with T.block("fill"):
            vi = T.axis.spatial(16777216, i)
            A[vi] = T.float32(1.0)
)");
  CHECK(r.codes() == std::vector<std::string>{"E0423@7:15"});
  CHECK(r.messages() ==
        "E0423: prim_func `fill`: the index `vi` of dimension 0 of buffer `A` (shape [16]) "
        "reaches 16777215 at i = 16777215, past the end of the dimension (extent 16)\n");
}

TEST_CASE("tir bounds: a constant offset past the shape, in a load (E0423)") {
  auto r = checked(R"(
@T.prim_func
def copy(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("copy"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi + 4294967296]
)");
  CHECK(r.codes() == std::vector<std::string>{"E0423@7:23"});
  CHECK_THAT(r.messages(), Catch::Contains("reaches 4294967296 at i = 0") &&
                               Catch::Contains("buffer `A` (shape [16])"));
}

TEST_CASE("tir bounds: a negative index and a loop without blocks (E0423)") {
  auto r = checked(R"(
@T.prim_func
def f(A: T.Buffer((4, 8), "float32")):
    for i, j in T.grid(4, 8):
        A[i, j - 1] = T.float32(0)
)");
  CHECK(r.codes() == std::vector<std::string>{"E0423@5:14"});
  CHECK_THAT(r.messages(), Catch::Contains("the index `j - 1` of dimension 1") &&
                               Catch::Contains("reaches -1") && Catch::Contains("j = 0") &&
                               Catch::Contains("below 0"));
}

TEST_CASE("tir bounds: a negative block domain and a binding outside its domain (E0424)") {
  auto negative = checked(R"(
@T.prim_func
def copy(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("copy"):
            vi = T.axis.spatial(-1, i)
            B[vi] = A[vi]
)");
  CHECK(negative.codes() == std::vector<std::string>{"E0424@6:33"});
  CHECK_THAT(negative.messages(),
             Catch::Contains("block `copy`: the iteration variable `vi` has a negative domain "
                             "extent (-1)"));
  auto outside = checked(R"(
@T.prim_func
def copy(A: T.Buffer((16,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        with T.block("copy"):
            vi = T.axis.spatial(16, i)
            B[vi] = T.float32(0)
)");
  CHECK(outside.codes() == std::vector<std::string>{"E0424@6:37"});
  CHECK_THAT(outside.messages(),
             Catch::Contains("binds its iteration variable `vi` to `i`, which reaches 31 at i = "
                             "31, outside its domain [0, 16)"));
}

TEST_CASE("tir bounds: symbolic shapes") {
  // i + 1 reaches n at i = n - 1 whenever the loop runs.
  auto past = checked(R"(
@T.prim_func
def f(a: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n,))
    for i in range(n):
        A[i + 1] = T.float32(0)
)");
  CHECK(past.codes() == std::vector<std::string>{"E0423@7:11"});
  CHECK_THAT(past.messages(), Catch::Contains("reaches n at i = n - 1"));
  // In bounds: nothing.
  auto ok = checked(R"(
@T.prim_func
def f(a: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 4))
    for i, j in T.grid(n, 4):
        A[i, 3 - j] = T.float32(0)
)");
  CHECK(ok.codes().empty());
  // Unknown (depends on m, which may be anything): nothing.
  auto unknown = checked(R"(
@T.prim_func
def f(a: T.handle, m: T.int64):
    n = T.int64()
    A = T.match_buffer(a, (n,))
    for i in range(m):
        A[i] = T.float32(0)
)");
  CHECK(unknown.codes().empty());
}

TEST_CASE("tir bounds: conditions and predicates guard accesses") {
  // Padding: the load only happens where the index is in bounds.
  auto guarded = checked(R"(
@T.prim_func
def pad(A: T.Buffer((16,), "float32"), B: T.Buffer((18,), "float32")):
    for i in range(18):
        with T.block("pad"):
            vi = T.axis.spatial(18, i)
            B[vi] = T.if_then_else(1 <= vi and vi < 17, A[vi - 1], T.float32(0))
)");
  CHECK(guarded.codes().empty());
  auto if_stmt = checked(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32")):
    for i in range(32):
        if i < 16:
            A[i] = T.float32(0)
)");
  CHECK(if_stmt.codes().empty());
  // An inexact split: the predicate keeps the binding inside its domain.
  auto split = checked(R"(
@T.prim_func
def f(A: T.Buffer((10,), "float32")):
    for io, ii in T.grid(3, 4):
        with T.block("b"):
            vi = T.axis.spatial(10, io * 4 + ii)
            T.where(io * 4 + ii < 10)
            A[vi] = T.float32(0)
)");
  CHECK(split.codes().empty());
  // A loop that never runs accesses nothing.
  auto empty = checked(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32")):
    for i in range(0):
        A[i + 100] = T.float32(0)
)");
  CHECK(empty.codes().empty());
  // The else branch of a condition that holds at the witness does not run there.
  auto branch = checked(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32")):
    for i in range(32):
        if i < 16:
            A[i] = T.float32(0)
        else:
            A[i - 16] = T.float32(1)
)");
  CHECK(branch.codes().empty());
}

TEST_CASE("tir bounds: reductions, lets and data-dependent indices") {
  auto matmul = checked(R"(
@T.prim_func
def mm(A: T.Buffer((4, 8), "float32"), B: T.Buffer((8, 4), "float32"), C: T.Buffer((4, 4), "float32")):
    for i, j, k in T.grid(4, 4, 8):
        with T.block("mm"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)");
  CHECK(matmul.codes().empty());
  auto let = checked(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32")):
    for i in range(8):
        j = T.int32(i * 2 + 2)
        A[j] = T.float32(0)
)");
  CHECK(let.codes() == std::vector<std::string>{"E0423@6:11"});
  CHECK_THAT(let.messages(), Catch::Contains("reaches 16 at i = 7"));
  auto gather = checked(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32"), I: T.Buffer((4,), "int32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        B[i] = A[I[i]]
)");
  CHECK(gather.codes().empty());
}

TEST_CASE("tir bounds: a predicated vector access is not checked lane by lane") {
  // A vectorized split's last chunk: 16 lanes from 32 reach 47 in a buffer of 34, and the mask
  // keeps the store to the lanes below 34 (TIR lowering emits this for simple_cnn's padding).
  auto r = checked(R"(
@T.prim_func
def f(A: T.Buffer((34,), "float32")):
    for c in range(3):
        A.vstore([T.Ramp(c * 16, 1, 16)], T.Broadcast(T.float32(0), 16), predicate=T.Ramp(c * 16, 1, 16) < T.Broadcast(34, 16))
)");
  CHECK(r.codes().empty());
  // The same store without its mask writes past the end.
  auto bad = checked(R"(
@T.prim_func
def f(A: T.Buffer((34,), "float32")):
    for c in range(3):
        A.vstore([T.Ramp(c * 16, 1, 16)], T.Broadcast(T.float32(0), 16))
)");
  REQUIRE(bad.codes().size() == 1);
  CHECK(bad.codes()[0].starts_with("E0423@"));
}
