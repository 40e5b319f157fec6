// The structural ops (analysis/ops/structural.cc, structural_memory.cc): the call_tir family
// checked against the prim_func's buffers, packed calls, closures, shape ops, print / assert,
// devices, allocation and views; errors with their codes and positions.
#include <catch2/catch.hpp>

#include "analysis/ops/op_registry.h"
#include "tests/analysis/inference_test_util.h"

using namespace relax;
using namespace relax::infer_test;
using Codes = std::vector<std::string>;

namespace {

// A module with prim_funcs the call_tir tests call.
std::string with_prim_funcs(const std::string& main) {
  return R"(
@I.ir_module
class Module:
    @T.prim_func
    def add(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 4))
        B = T.match_buffer(b, (n, 4))
        C = T.match_buffer(c, (n, 4))
        T.evaluate(0)

    @T.prim_func
    def flatten(a: T.handle, b: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(a, (m, n), "float16")
        B = T.match_buffer(b, (m * n,), "float16")
        T.evaluate(0)

    @T.prim_func
    def fill(a: T.handle, k: T.int64):
        A = T.match_buffer(a, (k,))
        T.evaluate(0)

    @T.prim_func
    def inplace(a: T.Buffer((8,), "float32"), b: T.Buffer((8,), "float32")):
        T.evaluate(0)
)" + main;
}

}  // namespace

TEST_CASE("structural ops: every op has a signature, a doc and purity") {
  const auto& registry = analysis::OpRegistry::global();
  for (const char* name : {"relax.call_tir",
                           "relax.call_tir_inplace",
                           "relax.call_tir_with_grad",
                           "relax.call_dps_packed",
                           "relax.call_pure_packed",
                           "relax.call_inplace_packed",
                           "relax.call_builtin_with_ctx",
                           "relax.make_closure",
                           "relax.invoke_closure",
                           "relax.invoke_pure_closure",
                           "relax.shape_of",
                           "relax.tensor_to_shape",
                           "relax.shape_to_tensor",
                           "relax.null_value",
                           "relax.print",
                           "relax.assert_op",
                           "relax.hint_on_device",
                           "relax.to_vdevice",
                           "relax.grad.start_checkpoint",
                           "relax.grad.end_checkpoint",
                           "relax.wrap_param",
                           "relax.builtin.alloc_tensor",
                           "relax.memory.alloc_storage",
                           "relax.memory.alloc_tensor",
                           "relax.memory.kill_storage",
                           "relax.memory.kill_tensor",
                           "relax.memory.view",
                           "relax.memory.ensure_zero_offset",
                           "relax.vm.alloc_storage",
                           "relax.vm.alloc_tensor",
                           "relax.vm.kill_object",
                           "relax.vm.call_tir_dyn",
                           "relax.builtin.stop_lift_params"}) {
    INFO(name);
    const analysis::OpInfo* op = registry.find(name);
    REQUIRE(op);
    CHECK_FALSE(op->doc.empty());
    CHECK(op->signature.rfind("R.", 0) == 0);
    CHECK(op->infer);
  }
  auto impure = [&](const char* name) { return !registry.find(name)->pure; };
  CHECK(impure("relax.print"));
  CHECK(impure("relax.assert_op"));
  CHECK(impure("relax.call_builtin_with_ctx"));
  CHECK(impure("relax.invoke_closure"));
  CHECK(impure("relax.memory.kill_tensor"));
  CHECK(impure("relax.vm.call_tir_dyn"));
  CHECK_FALSE(impure("relax.call_tir"));
  CHECK_FALSE(impure("relax.call_pure_packed"));
  CHECK_FALSE(impure("relax.invoke_pure_closure"));
  CHECK_FALSE(impure("relax.builtin.alloc_tensor"));
}

TEST_CASE("structural ops: call_tir takes its declared output, checked against the prim_func") {
  auto r = infer(with_prim_funcs(R"(
    @R.function
    def main(x: R.Tensor(("k", 4), "float32"), h: R.Tensor((8, 4), "float16")):
        cls = Module
        a = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor(("k", 4), "float32"))
        b = R.call_tir(cls.flatten, (h,), out_sinfo=R.Tensor((32,), "float16"))
        c = R.call_tir(cls.flatten, (h,), out_sinfo=R.Tensor((64,), "float16"))
        d = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor(("k", 4), "int32"))
        e = R.call_tir(cls.add, (x, h), out_sinfo=R.Tensor(("k", 4), "float32"))
        f = R.call_tir(cls.fill, (), out_sinfo=R.Tensor((7,), "float32"), tir_vars=R.shape([7]))
        # As in TVM, a prim_func's scalar parameters bind nothing: this is not caught.
        g = R.call_tir(cls.fill, (), out_sinfo=R.Tensor((6,), "float32"), tir_vars=R.shape([7]))
        w = (x, x)
        u = R.call_tir(cls.add, w, out_sinfo=R.Tensor(("k", 4), "float32"))
        return a
)"));
  CHECK(r.codes() == Codes{"E0372@34:53", "E0372@35:51", "E0372@36:33", "E0372@41:33"});
  CHECK(r.diags.items()[0].message ==
        "R.call_tir: out_sinfo R.Tensor((64,), dtype=\"float16\") does not match the prim_func's "
        "output buffers, "
        "which imply R.Tensor((32,), dtype=\"float16\")");
  CHECK(r.diags.items()[2].message ==
        "R.call_tir: argument 1 does not fit the prim_func's parameter: expected R.Tensor((n, 4), "
        "dtype=\"float32\"), got R.Tensor((8, 4), dtype=\"float16\")");
  // The result is the declared output, even where it does not fit (the error says so).
  CHECK(r.sinfo("a") == "R.Tensor((k, 4), dtype=\"float32\")");
  CHECK(r.sinfo("c") == "R.Tensor((64,), dtype=\"float16\")");
  CHECK(r.sinfo("f") == "R.Tensor((7,), dtype=\"float32\")");
  // A tuple variable written as the arguments is one argument (TVMScript wraps it as `(w,)`).
  CHECK(r.diags.items()[3].message.find("argument 0 does not fit the prim_func's parameter") !=
        std::string::npos);
}

TEST_CASE("structural ops: call_tir_inplace checks its in-place indices") {
  auto r = infer(with_prim_funcs(R"(
    @R.function
    def main(x: R.Tensor((8,), "float32"), y: R.Tensor((8,), "float32"), z: R.Tensor((4,), "float32")):
        cls = Module
        a = R.call_tir_inplace(cls.inplace, (x, y), inplace_indices=[0], out_sinfo=R.Tensor((8,), "float32"))
        b = R.call_tir_inplace(cls.inplace, (x, y), inplace_indices=[0, 1], out_sinfo=R.Tensor((8,), "float32"))
        c = R.call_tir_inplace(cls.inplace, (x, y), inplace_indices=[2], out_sinfo=R.Tensor((8,), "float32"))
        d = R.call_tir_inplace(cls.inplace, (x, y), inplace_indices=[-1], out_sinfo=R.Tensor((8,), "float32"))
        e = R.call_tir_inplace(cls.inplace, (z, y), inplace_indices=[0], out_sinfo=R.Tensor((8,), "float32"))
        return a
)"));
  CHECK(r.codes() == Codes{"E0373@33:13", "E0373@34:13", "E0373@35:13", "E0373@36:45"});
  CHECK(r.diags.items()[0].message ==
        "R.call_tir_inplace: inplace_indices has 2 entries for 1 output; give one per output (-1 "
        "for a fresh one)");
  CHECK(r.diags.items()[2].message ==
        "R.call_tir_inplace: every in-place index is -1; use R.call_tir instead");
  CHECK(r.sinfo("a") == "R.Tensor((8,), dtype=\"float32\")");
}

TEST_CASE("structural ops: packed calls, builtins and closures") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def lifted(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x

    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32")):
        cls = Module
        a = R.call_pure_packed("f", x, sinfo_args=R.Tensor((2,), "float32"))
        b = R.call_pure_packed("g", x)
        c = R.call_dps_packed("h", (x,), out_sinfo=[R.Tensor((2,), "float32"), R.Tensor((3,), "int32")])
        d = R.call_builtin_with_ctx("vm.builtin.x", (x,), sinfo_args=R.Shape(ndim=2))
        R.call_builtin_with_ctx("vm.builtin.y", (x,))
        e = R.call_inplace_packed("k", x, x, inplace_indices=[0], sinfo_args=R.Tensor((2,), "float32"))
        f = R.call_inplace_packed("k", x, inplace_indices=[0], sinfo_args=R.Tensor((3,), "float32"))
        g = R.call_pure_packed(cls.lifted, x, sinfo_args=R.Tensor((2,), "float32"))
        clo = R.make_closure(cls.lifted, (x,))
        h = R.invoke_closure(clo, (x,), sinfo_args=R.Tensor((2,), "float32"))
        i = R.invoke_pure_closure(clo, (x,), sinfo_args=[R.Tensor((2,), "float32"), R.Object])
        j = R.invoke_closure(clo, (x,))
        n = R.null_value()
        return a
)");
  CHECK(r.codes() == Codes{"E0373@17:40", "E0371@18:36"});
  CHECK(r.sinfo("a") == "R.Tensor((2,), dtype=\"float32\")");
  CHECK(r.sinfo("b") == "R.Object");
  CHECK(r.sinfo("c") ==
        "R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Tensor((3,), dtype=\"int32\"))");
  CHECK(r.sinfo("d") == "R.Shape(ndim=2)");
  CHECK(r.sinfo("e") == "R.Tensor((2,), dtype=\"float32\")");
  CHECK(r.sinfo("clo") == "R.Object");
  CHECK(r.sinfo("h") == "R.Tensor((2,), dtype=\"float32\")");
  CHECK(r.sinfo("i") == "R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Object)");
  CHECK(r.sinfo("j") == "R.Object");
  CHECK(r.sinfo("n") == "R.Object");
}

TEST_CASE("structural ops: shape inspection") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(dtype="float32", ndim=3), z: R.Tensor, t: R.Tensor((3,), "int64"), t2: R.Tensor((3, 1), "int64"), s: R.Shape(["n", 4])):
    a = R.shape_of(x)
    b = R.shape_of(y)
    c = R.shape_of(z)
    d = R.tensor_to_shape(t)
    e = R.tensor_to_shape(t2)
    g = R.shape_to_tensor(s)
    h = R.shape_of(s)
    return a
)");
  CHECK(r.codes() == Codes{"E0377@8:27", "E0306@10:20"});
  CHECK(r.sinfo("a") == "R.Shape([n, 4])");
  CHECK(r.sinfo("b") == "R.Shape(ndim=3)");
  CHECK(r.sinfo("c") == "R.Shape(ndim=-1)");
  CHECK(r.sinfo("d") == "R.Shape(ndim=3)");
  CHECK(r.sinfo("g") == "R.Tensor((2,), dtype=\"int64\")");
}

TEST_CASE("structural ops: print, assert, devices, checkpoints, wrap_param") {
  auto r = infer(R"(
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"kind": "cuda"}, 0, "global"), I.vdevice({"kind": "llvm"}, 0, "global")]})

    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32"), c: R.Tensor((), "bool"), p: R.Prim("bool"), i: R.Tensor((), "int32")):
        R.print(x, format="{}")
        R.assert_op(c, x, format="x: {}")
        R.assert_op(p, format="")
        R.assert_op(i, format="")
        a = R.hint_on_device(x, R.device(dev_type=1, dev_id=0))
        b = R.to_vdevice(x, dst_vdevice="cuda:0")
        s = R.grad.start_checkpoint(x)
        e = R.grad.end_checkpoint(s)
        w = R.wrap_param(x, dtype="float16")
        z = R.builtin.stop_lift_params(x)
        return b
)");
  CHECK(r.codes() == Codes{"E0375@11:21"});
  CHECK(r.diags.items()[0].message ==
        "R.assert_op: the condition must be a boolean scalar (R.Prim(\"bool\") or a 0-d bool "
        "tensor), got "
        "R.Tensor((), dtype=\"int32\")");
  CHECK(r.sinfo("a") == "R.Tensor((2, 3), dtype=\"float32\")");
  CHECK(analysis::struct_info_text(r.var("b")->struct_info) ==
        "R.Tensor((2, 3), dtype=\"float32\", vdevice=\"cuda:0\")");
  CHECK(r.sinfo("e") == "R.Tensor((2, 3), dtype=\"float32\")");
  CHECK(r.sinfo("w") == "R.Tensor((2, 3), dtype=\"float16\")");
  CHECK(r.sinfo("z") == "R.Tensor((2, 3), dtype=\"float32\")");
}

TEST_CASE("structural ops: allocation, kills and the VM's ops") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @T.prim_func
    def k(a: T.handle, b: T.handle):
        T.evaluate(0)

    @R.function(pure=False)
    def main(x: R.Tensor(("n",), "float32"), s: R.Shape(ndim=2)):
        n = T.int64()
        cls = Module
        a = R.builtin.alloc_tensor(R.shape([n, 2]), R.dtype("float16"), R.prim_value(0), R.str("global"))
        st = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        b = R.memory.alloc_tensor(st, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"))
        c = R.memory.alloc_tensor(st, R.prim_value(0), s, R.dtype("int8"))
        R.memory.kill_tensor(b)
        R.memory.kill_storage(st)
        vs = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        d = R.vm.alloc_tensor(vs, R.prim_value(0), R.shape([2, 2]), R.dtype("float32"))
        R.vm.kill_object(d)
        R.vm.call_tir_dyn(cls.k, (x, R.shape([n])))
        e = R.builtin.alloc_tensor(s, R.dtype("float32"), R.prim_value(0), R.str("global"))
        f = R.builtin.alloc_tensor(x, R.dtype("float32"), R.prim_value(0), R.str("global"))
        return a
)");
  CHECK(r.codes() == Codes{"E0377@23:36"});
  CHECK(r.sinfo("a") == "R.Tensor((n, 2), dtype=\"float16\")");
  CHECK(r.sinfo("st") == "R.Object");
  CHECK(r.sinfo("b") == "R.Tensor((4, 4), dtype=\"float32\")");
  // A shape variable is the allocated tensor's shape (as TVM keeps it).
  CHECK(r.sinfo("c") == "R.Tensor(s, dtype=\"int8\")");
  CHECK(r.sinfo("d") == "R.Tensor((2, 2), dtype=\"float32\")");
  CHECK(r.sinfo("e") == "R.Tensor(s, dtype=\"float32\")");
}

TEST_CASE("structural ops: memory views") {
  auto r = infer(R"(
@R.function
def f(A: R.Tensor((4096,), "float32"), U: R.Tensor, o: R.Prim("int64"), dt: R.Object):
    dtype = R.dtype("float16")
    a = R.memory.view(A, R.shape([64, 64]), R.tuple(), R.tuple())
    b = R.memory.view(A, R.shape([512]), R.dtype("int32"), R.tuple())
    c = R.memory.view(A, R.tuple(), dtype, R.tuple())
    d = R.memory.view(A, R.shape([16, 64]), R.tuple(), R.prim_value(8192))
    e = R.memory.view(U, R.tuple(), R.tuple(), o)
    g = R.memory.view(A, R.tuple(), dt, R.tuple())
    h = R.memory.view(A, shape=R.shape([8, 8]))
    bad1 = R.memory.view(A, R.shape([8192]), R.tuple(), R.tuple())
    bad2 = R.memory.view(A, R.shape([4096]), R.tuple(), R.prim_value(4))
    bad3 = R.memory.view(A, R.tuple(), R.dtype("float64"), R.tuple())
    z = R.memory.ensure_zero_offset(a)
    return a
)");
  CHECK(r.codes() == Codes{"E0378@12:12", "E0378@13:12", "E0378@14:12"});
  CHECK(r.sinfo("a") == "R.Tensor((64, 64), dtype=\"float32\")");
  CHECK(r.sinfo("b") == "R.Tensor((512,), dtype=\"int32\")");
  // A dtype given through a variable bound to R.dtype(...) is looked through.
  CHECK(r.sinfo("c") == "R.Tensor((4096,), dtype=\"float16\")");
  CHECK(r.sinfo("d") == "R.Tensor((16, 64), dtype=\"float32\")");
  CHECK(r.sinfo("e") == "R.Tensor");
  CHECK(r.sinfo("g") == "R.Tensor((4096,))");
  CHECK(r.sinfo("h") == "R.Tensor((8, 8), dtype=\"float32\")");
  CHECK(r.sinfo("z") == "R.Tensor((64, 64), dtype=\"float32\")");
  CHECK(r.print().find("h: R.Tensor((8, 8), dtype=\"float32\") = R.memory.view(A, R.shape([8, 8]), "
                       "R.tuple(), R.tuple())") != std::string::npos);
}
