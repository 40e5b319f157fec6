// `relax check` on the inputs of issue 10 that crashed it, made it report an internal error or
// silently wrapped a value: each is now a diagnostic with a code and a position, exit status 1.
#include <catch2/catch.hpp>

#include "tests/support/test_util.h"

using relax::test::run_command;

namespace {

const std::string kRelax = RELAX_BINARY;

// `relax check -` on a function whose parameters are `params` and body is `body`.
relax::test::CommandResult check_function(const std::string& params, const std::string& body) {
  std::string text =
      "# from tvm.script import relax as R\n\n@R.function\ndef main(" + params + "):\n" + body;
  return run_command({kRelax, "--color", "never", "check", "-"}, text);
}

bool reports(const relax::test::CommandResult& r, const std::string& where_and_code) {
  return r.err.find("<stdin>:" + where_and_code) != std::string::npos;
}

}  // namespace

TEST_CASE("relax check: a shape-taking op without arguments is E0304, not a crash") {
  for (const char* op : {"R.broadcast_to", "R.reshape", "R.zeros", "R.ones", "R.full",
                         "R.collapse_sum_to", "R.image.resize2d"}) {
    INFO(op);
    auto r = check_function("x: R.Tensor((2, 3), \"float32\")",
                            "    B = " + std::string(op) + "()\n    return x\n");
    CHECK(r.exit_code == 1);
    CHECK(reports(r, "5:9: error[E0304]: " + std::string(op) + " is missing the argument"));
    CHECK(r.err.find("internal error") == std::string::npos);
  }
}

TEST_CASE("relax check: a virtual device index past int64 is E0512, not an internal error") {
  auto r = check_function("x: R.Tensor((4,), \"float32\", vdevice=\"cuda:9223372036854775808\")",
                          "    return x\n");
  CHECK(r.exit_code == 1);
  CHECK(reports(r, "4:47: error[E0512]: virtual device index 9223372036854775808"));
  CHECK(r.err.find("internal error") == std::string::npos);
  // A well-formed index is still only looked up.
  auto ok = check_function("x: R.Tensor((4,), \"float32\", vdevice=\"cuda:x1\")", "    return x\n");
  CHECK(reports(ok, "4:47: error[E0512]: malformed virtual device"));
}

TEST_CASE("relax check: impossible tensors are E0419 at check time") {
  // A negative constant dimension, at the dimension.
  auto neg = check_function("x: R.Tensor((-4,), \"float32\")", "    return x\n");
  CHECK(neg.exit_code == 1);
  CHECK(reports(neg, "4:23: error[E0419]: a tensor dimension cannot be negative, got -4"));
  // 2^60 float32 elements: 2^62 bytes, more than any address space; once per shape, at the
  // binding (not again at the function's return type).
  auto big = check_function("",
                            "    z = R.zeros((1073741824, 1073741824), \"float32\")\n"
                            "    return z\n");
  CHECK(big.exit_code == 1);
  CHECK(reports(big,
                "5:5: error[E0419]: a tensor of shape (1073741824, 1073741824) and dtype float32 "
                "needs 4611686018427387904 bytes"));
  CHECK(big.err.find("Found 1 error.") != std::string::npos);  // reported once
  CHECK(big.err.find("internal error") == std::string::npos);
  // Bytes past int64 (2^64 bytes).
  auto huge = check_function("x: R.Tensor((4294967296, 4294967296), \"uint8\")", "    return x\n");
  CHECK(reports(huge,
                "4:10: error[E0419]: a tensor of shape (4294967296, 4294967296) and dtype "
                "uint8 has more bytes than int64 can count"));
  // Large but possible (TVM's own out-of-memory test allocates 2^50 bytes): no error.
  auto large =
      check_function("x: R.Tensor((1024, 1024, 1024, 1024, 1024), \"uint8\")", "    return x\n");
  CHECK(large.err.find("E0419") == std::string::npos);
}

TEST_CASE("relax check: integer constants never wrap (E0249)") {
  // Python arithmetic past int64 (TVM folded this to R.shape([4])).
  auto shape = check_function("", "    s = R.shape([4611686018427387904 * 4 + 4])\n    return s\n");
  CHECK(shape.exit_code == 1);
  CHECK(reports(shape,
                "5:18: error[E0249]: integer overflow: 4611686018427387904 * 4 does not fit in "
                "int64"));
  // It printed as a negative dimension.
  auto dim =
      check_function("x: R.Tensor((9223372036854775807 + 1,), \"float32\")", "    return x\n");
  CHECK(reports(dim, "4:23: error[E0249]: integer overflow: 9223372036854775807 + 1"));
  // TIR constant folding in the constant's dtype.
  auto i32 =
      check_function("", "    p = R.prim_value(T.int32(2147483647) + T.int32(1))\n    return p\n");
  CHECK(reports(i32, "5:22: error[E0249]: integer overflow: 2147483647 + 1 does not fit in int32"));
  // A huge power is reported at once instead of looping 2^63 times; small ones still fold.
  auto pow = check_function("", "    s = R.shape([2 ** 9223372036854775807])\n    return s\n");
  CHECK(reports(pow, "5:18: error[E0249]"));
  auto fine = run_command({kRelax, "print", "-"},
                          "@R.function\ndef main():\n    s = R.shape([1 ** 9223372036854775807, "
                          "2 ** 62, (-2) ** 63 // -2, 1 << 62])\n    return s\n");
  CHECK(fine.exit_code == 0);
  CHECK(fine.out.find("R.shape([1, 4611686018427387904, 4611686018427387904, "
                      "4611686018427387904])") != std::string::npos);
  auto shift = check_function("", "    s = R.shape([1 << 63])\n    return s\n");
  CHECK(reports(shift, "5:18: error[E0249]"));
}

TEST_CASE("relax check: R.take's mode is checked") {
  auto r = check_function("x: R.Tensor((8,), \"float32\"), i: R.Tensor((1,), \"int64\")",
                          "    y = R.take(x, i, axis=0, mode=\"raise\")\n    return y\n");
  CHECK(r.exit_code == 1);
  CHECK(reports(r,
                "5:35: error[E0316]: R.take: mode must be \"fast\", \"wrap\", \"clip\" or "
                "\"nan\", got \"raise\""));
  auto nan = check_function("x: R.Tensor((8,), \"int32\"), i: R.Tensor((1,), \"int64\")",
                            "    y = R.take(x, i, axis=0, mode=\"nan\")\n    return y\n");
  CHECK(reports(nan, "5:35: error[E0316]: R.take: mode \"nan\" needs a floating-point tensor"));
  // Without a mode the call prints as TVM v0.20 prints it; a mode is kept as written.
  auto p = run_command({kRelax, "print", "-"},
                       "@R.function\ndef main(x: R.Tensor((8,), \"float32\"), i: R.Tensor((1,), "
                       "\"int64\")):\n    y = R.take(x, i, axis=0)\n    z = R.take(x, i, 0, "
                       "\"clip\")\n    return (y, z)\n");
  CHECK(p.exit_code == 0);
  CHECK(p.out.find("= R.take(x, i, axis=0)\n") != std::string::npos);
  CHECK(p.out.find("= R.take(x, i, axis=0, mode=\"clip\")\n") != std::string::npos);
}
