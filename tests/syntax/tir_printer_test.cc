// The TIR printer: TVM v0.20's text for each construct (legacy profile), the current profile's
// spellings, and round trips of hand-written modules in the styles the text format accepts.
#include "tir_test_util.h"

using namespace relax;
using namespace relax::tirtest;

TEST_CASE("seed-style custom add prints with detected regions and an implicit root block") {
  std::string text = R"(from tvm.script import tir as T

@T.prim_func
def my_custom_add(A: T.Buffer[(1024,), "float32"], B: T.Buffer[(1024,), "float32"], C: T.Buffer[(1024,), "float32"]):
    T.func_attr({"global_symbol": "my_custom_add"})
    for i in T.grid(1024):
        with T.block("add"):
            vi = T.axis.spatial(1024, i)
            C[vi] = A[vi] + B[vi] + T.float32(1.0)
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def my_custom_add(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32"), C: T.Buffer((1024,), "float32")):
    # with T.block("root"):
    for i in range(1024):
        with T.block("add"):
            vi = T.axis.spatial(1024, i)
            T.reads(A[vi], B[vi])
            T.writes(C[vi])
            C[vi] = A[vi] + B[vi] + T.float32(1.0))");
}

TEST_CASE("seed-style reductions print in canonical form") {
  std::string text = R"(@T.prim_func
def main(A: T.Buffer[(128, 128), "float32"], B: T.Buffer[(128,), "float32"]):
    for i, k in T.grid(128, 128):
        with T.block("sum"):
            vi = T.axis.S(128, i)
            vk = T.axis.R(128, k)
            with T.init():
                B[vi] = 0.0
            B[vi] += A[vi, vk]
    for i in range(128):
        with T.block("inner"):
            vi = T.axis.spatial(128, i)
            for j in range(16):
                B[vi] = B[vi] + A[vi, j * 8]
    for i in range(8):
        with T.block("vec"):
            vi = T.axis.spatial(8, i)
            B[vi * 16:vi * 16 + 16] = A[vi, 0:16]
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32")):
    # with T.block("root"):
    for i, k in T.grid(128, 128):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(B[vi])
            with T.init():
                B[vi] = T.float32(0.0)
            B[vi] = B[vi] + A[vi, vk]
    for i in range(128):
        with T.block("inner"):
            vi = T.axis.spatial(128, i)
            T.reads(B[vi], A[vi, 0:121])
            T.writes(B[vi])
            for j in range(16):
                B[vi] = B[vi] + A[vi, j * 8]
    for i in range(8):
        with T.block("vec"):
            vi = T.axis.spatial(8, i)
            T.reads(A[vi, 0:16])
            T.writes(B[vi * 16:vi * 16 + 16])
            B[vi * 16:vi * 16 + 16] = A[vi, 0:16])");
}

TEST_CASE("symbolic buffers print as handles with match_buffer and declared vars") {
  std::string text = R"(@T.prim_func
def main(a: T.handle, c: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(4)), "float16")
    C = T.match_buffer(c, (n * 2,), "float16", strides=(1,), offset_factor=16)
    D = T.alloc_buffer((n,), "float16", scope="shared")
    for i in range(n):
        with T.block("copy"):
            vi = T.axis.spatial(n, i)
            T.reads(A[vi, 0:4])
            T.writes(D[vi])
            T.block_attr({"meta_schedule.x": 1, "a": T.bool(True)})
            D[vi] = A[vi, 0] + A[vi, 3]
    for i in range(n * 2):
        with T.block(""):
            vi = T.axis.spatial(n * 2, i)
            T.where(i < n)
            C[vi] = T.Cast("float16", T.Select(vi < n, D[vi // 2], T.float16(0)))
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def main(a: T.handle, c: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(4)), "float16")
    C = T.match_buffer(c, (n * T.int64(2),), "float16", strides=(1,), offset_factor=16)
    # with T.block("root"):
    D = T.alloc_buffer((n,), "float16", scope="shared")
    for i in range(n):
        with T.block("copy"):
            vi = T.axis.spatial(n, i)
            T.reads(A[vi, 0:4])
            T.writes(D[vi])
            T.block_attr({"a": T.bool(True), "meta_schedule.x": 1})
            D[vi] = A[vi, 0] + A[vi, 3]
    for i in range(n * T.int64(2)):
        with T.block(""):
            vi = T.axis.spatial(n * T.int64(2), i)
            T.where(i < n)
            T.reads(D[vi // T.int64(2)])
            T.writes(C[vi])
            C[vi] = T.Cast("float16", T.Select(vi < n, D[vi // T.int64(2)], T.float16(0.0))))");
}

TEST_CASE("several symbolic vars of one buffer are declared together") {
  std::string printed = roundtrip(R"(@T.prim_func
def f(a: T.handle, b: T.handle):
    m = T.int32()
    n = T.int32()
    A = T.match_buffer(a, (m, n))
    B = T.match_buffer(b, (m * n,))
    for i, j in T.grid(m, n):
        B[i * n + j] = A[i, j]
)");
  CHECK(printed == R"(# from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, b: T.handle):
    m, n = T.int32(), T.int32()
    A = T.match_buffer(a, (m, n))
    B = T.match_buffer(b, (m * n,))
    for i, j in T.grid(m, n):
        B[i * n + j] = A[i, j])");
}

TEST_CASE("loops, lets, asserts, threads and allocations print as TVM does") {
  std::string text = R"(@T.prim_func(private=True)
def f(x: T.int32, p: T.handle("float32", "shared")) -> T.int32:
    buf = T.allocate([16], "float32", "local")
    B = T.decl_buffer((16,), data=buf)
    with T.LetStmt(x + 1) as y:
        B[y] = T.float32(1)
    bx = T.launch_thread("blockIdx.x", 4)
    tx = T.env_thread("threadIdx.x")
    with T.launch_thread(tx, 8):
        B[tx] = T.float32(2)
    with T.launch_thread(tx, 8):
        B[tx + bx] = T.float32(3)
    T.attr(B, "pragma", 1)
    S = T.decl_buffer((4,), "int8")
    S[0] = T.int8(1)
    return x * 2
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func(private=True)
def main(x: T.int32, p: T.handle("float32", "shared")) -> T.int32:
    B = T.decl_buffer((16,), scope="local")
    with T.LetStmt(x + 1) as y:
        B[y] = T.float32(1.0)
    bx = T.launch_thread("blockIdx.x", 4)
    tx = T.env_thread("threadIdx.x")
    with T.launch_thread(tx, 8):
        B[tx] = T.float32(2.0)
    with T.launch_thread(tx, 8):
        B[tx + bx] = T.float32(3.0)
    T.attr(B, "pragma", 1)
    S = T.decl_buffer((4,), "int8")
    S[0] = T.int8(1)
    return x * 2)");
}

TEST_CASE("loop kinds, grid folding and let bindings") {
  std::string text = R"(@T.prim_func
def f(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n, 16), "float32")
    B = T.match_buffer(b, (n, 16))
    for i in T.parallel(4):
        for j in T.vectorized(4):
            x: T.int32 = i * 4 + j
            if x > 3:
                B[0, x] = T.float32(0)
            else:
                B[1, x] = T.float32(1)
    for k in T.serial(2, 10, annotations={"pragma_unroll": 1}):
        B[0, k] += T.exp(A[0, k])
    for t in T.thread_binding(32, thread="threadIdx.x"):
        B[0, t] = T.max(A[0, t], T.float32(0))
    for i in range(8):
        for j in range(i):
            B[i, j] = T.float32(0)
    for i in T.unroll(2):
        for j in range(1, n):
            B[i, j] = T.float32(1)
    while n > 0:
        T.evaluate(0)
    assert n > 0, "n must be positive"
    y = n + 1
    T.evaluate(T.call_extern("float32", "expf", A[0, y]))
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n, 16))
    B = T.match_buffer(b, (n, 16))
    for i in T.parallel(4):
        for j in T.vectorized(4):
            x: T.int32 = i * 4 + j
            if x > 3:
                B[0, x] = T.float32(0.0)
            else:
                B[1, x] = T.float32(1.0)
    for k in T.serial(2, 10, annotations={"pragma_unroll": 1}):
        B[0, k] = B[0, k] + T.exp(A[0, k])
    for t in T.thread_binding(32, thread="threadIdx.x"):
        B[0, t] = T.max(A[0, t], T.float32(0.0))
    for i in range(8):
        for j in range(i):
            B[i, j] = T.float32(0.0)
    for i in T.unroll(2):
        for j in range(1, 1 + (n - 1)):
            B[i, j] = T.float32(1.0)
    while n > 0:
        T.evaluate(0)
    assert n > 0, "n must be positive"
    y: T.int32 = n + 1
    T.call_extern("float32", "expf", A[0, y]))");
}

TEST_CASE("expressions print with TVM's typed immediates and explicit constructors") {
  std::string text = R"(@T.prim_func
def f(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "int32"), n: T.int32):
    B[0] = 1 + 2
    B[1] = T.Add(1, 2)
    B[2] = n + 0 if False else T.Add(n, 0)
    B[3] = T.truncmod(n, 3) + T.truncdiv(n, 3) + n // 3 + n % 3
    B[4] = T.if_then_else(n > 0, 1, 2)
    B[5] = T.shift_left(n, 1) | T.bitwise_and(n, 3)
    B[6] = T.Cast("int32", A[0, 0] / A[1, 1])
    B[n:n + 2] = T.Broadcast(n, 2)
    A[0, 0:4] = A[1, 0:8:2]
    A[0, 0] = T.reinterpret("float32", B[0])
    B[7] = T.call_extern("int32", "f", A.data)
    T.evaluate(T.call_packed("g", n))
    B[0] = T.min(T.max(n, 0), 7) - (n - 1) * -1
    B[1] = T.Select(not n > 0 and n < 3 or n == 5, n, -n)
    x = T.int32()
    B[2] = T.Let(x + 1, where={x: n})
    A[1, 1] = T.float32("inf") + T.float16(0.5) + T.float32(1e-05)
    B[3] = T.int64(3) + T.uint8(1) + T.int8(-1)
    A[1, 2] = A[0, 0] + T.float16(0.5) + T.float32(1e-05)
    B[4] = n + T.int64(3)
    B[5] = T.Cast("int8", n) + T.uint8(1)
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "int32"), n: T.int32):
    B[0] = 3
    B[1] = T.Add(1, 2)
    B[2] = T.Add(n, 0)
    B[3] = T.truncmod(n, 3) + T.Div(n, 3) + n // 3 + n % 3
    B[4] = T.if_then_else(n > 0, 1, 2)
    B[5] = T.bitwise_or(T.shift_left(n, 1), T.bitwise_and(n, 3))
    B[6] = T.Cast("int32", A[0, 0] / A[1, 1])
    B[n:n + 2] = T.Broadcast(n, 2)
    A[0, 0:4] = A[1, 0:8:2]
    A[0, 0] = T.reinterpret("float32", B[0])
    B[7] = T.call_extern("int32", "f", A.data)
    T.call_packed("g", n)
    B[0] = T.min(T.max(n, 0), 7) - (n - 1) * -1
    B[1] = T.Select(not n > 0 and n < 3 or n == 5, n, n * -1)
    x = T.int32()
    B[2] = T.Let(x + 1, where={x: n})
    A[1, 1] = T.float32("inf")
    B[3] = 3
    A[1, 2] = A[0, 0] + T.float32(0.5) + T.float32(1.0000000000000001e-05)
    B[4] = T.Cast("int32", T.Cast("int64", n) + T.int64(3))
    B[5] = T.Cast("int32", T.Cast("uint8", T.Cast("int8", n)) + T.uint8(1)))");
}

TEST_CASE("reducers, vector loads and stores, access pointers") {
  std::string text = R"(@T.prim_func
def f(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    red = T.allocate([1], "float32", "local")
    T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0)))
    with T.Assert(A[0] > 0.0, "positive"):
        B[0] = A[0]
    for i in range(4):
        A[T.Ramp(i * 4, 1, 4)] = B.vload([T.Ramp(i * 4, 1, 4)], predicate=T.Broadcast(T.bool(True), 4))
        B.vstore([i], A[i], predicate=T.bool(True))
    T.evaluate(T.Shuffle([A[0:4], B[0:4]], [0, 4, 1, 5]))
    T.evaluate(T.tvm_access_ptr(T.type_annotation("float32"), A.data, 0, 128, 1))
    while A[0] < 1.0:
        A[0] = A[0] + 1.0
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    red = T.allocate([1], "float32", "local")
    T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0.0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0)))
    with T.Assert(A[0] > T.float32(0.0), "positive"):
        B[0] = A[0]
    for i in range(4):
        A[i * 4:i * 4 + 4] = B.vload([T.Ramp(i * 4, 1, 4)], predicate=T.Broadcast(T.bool(True), 4))
        B.vstore([i], A[i], predicate=T.bool(True))
    T.evaluate(T.Shuffle([A[0:4], B[0:4]], [0, 4, 1, 5]))
    T.tvm_access_ptr(T.type_annotation("float32"), A.data, 0, 128, 1)
    while A[0] < T.float32(1.0):
        A[0] = A[0] + T.float32(1.0))");
}

TEST_CASE("block signatures: remap merging, domains, predicates, init, match_buffer, no_realize") {
  std::string text = R"(@T.prim_func
def f(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16,), "float32")):
    T.func_attr({"global_symbol": "f", "tir.noalias": True})
    cache = T.alloc_buffer((16,))
    for i, j in T.grid(16, 16):
        with T.block("a"):
            vi = T.axis.spatial(16, i)
            vj = T.axis.spatial((0, 16), j)
            vk = T.axis.reduce(8, j // 2)
            T.where(j < 8)
            T.reads(A[vi, vj])
            T.writes(cache[vi])
            with T.init():
                cache[vi] = T.float32(0)
            cache[vi] = cache[vi] + A[vi, vj]
    for i in range(4):
        with T.block("b"):
            vi, = T.axis.remap("S", [i])
            vo = T.axis.opaque(16, i * 4)
            vs = T.axis.scan((2, 6), i + 2)
            sub = T.match_buffer(cache[vi * 4:vi * 4 + 4], (4,))
            for k in range(4):
                C[vi * 4 + k] = sub[k]
    with T.block("c", no_realize=True):
        T.reads([])
        T.writes([])
        T.evaluate(0)
)";
  CHECK(roundtrip(text) == R"(# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16,), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.block("root"):
    cache = T.alloc_buffer((16,))
    for i, j in T.grid(16, 16):
        with T.block("a"):
            vi, vj = T.axis.remap("SS", [i, j])
            vk = T.axis.reduce(8, j // 2)
            T.where(j < 8)
            T.reads(A[vi, vj])
            T.writes(cache[vi])
            with T.init():
                cache[vi] = T.float32(0.0)
            cache[vi] = cache[vi] + A[vi, vj]
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            vo = T.axis.opaque(16, i * 4)
            vs = T.axis.scan((2, 6), i + 2)
            T.reads(cache[vi * 4:vi * 4 + 4])
            T.writes(C[vi * 4:vi * 4 + 4])
            sub = T.match_buffer(cache[vi * 4:vi * 4 + 4], (4,))
            for k in range(4):
                C[vi * 4 + k] = sub[k]
    with T.block("c", no_realize=True):
        T.reads()
        T.writes()
        T.evaluate(0))");
}

TEST_CASE("names are unique per live frame") {
  std::string printed = roundtrip(R"(@T.prim_func
def f(T_transpose: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("T_transpose"):
            v = T.axis.spatial(4, i)
            T.reads()
            T.writes(T_transpose[v])
            T_transpose[v] = T.float32(0)
    for i in range(4):
        i_1: T.int32 = i
        for i_2 in range(2):
            T_transpose[i_1 + i_2] = T.float32(1)
)");
  CHECK(printed == R"(# from tvm.script import tir as T

@T.prim_func
def f(T_transpose: T.Buffer((4,), "float32")):
    # with T.block("root"):
    for i in range(4):
        with T.block("T_transpose"):
            v = T.axis.spatial(4, i)
            T.reads()
            T.writes(T_transpose[v])
            T_transpose[v] = T.float32(0.0)
    for i in range(4):
        i_1: T.int32 = i
        for i_2 in range(2):
            T_transpose[i_1 + i_2] = T.float32(1.0))");
}

TEST_CASE("the current profile spells blocks, attributes and lets the 2026 way") {
  std::string text = R"(@T.prim_func
def f(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tir.noalias": True})
    cache = T.alloc_buffer((4,))
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            T.block_attr({"k": 1})
            tmp = T.alloc_buffer((1,))
            tmp[0] = A[vi]
            cache[vi] = tmp[0]
    x: T.int32 = n + 1
    assert x > 0, "x"
    A[0] = T.Cast("float32", x)
)";
  std::string current = roundtrip(text, syntax::Profile::kCurrent);
  CHECK(current == R"(# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@T.prim_func(s_tir=True)
def f(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    # with T.sblock("root"):
    cache = T.sblock_alloc_buffer((4,))
    for i in range(4):
        with T.sblock("b"):
            vi = T.axis.spatial(4, i)
            T.reads(A[vi])
            T.writes(cache[vi])
            T.sblock_attr({"k": 1})
            tmp = T.sblock_alloc_buffer((1,))
            tmp[0] = A[vi]
            cache[vi] = tmp[0]
    x: T.let[T.int32] = n + 1
    assert x > 0, ("RuntimeError", ["x"])
    A[0] = T.Cast("float32", x))");
  // Both profiles denote the same IR.
  Parsed legacy = parse(text);
  Parsed from_current = parse(current);
  CHECK_FALSE(ir::structural_diff(legacy.result.module, from_current.result.module).has_value());
}

TEST_CASE("global_symbol is shown only when it differs from the name, modules print members") {
  std::string printed = roundtrip(R"(from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def renamed(A: T.Buffer((2,), "float32")):
        T.func_attr({"global_symbol": "other"})
        A[0] = Module.helper(A[1])

    @T.prim_func(private=True)
    def helper(x: T.float32) -> T.float32:
        return x * x
)");
  CHECK(printed == R"(# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def helper(x: T.float32) -> T.float32:
        return x * x

    @T.prim_func
    def renamed(A: T.Buffer((2,), "float32")):
        T.func_attr({"global_symbol": "other"})
        A[0] = Module.helper(A[1]))");
}

TEST_CASE("detected regions: symbolic extents and branch conditions") {
  std::string printed = roundtrip(R"(@T.prim_func
def f(a: T.handle, B: T.Buffer((16,), "float32")):
    n = T.int32()
    A = T.match_buffer(a, (16, n))
    for i in range(16):
        with T.block("b"):
            vi = T.axis.spatial(16, i)
            for k in range(n):
                B[vi] = B[vi] + A[vi, k]
    for i in range(16):
        with T.block("c"):
            vi = T.axis.spatial(16, i)
            for k in range(16):
                if k < 8:
                    B[vi] = B[vi] + A[k, 0]
                else:
                    B[vi] = B[vi] + A[k, 1]
)");
  CHECK(printed.find("T.reads(B[vi], A[vi, 0:n])") != std::string::npos);
  CHECK(printed.find("T.reads(B[vi], A[0:16, 0:2])") != std::string::npos);
}

TEST_CASE("let annotations of the current spelling parse like the legacy ones") {
  std::string printed = roundtrip(R"(@T.prim_func
def f(n: T.int32):
    x: T.let = n + 1
    y: T.let[T.int64] = T.int64(2)
    T.evaluate(x + 1)
)");
  CHECK(printed == R"(# from tvm.script import tir as T

@T.prim_func
def f(n: T.int32):
    x: T.int32 = n + 1
    y: T.int64 = T.int64(2)
    T.evaluate(x + 1))");
}

TEST_CASE("unusual constructs round-trip: strides, offsets, free buffers, attrs, reserved names") {
  roundtrip(R"(@T.prim_func
def f(a: T.handle, b: T.handle):
    m = T.int32()
    s0 = T.int32()
    A = T.match_buffer(a, (m, 8), strides=(s0, 1))
    B = T.match_buffer(b, (m, 8), elem_offset=4)
    for bx in T.thread_binding(4, thread="blockIdx.x"):
        for tx in T.thread_binding(8, thread="threadIdx.x"):
            with T.block("outer"):
                vb, vt = T.axis.remap("SS", [bx, tx])
                T.reads(A[vb * 2:vb * 2 + 2, vt])
                T.writes(B[vb * 2:vb * 2 + 2, vt])
                for k in range(2):
                    with T.block("inner"):
                        vk = T.axis.spatial(8, vb * 2 + k)
                        t: T.float32 = A[vk, vt]
                        B[vk, vt] = t * t
    C = T.Buffer((4,), "int32", scope="local")
    buf = T.allocate([4], "int32", "local", T.bool(True), annotations={"x": 1})
    T.attr("default", "pragma_import_c", "abc")
    for i in T.serial(1, 5, annotations={"pragma_unroll_explicit": 0}):
        C[i - 1] = i
    for R in range(2):
        C[R] = T.int32(0)
    D = T.alloc_buffer((2,), "bool")
    A[0, 0] = T.float32("-inf")
    A[0, 1] = T.float32("nan")
)");
  roundtrip(R"(@T.prim_func
def f(A: T.Buffer((8,), "float32"), n: T.int32):
    k = T.int32()
    A[0] = T.reduce(T.comm_reducer(lambda x, y: x + y, [T.float32(0)]), [A[k]], axis=[T.iter_var(k, T.Range(0, 4), "CommReduce", "")], value_index=0)
    if n > 2:
        x = n * 2
        A[x] = T.float32(1)
    elif n > 1:
        A[1] = T.float32(2)
    if n == 0:
        A[2] = T.float32(3)
    with T.block("root"):
        T.reads()
        T.writes()
        tmp = T.alloc_buffer((1,))
        tmp[0] = A[0]
)");
}
