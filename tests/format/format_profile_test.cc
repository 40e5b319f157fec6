// `--profile legacy|current`: spellings rewritten through the syntax tree, comments kept, the
// IR unchanged, and the two profiles each other's inverse.
#include <catch2/catch.hpp>

#include "syntax/format.h"

using namespace relax;

namespace {

syntax::FormatResult format(const std::string& text, std::optional<syntax::Profile> profile) {
  ir::DiagnosticBag diags;
  syntax::FormatOptions o;
  o.profile = profile;
  return syntax::format_text(text, o, diags, "profile.relax");
}

const char* kLegacy =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import tir as T\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func(private=True)\n"
    "    def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
    "        T.func_attr({\"tir.noalias\": True})\n"
    "        # with T.block(\"root\"):\n"
    "        for i in range(4):\n"
    "            with T.block(\"B\"):  # the block\n"
    "                vi = T.axis.spatial(4, i)\n"
    "                T.reads(A[vi])\n"
    "                T.writes(B[vi])\n"
    "                T.block_attr({\"note\": 1})\n"
    "                B[vi] = A[vi] + T.float32(1.0)\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4,), dtype=\"float32\"), o: R.Object) -> R.Tensor((4,), "
    "dtype=\"float32\"):\n"
    "        cls = Module\n"
    "        # call the kernel\n"
    "        gv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), dtype=\"float32\"))\n"
    "        return gv\n";

}  // namespace

TEST_CASE("profile current rewrites legacy spellings and keeps comments and IR") {
  syntax::FormatResult legacy = format(kLegacy, std::nullopt);
  REQUIRE(legacy.ok);
  syntax::FormatResult current = format(kLegacy, syntax::Profile::kCurrent);
  REQUIRE(current.ok);
  CHECK(current.verified_by == "ir");
  const std::string& t = current.text;
  CHECK(t.find("# from tvm.script import tirx as T\n") != std::string::npos);
  CHECK(t.find("# with T.sblock(\"root\"):\n") != std::string::npos);
  CHECK(t.find("with T.sblock(\"B\"):  # the block\n") != std::string::npos);
  CHECK(t.find("T.sblock_attr({\"note\": 1})") != std::string::npos);
  CHECK(t.find("\"tirx.noalias\": True") != std::string::npos);
  CHECK(t.find("o: R.Any") != std::string::npos);
  CHECK(t.find("out_ty=R.Tensor") != std::string::npos);
  CHECK(t.find("# call the kernel\n") != std::string::npos);
  CHECK(t.find("out_sinfo") == std::string::npos);
  CHECK(t.find("T.block(") == std::string::npos);
  // And back.
  syntax::FormatResult back = format(current.text, syntax::Profile::kLegacy);
  REQUIRE(back.ok);
  CHECK(back.text == legacy.text);
  // A profile is idempotent.
  syntax::FormatResult again = format(current.text, syntax::Profile::kCurrent);
  REQUIRE(again.ok);
  CHECK_FALSE(again.changed);
}

TEST_CASE("profile rewrites files the front end rejects, checked on the syntax tree") {
  // `undefined_name` is unknown to the front end: no IR, so the rewrite is checked token by token.
  std::string text =
      "@R.function\n"
      "def f(x: R.Object):\n"
      "    y = R.call_packed(\"f\", x, undefined_name, sinfo_args=(R.Object,))  # keep me\n"
      "    return y\n";
  syntax::FormatResult r = format(text, syntax::Profile::kCurrent);
  REQUIRE(r.ok);
  CHECK(r.verified_by == "syntax");
  CHECK(r.text ==
        "@R.function\n"
        "def f(x: R.Any):\n"
        "    y = R.call_packed(\"f\", x, undefined_name, ty_args=(R.Any,))  # keep me\n"
        "    return y\n");
}

TEST_CASE("profile rewrites leave other names alone") {
  std::string text =
      "block = T.block_size\n"
      "x = S.Object\n"
      "y = f(out_sinfo=1)\n"
      "z = \"tir.noalias.extra\"\n";
  syntax::FormatResult r = format(text, syntax::Profile::kCurrent);
  REQUIRE(r.ok);
  CHECK(r.text == text);
}
