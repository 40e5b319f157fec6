// Deep and long input through the real `relax` binary, under `ulimit -v` so that a blow-up fails
// instead of taking the machine's memory: what has no limit works (a 30,000-term Relax chain
// through print, check, opt, build and run), what has one gets its diagnostic with a position
// (docs/diagnostics/limits.md), and nothing crashes.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"

namespace fs = std::filesystem;
using relax::test::CommandResult;
using relax::test::run_command_limited;
using relax::test::write_file;

namespace {

const std::string kRelax = RELAX_BINARY;
constexpr size_t kMemoryKib = 2'000'000;  // 2 GB of address space for every run

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() / ("relax_deep_input_test_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path file(const std::string& name, const std::string& text) const {
    fs::path p = path_ / name;
    write_file(p, text);
    return p;
  }
  fs::path path(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

CommandResult run_relax(std::vector<std::string> args) {
  args.insert(args.begin(), kRelax);
  args.insert(args.begin() + 1, {"--color", "never"});
  return run_command_limited(args, kMemoryKib);
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// `term op term op ... term`, n terms.
std::string chain(const std::string& term, const std::string& op, size_t n) {
  std::string out = term;
  for (size_t i = 1; i < n; ++i) out += op + term;
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size()))
    ++n;
  return n;
}

// `depth` nested blocks opened by `header` (indented 4 more each), `body` in the innermost, in
// a Relax function (`def` at line 2, the first header at line 3).
std::string nested_blocks(const std::string& decorator, const std::string& signature,
                          const std::string& header, size_t depth, const std::string& body) {
  std::string out = decorator + "\n" + signature + "\n";
  size_t indent = 4;
  for (size_t i = 0; i < depth; ++i, indent += 4) out += std::string(indent, ' ') + header + "\n";
  return out + std::string(indent, ' ') + body + "\n";
}

}  // namespace

TEST_CASE("a 30,000-term Relax chain goes through print, check, opt, build and run") {
  TempDir dir;
  fs::path in = dir.file("chain.relax",
                         "@R.function\n"
                         "def main():\n"
                         "    x = R.const([1.0, 2.0, 0.5, -1.0], \"float32\")\n"
                         "    y = " +
                             chain("x", " + ", 30000) +
                             "\n"
                             "    return y\n");
  auto printed = run_relax({"print", in.string()});
  REQUIRE(printed.exit_code == 0);
  // In A-normal form: 29,998 temporaries, the last term bound to y.
  CHECK(count(printed.out, " = R.add(") == 29999);
  CHECK(printed.out.find("    gv: R.Tensor((4,), dtype=\"float32\") = R.add(x, x)\n") !=
        std::string::npos);
  CHECK(printed.out.find("    y: R.Tensor((4,), dtype=\"float32\") = R.add(gv29997, x)\n") !=
        std::string::npos);

  auto checked = run_relax({"check", in.string()});
  CHECK(checked.exit_code == 0);
  CHECK(checked.err.find("All checks passed!") != std::string::npos);

  auto opt = run_relax({"opt", "-p", "default", in.string()});
  CHECK(opt.exit_code == 0);
  CHECK(opt.err.empty());

  fs::path so = dir.path("chain.so");
  auto built = run_relax({"build", "-o", so.string(), in.string()});
  REQUIRE(built.exit_code == 0);
  REQUIRE(fs::exists(so));
  auto ran = run_relax({"run", so.string()});
  CHECK(ran.exit_code == 0);
  CHECK(ran.out.find("[30000, 60000, 15000, -30000]") != std::string::npos);
}

TEST_CASE("a 22,000-term chain of a parameter runs its 21,999 kernel calls: x = ones gives 22000") {
  // The chain above is folded to a constant at compile time; this one is computed by the VM,
  // one R.add kernel call per term, and ends as one tensor of 22000s.
  TempDir dir;
  fs::path in = dir.file("param_chain.relax",
                         "@R.function\n"
                         "def main(x: R.Tensor((4,), \"float32\")):\n"
                         "    with R.dataflow():\n"
                         "        y = " +
                             chain("x", " + ", 22000) +
                             "\n"
                             "        R.output(y)\n"
                             "    return y\n");
  fs::path ones = dir.path("ones.npy");
  std::vector<float> values(4, 1.0f);
  std::vector<int64_t> shape{4};
  REQUIRE(relax::vm::write_npy(ones.string(), *relax::vm::tensor_from_bytes(
                                                  shape, relax::vm::kFloat32, values.data()))
              .ok());
  auto printed = run_relax({"print", in.string()});
  REQUIRE(printed.exit_code == 0);
  CHECK(count(printed.out, " = R.add(") == 21999);
  CHECK(run_relax({"check", in.string()}).exit_code == 0);
  auto opt = run_relax({"opt", "-p", "default", in.string()});
  REQUIRE(opt.exit_code == 0);
  CHECK(count(opt.out, "cls.add(") == 21999);  // not folded: x is an input

  fs::path so = dir.path("param_chain.so");
  REQUIRE(run_relax({"build", "-o", so.string(), in.string()}).exit_code == 0);
  fs::path out = dir.path("y.npy");
  auto ran = run_relax({"run", so.string(), ones.string(), "-o", out.string()});
  REQUIRE(ran.exit_code == 0);
  auto y = relax::vm::read_npy(out.string());
  REQUIRE(y.ok());
  const float* p = (*y)->data_as<float>();
  CHECK(std::vector<float>(p, p + 4) == std::vector<float>(4, 22000.0f));
}

TEST_CASE("a 22,000-term symbolic dimension is checked and computed at run time") {
  // VMShapeLower gave every part of the chain a slot named by its text and a program of its own
  // terms: quadratic, and `relax build` ran out of memory (std::bad_alloc) after two minutes.
  TempDir dir;
  fs::path in = dir.file("dims.relax",
                         "@R.function\n"
                         "def main(a: R.Tensor((\"n\",), \"float32\"), x: R.Tensor((" +
                             chain("n", " + ", 22000) +
                             ",), \"float32\")):\n"
                             "    return x\n");
  CHECK(run_relax({"check", in.string()}).exit_code == 0);
  auto built = run_relax({"build", "-o", dir.path("dims.so").string(), in.string()});
  CHECK(built.exit_code == 0);
  // Only the summary line (no diagnostic).
  CHECK(built.err.find("Built " + dir.path("dims.so").string() + " (1 function, 0 kernels)") == 0);
  CHECK(built.err.find('\n') == built.err.size() - 1);
  // n = 3 from a, so x is 66,000 long.
  auto ran = run_relax({"run", "--random", "--shape", "n=3", in.string()});
  CHECK(ran.exit_code == 0);
  CHECK(ran.out.find("shape (66000,), dtype float32\n") == 0);
}

TEST_CASE("256 nested blocks: E0106 at the block the scanner cannot hold, memory bounded") {
  TempDir dir;
  // 255 `if`s in the function body are 256 levels; the 256th level's first line is line 258.
  // Three statements there made the parser loop on empty INDENT tokens until memory ran out.
  fs::path in = dir.file(
      "deep.relax",
      nested_blocks(
          "@R.function", "def main(x: R.Tensor((4,), \"float32\")):", "if True:", 255,
          "y = x\n" + std::string(1024, ' ') + "y = x\n" + std::string(1024, ' ') + "y = x") +
          "    return x\n");
  auto r = run_relax({"check", in.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("deep.relax:258:1025: error[E0106]: blocks nested more than 255 levels deep") !=
        std::string::npos);
  CHECK(count(r.err, "error[") == 1);  // no bogus E0101 at line 1, no E0232 per fragment

  // 254 nested TIR loops (255 levels) are fine; 255 (256 levels) are not.
  fs::path ok = dir.file("loops.relax",
                         nested_blocks("@T.prim_func", "def f(A: T.Buffer((4,), \"float32\")):",
                                       "for i in range(1):", 254, "A[0] = T.float32(0)"));
  auto fine = run_relax({"check", ok.string()});
  CHECK(fine.exit_code == 0);
  CHECK(fine.err.find("All checks passed!") != std::string::npos);
  fs::path bad = dir.file("loops256.relax",
                          nested_blocks("@T.prim_func", "def f(A: T.Buffer((4,), \"float32\")):",
                                        "for i in range(1):", 255, "A[0] = T.float32(0)"));
  auto refused = run_relax({"check", bad.string()});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("loops256.relax:258:1025: error[E0106]") != std::string::npos);
  CHECK(count(refused.err, "error[") == 1);
}

TEST_CASE("deep indentation: 50,000 columns read right, past 8,388,607 E0106") {
  TempDir dir;
  // Columns used to be clamped to 32,767, which read these two blocks as one.
  std::string i40(40000, ' '), i50(50000, ' ');
  fs::path in = dir.file("wide.relax",
                         "@R.function\n"
                         "def main(x: R.Tensor((4,), \"float32\")):\n" +
                             i40 + "if x:\n" + i50 + "y = x\n" + i40 + "else:\n" + i50 + "y = x\n" +
                             i40 + "return y\n");
  auto r = run_relax({"print", in.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("    if x:\n        y: R.Tensor((4,), dtype=\"float32\") = x\n    else:\n") !=
        std::string::npos);

  fs::path far = dir.file("far.relax",
                          "@R.function\n"
                          "def main(x: R.Tensor((4,), \"float32\")):\n" +
                              std::string(9'000'000, ' ') + "return x\n");
  auto refused = run_relax({"check", far.string()});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("far.relax:3:9000001: error[E0106]: line indented past column 8388607") !=
        std::string::npos);
}

TEST_CASE("the formatter refuses deep nesting with F0007 before its parser recurses") {
  TempDir dir;
  fs::path in = dir.file("brackets.relax",
                         "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n    y = " +
                             repeat("[", 6300) + repeat("]", 6300) + "\n    return x\n");
  auto r = run_relax({"fmt", "--check", in.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("error[F0007]: not formatted: expressions or blocks are nested more than "
                   "1500 deep") != std::string::npos);
}

TEST_CASE("relax parse --tree prints a 100,000-deep tree with bounded indentation") {
  TempDir dir;
  fs::path in =
      dir.file("parens.relax", "y = " + repeat("(", 100000) + "x" + repeat(")", 100000) + "\n");
  auto r = run_relax({"parse", "--tree", "--no-positions", in.string()});
  REQUIRE(r.exit_code == 0);
  CHECK(count(r.out, "(parenthesized_expression") == 100000);
  // The deepest line is indented 200 spaces, as every line past level 100.
  CHECK(r.out.find("\n" + std::string(200, ' ') + "(identifier))") != std::string::npos);
  CHECK(r.out.find(std::string(201, ' ')) == std::string::npos);
  CHECK(r.out.size() < 30'000'000);
  CHECK(r.out.substr(0, 40) == "(module\n  (assignment\n    left: (identif");
}

TEST_CASE("deep annotations are refused with E0242, not scanned into a crash") {
  TempDir dir;
  fs::path in = dir.file("tuple.relax", "@R.function\ndef main(x: " + repeat("R.Tuple(", 100000) +
                                            "R.Tensor((4,), \"float32\")" + repeat(")", 100000) +
                                            "):\n    return x\n");
  for (const char* command : {"check", "print"}) {
    auto r = run_relax({command, in.string()});
    INFO(command);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("tuple.relax:2:1597: error[E0242]: expression nested more than 200 levels "
                     "deep") != std::string::npos);
    CHECK(count(r.err, "error[") == 1);
  }
}

TEST_CASE("struct info nested through bindings is refused at 65 levels (E0358), once") {
  // t0 = (x,), t1 = (t0,), ...: each binding nests the struct info one level deeper, and the
  // printer crashed (SIGSEGV) on 30,000 of them; check ran for minutes.
  auto tuples = [](int n) {
    std::string text =
        "@R.function\n"
        "def main(x: R.Tensor((4,), \"float32\")):\n"
        "    t0 = (x,)\n";
    for (int i = 1; i < n; ++i)
      text += "    t" + std::to_string(i) + " = (t" + std::to_string(i - 1) + ",)\n";
    return text + "    return x\n";
  };
  TempDir dir;
  fs::path deep = dir.file("tuples.relax", tuples(30000));
  for (const char* command : {"check", "print", "build"}) {
    INFO(command);
    std::vector<std::string> args{command};
    if (std::string(command) == "build") args.insert(args.end(), {"-o", dir.path("t.so").string()});
    args.push_back(deep.string());
    auto r = run_relax(args);
    CHECK(r.exit_code == 1);
    // t63 = (t62,) is at line 66; the value starts at column 11.
    CHECK(r.err.find("tuples.relax:66:11: error[E0358]: the struct info of `t63` is nested 65 "
                     "levels deep; struct info may nest 64") != std::string::npos);
    CHECK(count(r.err, "error[") == 1);
  }

  // 64 levels (t62) are fine, and their printed annotations read back.
  fs::path fine = dir.file("fine.relax", tuples(63));
  CHECK(run_relax({"check", fine.string()}).exit_code == 0);
  auto printed = run_relax({"print", fine.string()});
  REQUIRE(printed.exit_code == 0);
  CHECK(printed.out.find("    t62: " + repeat("R.Tuple(", 63) +
                         "R.Tensor((4,), dtype=\"float32\")" + repeat(")", 63) + " = (t61,)\n") !=
        std::string::npos);
  auto reread = run_relax({"check", dir.file("printed.relax", printed.out).string()});
  CHECK(reread.exit_code == 0);
  CHECK(count(reread.err, "error[") == 0);

  // An annotation is held to the same limit.
  auto annotated = run_relax(
      {"check", dir.file("annotated.relax", "@R.function\ndef main(x: " + repeat("R.Tuple(", 100) +
                                                "R.Tensor((4,), \"float32\")" + repeat(")", 100) +
                                                "):\n    return x\n")
                    .string()});
  CHECK(annotated.exit_code == 1);
  CHECK(annotated.err.find("annotated.relax:2:13: error[E0358]: the annotation of parameter `x` "
                           "is nested 101 levels deep") != std::string::npos);
  CHECK(count(annotated.err, "error[") == 1);

  // Local functions that each return the one before: R.Callable(..., R.Callable(...)).
  std::string closures =
      "@R.function\n"
      "def main(x: R.Tensor((4,), \"float32\")):\n"
      "    @R.function\n"
      "    def f0(y: R.Tensor((4,), \"float32\")):\n"
      "        return y\n";
  for (int i = 1; i < 100; ++i)
    closures += "    @R.function\n    def f" + std::to_string(i) +
                "(_y: R.Tensor((4,), \"float32\")):\n        return f" + std::to_string(i - 1) +
                "\n";
  auto callables =
      run_relax({"check", dir.file("closures.relax", closures + "    return x\n").string()});
  CHECK(callables.exit_code == 1);
  // f63 is defined at line 3 + 3 * 63 + 1.
  CHECK(callables.err.find("closures.relax:193:9: error[E0358]: the struct info of this function "
                           "(R.Callable) is nested 65 levels deep") != std::string::npos);
}

TEST_CASE("a 30,000-term sum in a prim_func prints and checks, lowering refuses it (E0708)") {
  TempDir dir;
  fs::path in = dir.file("sum.relax",
                         "@T.prim_func\n"
                         "def f(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
                         "    B[0] = " +
                             chain("A[0]", " + ", 30000) + "\n");
  auto printed = run_relax({"print", in.string()});
  REQUIRE(printed.exit_code == 0);
  CHECK(printed.out.find("    B[0] = " + chain("A[0]", " + ", 30000) + "\n") != std::string::npos);
  auto checked = run_relax({"check", in.string()});
  CHECK(checked.exit_code == 0);
  auto built = run_relax({"build", "-o", dir.path("sum.so").string(), in.string()});
  CHECK(built.exit_code == 1);
  CHECK(built.err.find("sum.relax:3:12: error[E0708]: prim_func `f` has an expression nested "
                       "30001 levels deep; TIR lowering handles up to 10000") != std::string::npos);

  // 9,999 terms compile and compute the sum.
  fs::path small = dir.file("small.relax",
                            "@I.ir_module\n"
                            "class Module:\n"
                            "    @T.prim_func\n"
                            "    def f(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), "
                            "\"float32\")):\n"
                            "        for i in range(4):\n"
                            "            B[i] = " +
                                chain("A[i]", " + ", 9999) +
                                "\n\n"
                                "    @R.function\n"
                                "    def main() -> R.Tensor((4,), \"float32\"):\n"
                                "        cls = Module\n"
                                "        x = R.const([1.0, 2.0, 0.5, -1.0], \"float32\")\n"
                                "        y = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((4,), "
                                "\"float32\"))\n"
                                "        return y\n");
  auto ran = run_relax({"run", small.string()});
  CHECK(ran.exit_code == 0);
  CHECK(ran.out.find("[9999, 19998, 4999.5, -9999]") != std::string::npos);
}

TEST_CASE("a PrimExpr chain past 50,000 terms is E0243, 1,001 nested lets are E0616") {
  TempDir dir;
  fs::path in = dir.file("long.relax",
                         "@T.prim_func\n"
                         "def f(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
                         "    B[0] = " +
                             chain("A[0]", " + ", 60000) + "\n");
  auto r = run_relax({"check", in.string()});
  CHECK(r.exit_code == 1);
  // The operator before the 50,001st term: the first term at column 12, 7 columns a term.
  CHECK(
      r.err.find("long.relax:3:350010: error[E0243]: a PrimExpr chain of more than 50000 terms") !=
      std::string::npos);
  CHECK(count(r.err, "error[") == 1);

  std::string lets =
      "@T.prim_func\n"
      "def f(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
      "    v0 = A[0]\n";
  for (int i = 1; i < 1200; ++i)
    lets += "    v" + std::to_string(i) + " = v" + std::to_string(i - 1) + " + A[1]\n";
  lets += "    B[0] = v1199\n";
  auto nested = run_relax({"check", dir.file("lets.relax", lets).string()});
  CHECK(nested.exit_code == 1);
  CHECK(nested.err.find("lets.relax:1003:5: error[E0616]: statements nested more than 1000 "
                        "levels deep in a prim_func") != std::string::npos);
  CHECK(count(nested.err, "error[") == 1);
}

TEST_CASE("a syntax error deep inside brackets is reported without recursing") {
  TempDir dir;
  fs::path in =
      dir.file("broken.relax",
               "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n"
               "    y = " +
                   repeat("(", 100000) + "x +" + repeat(")", 100000) + "\n    return x\n");
  auto r = run_relax({"check", in.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("error[E01") != std::string::npos);
}

TEST_CASE("long elif chains, attribute chains, nested functions, ** chains") {
  TempDir dir;
  // 999 elifs (1,000 levels) are fine; 1,000 are refused with E0518 at the last one.
  auto elifs = [](int n) {
    std::string text =
        "@R.function\n"
        "def main(c: R.Tensor((), \"bool\")):\n"
        "    x = R.const([1.0, 2.0, 0.5, -1.0], \"float32\")\n"
        "    if c:\n"
        "        y = x\n";
    for (int i = 0; i < n; ++i) text += "    elif c:\n        y = x\n";
    return text + "    else:\n        y = R.add(x, x)\n    return y\n";
  };
  fs::path fine = dir.file("elif.relax", elifs(999));
  CHECK(run_relax({"check", fine.string()}).exit_code == 0);
  CHECK(run_relax({"print", fine.string()}).exit_code == 0);
  CHECK(run_relax({"build", "-o", dir.path("elif.so").string(), fine.string()}).exit_code == 0);
  auto refused = run_relax({"check", dir.file("elif1000.relax", elifs(1000)).string()});
  CHECK(refused.exit_code == 1);
  // The 1,000th elif (level 1,001) is at line 4 + 2 * 1,000.
  CHECK(refused.err.find("elif1000.relax:2004:5: error[E0518]: `if` statements nested more than "
                         "1000 levels deep") != std::string::npos);
  CHECK(count(refused.err, "error[") == 1);

  // A callee that is a 100,000-long attribute chain in a prim_func.
  auto attrs = run_relax({"check", dir.file("attrs.relax",
                                            "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n"
                                            "    T" +
                                                repeat(".a", 100000) + "()\n")
                                       .string()});
  CHECK(attrs.exit_code == 1);
  CHECK(attrs.err.find("error[E0242]") != std::string::npos);

  // A nested function whose body holds a 30,000-term chain (the front end looks for calls of
  // the function's own name in it).
  auto nested = run_relax({"check", dir.file("nested.relax",
                                             "@R.function\n"
                                             "def main(x: R.Tensor((4,), \"float32\")):\n"
                                             "    @R.function\n"
                                             "    def g(z: R.Tensor((4,), \"float32\")):\n"
                                             "        w = " +
                                                 chain("z", " + ", 30000) +
                                                 "\n"
                                                 "        return w\n"
                                                 "    y = g(x)\n"
                                                 "    return y\n")
                                        .string()});
  CHECK(nested.exit_code == 0);
  CHECK(nested.err.find("All checks passed!") != std::string::npos);

  // x ** x ** ... nests to the right: the formatter's parser refuses it before recursing.
  auto power = run_relax(
      {"fmt", "--check",
       dir.file("power.relax", "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n    y = " +
                                   chain("x", " ** ", 20000) + "\n    return x\n")
           .string()});
  CHECK(power.exit_code == 1);
  CHECK(power.err.find("error[F0007]") != std::string::npos);
}
