// Diagnostics of the TIR front end: stable codes at the right line and column, all errors of a
// file reported, functions with errors left out while the others parse, no crash on mangled
// input.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tir_test_util.h"

using namespace relax;
using namespace relax::tirtest;

namespace {

// Parses a one-function file and returns the diagnostic with `code` (which must exist).
ir::Diagnostic expect_error(const std::string& text, const std::string& code, uint32_t line,
                            uint32_t column) {
  Parsed p = parse(text);
  INFO(text << "\n" << diag_text(p.diags));
  const ir::Diagnostic* d = find_code(p.diags, code);
  REQUIRE(d);
  CHECK(d->severity == ir::Severity::kError);
  CHECK(line_col(*d) == std::make_pair(line, column));
  return *d;
}

}  // namespace

TEST_CASE("TIR errors carry codes, lines and columns") {
  expect_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\"), n):\n    T.evaluate(0)\n",
               "E0602", 2, 37);
  expect_error("@T.prim_func\ndef f(x: \"float32\"):\n    T.evaluate(0)\n", "E0602", 2, 10);
  expect_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    T.reads(A[0])\n", "E0605",
               3, 5);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    for i in T.foo(4):\n        A[i] "
      "= 1.0\n",
      "E0614", 3, 14);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    for i in [1, 2]:\n        A[i] = "
      "1.0\n",
      "E0614", 3, 14);
  expect_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    del A\n", "E0603", 3, 5);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    x = [i for i in range(3)]\n",
      "E0603", 3, 9);
  expect_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    A[0, 1] = 2.0\n", "E0606",
               3, 5);
  expect_error("@T.prim_func\ndef f(n: T.int32):\n    n[0] = 2.0\n", "E0606", 3, 5);
  expect_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    T.unknown_intrin(1)\n",
               "E0208", 3, 5);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\"), n: T.int32):\n"
      "    with T.block(\"b\"):\n        vi = T.axis.remap(\"S\", [n])\n",
      "E0611", 4, 33);
  expect_error("@T.prim_func\ndef f(n: T.int32):\n    T.launch_thread(n, 4)\n", "E0610", 3, 21);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    A[0] = T.exp(T.reads())\n",
      "E0601", 3, 18);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    with T.block(\"b\"):\n"
      "        T.reads()\n        T.reads()\n",
      "E0613", 5, 9);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\"), n: T.int32):\n    if n:\n        A[0] = "
      "1.0\n",
      "E0615", 3, 8);
  expect_error("@T.prim_func(fast=True)\ndef f():\n    T.evaluate(0)\n", "E0609", 1, 14);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    for i, j in range(4):\n        "
      "A[i] = 1.0\n",
      "E0604", 3, 9);
  expect_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    x: T.int32 = 1.5\n",
               "E0608", 3, 18);
  expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    while True:\n        break\n",
      "E0603", 4, 9);
}

TEST_CASE("regions that cannot be detected are reported at the block") {
  ir::Diagnostic d = expect_error(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    with T.block(\"b\"):\n"
      "        T.evaluate(T.call_extern(\"int32\", \"g\", A.data))\n",
      "E0607", 3, 5);
  CHECK(d.message.find("T.reads") != std::string::npos);
}

TEST_CASE("every error of a file is reported and good functions are kept") {
  Parsed p = parse(R"(@I.ir_module
class Module:
    @T.prim_func
    def bad(A: T.Buffer((4,), "float32")):
        T.reads(A[0])
        A[0] = undefined_name
        for i in T.foo(2):
            pass

    @T.prim_func
    def good(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(1)
)");
  CHECK(p.diags.error_count() == 3);
  CHECK(find_code(p.diags, "E0605"));
  CHECK(find_code(p.diags, "E0201"));
  CHECK(find_code(p.diags, "E0614"));
  CHECK_FALSE(prim_func(p, "bad"));
  REQUIRE(prim_func(p, "good"));
  CHECK(print(p).find("def good(A: T.Buffer((4,), \"float32\")):") != std::string::npos);
}

TEST_CASE("names defined by failed statements do not cascade") {
  Parsed p = parse(R"(@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    x = T.nonexistent(1)
    A[0] = x + T.float32(1)
    for i in T.foo(2):
        A[i] = A[i]
)");
  CHECK(p.diags.error_count() == 2);
}

TEST_CASE("mangled TIR never crashes the front end or the printer") {
  std::string base = R"(@T.prim_func
def f(a: T.handle, B: T.Buffer((16, 16), "float32")):
    n = T.int64()
    A = T.match_buffer(a, (n, 16))
    for i, j in T.grid(16, 16):
        with T.block("b"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj])
            with T.init():
                B[vi, vj] = T.float32(0)
            B[vi, vj] = B[vi, vj] + A[vi, vj] * T.float32(2)
    x = T.launch_thread("threadIdx.x", 4)
    B[x, 0:4] = T.Broadcast(T.float32(1), 4)
)";
  // Delete or duplicate every few characters in turn: parse and print must survive.
  for (size_t i = 0; i < base.size(); i += 3) {
    std::string cut = base.substr(0, i) + base.substr(i + 1);
    Parsed p = parse(cut);
    (void)print(p);
    std::string dup = base.substr(0, i) + base[i] + base.substr(i);
    Parsed q = parse(dup);
    (void)print(q);
  }
  SUCCEED();
}
