// The executable: builder and validation errors, the save/load round trip, corrupt and
// truncated inputs, and the disassembly (golden text).
#include <algorithm>
#include <filesystem>
#include <random>

#include "tests/support/test_util.h"
#include "tests/vm/vm_test_util.h"
#include "vm/shape_program.h"

namespace relax::vm::test {
namespace {

// A program touching every operand and constant kind.
std::shared_ptr<Executable> sample_program() {
  ExecutableBuilder b;
  b.declare_function("main", {"x", "flag"});
  int64_t helper = b.declare_function("helper", {"t"});
  int64_t add = b.declare_kernel("add");
  b.begin_function("main");
  b.set_shape_slot_names({"n"});
  ParamInfo x{ParamInfo::Kind::kTensor,
              "R.Tensor((n,), dtype=\"float32\")",
              "float32",
              1,
              {{"n", {1, 0}}},
              {}};
  ParamInfo flag{ParamInfo::Kind::kPrim, "R.Prim(\"int64\")", "int64", -1, {}, {}};
  b.set_param_info({x, flag});
  int64_t heap = b.new_register(), cond = b.new_register(), out = b.new_register(),
          clo = b.new_register();
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), b.int_arg(1)}, heap);
  b.emit_call("vm.builtin.check_tensor_info", {Arg::reg(0), b.int_arg(1), b.dtype_arg(kFloat32),
                                               b.string_arg("argument `x` (parameter 0)")});
  b.emit_call("vm.builtin.match_shape", {Arg::reg(0), Arg::reg(heap), b.int_arg(1), b.int_arg(1),
                                         b.int_arg(0), b.string_arg("argument `x` (parameter 0)")});
  b.emit_call("vm.builtin.read_if_cond", {Arg::reg(1)}, cond);
  int64_t branch = b.emit_if(cond);
  b.emit_call(helper, {Arg::reg(0)}, out);
  int64_t done = b.emit_goto();
  b.patch_target(branch, b.next_instr());
  b.emit_call(add, {Arg::reg(0), b.constant(Value(make_tensor({2}, {0.5, -1}))), Arg::reg(0)});
  b.emit_call("vm.builtin.make_closure", {Arg::func(helper), b.float_arg(0.25)}, clo);
  b.emit_call("vm.builtin.make_tuple",
              {Arg::reg(clo), b.int_arg(int64_t{1} << 60), b.shape_arg({2, 3}),
               b.string_arg("quote \" and\nnewline")},
              out);
  b.patch_target(done, b.next_instr());
  b.emit_ret(out);
  b.end_function();
  b.begin_function("helper");
  b.emit_ret(0);
  b.end_function();
  return finish(b);
}

TEST_CASE("disassembly: the opcode legend, tables and one instruction a line", "[vm][exe]") {
  auto exe = sample_program();
  std::string text = exe->disassemble();
  auto golden = relax::test::tests_dir() / "vm" / "golden" / "sample_program.txt";
  if (relax::test::update_golden()) relax::test::write_file(golden, text);
  CHECK(text == relax::test::read_file(golden));
}

TEST_CASE("save and load round-trip the executable exactly", "[vm][exe]") {
  auto exe = sample_program();
  std::vector<uint8_t> bytes = exe->save();
  auto loaded = Executable::load(bytes);
  REQUIRE(loaded.ok());
  CHECK((*loaded)->disassemble() == exe->disassemble());
  CHECK((*loaded)->save() == bytes);
  CHECK((*loaded)->functions[0].shape_slot_names == std::vector<std::string>{"n"});
  CHECK((*loaded)->instr_offset == exe->instr_offset);
  // The loaded executable runs like the original.
  auto vm = make_vm(std::const_pointer_cast<Executable>(loaded.value()));
  auto r = vm->invoke("main", {Value(make_tensor({2}, {1, 2})), Value(int64_t{0})});
  REQUIRE(r.ok());
  CHECK((*r->as_tuple())[1].as_int() == int64_t{1} << 60);

  auto path = std::filesystem::temp_directory_path() / "relax_vm_roundtrip.rvm";
  REQUIRE(exe->save_file(path.string()).ok());
  auto from_file = Executable::load_file(path.string());
  REQUIRE(from_file.ok());
  CHECK((*from_file)->save() == bytes);
  std::filesystem::remove(path);
  CHECK(error_of(Executable::load_file("/nonexistent/x.rvm")) == "cannot open /nonexistent/x.rvm");
}

TEST_CASE("truncated and corrupt executables are rejected with errors", "[vm][exe]") {
  std::vector<uint8_t> bytes = sample_program()->save();
  // Every proper prefix fails cleanly.
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto r = Executable::load(std::span<const uint8_t>(bytes.data(), n));
    REQUIRE_FALSE(r.ok());
  }
  CHECK(error_of(Executable::load(std::span<const uint8_t>(bytes.data(), 30))) ==
        "truncated or corrupt executable: function count 9 at byte 16 exceeds the 6 bytes left");
  CHECK(error_of(Executable::load(std::span<const uint8_t>(bytes.data(), bytes.size() - 3))) ==
        "truncated or corrupt executable: code word count 64 at byte 1050 exceeds the 509 bytes "
        "left");
  std::string quote = "quote \" and";
  size_t at = static_cast<size_t>(
      std::search(bytes.begin(), bytes.end(), quote.begin(), quote.end()) - bytes.begin());
  CHECK(error_of(Executable::load(std::span<const uint8_t>(bytes.data(), at + 3))) ==
        "truncated executable: string constant at byte " + std::to_string(at) +
            " needs 19 bytes, 3 left");
  CHECK(error_of(Executable::load({})) == "not a relax executable (bad magic number)");
  std::vector<uint8_t> v = bytes;
  v[8] = 9;
  CHECK(error_of(Executable::load(v)) ==
        "executable format version 9 is not supported (this runtime reads version 2); rebuild it "
        "with this relax");
  v = bytes;
  v[16] = 0xff;  // the function count's low byte
  v[23] = 0x7f;  // and its high byte
  CHECK(error_of(Executable::load(v))
            .starts_with("truncated or corrupt executable: function count "));
  v = bytes;
  v.push_back(0);
  CHECK(error_of(Executable::load(v)) == "corrupt executable: 1 unexpected bytes after the code");

  // Random corruption never crashes (run under ASan in the asan preset).
  std::mt19937 rng(1234);
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    v = bytes;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) v[rng() % v.size()] = static_cast<uint8_t>(rng());
    auto r = Executable::load(v);
    if (!r.ok()) {
      ++rejected;
      continue;
    }
    (*r)->disassemble();  // a survivor is valid: it must print and link
    (void)VirtualMachine::create(r.value(), test_kernels());
  }
  CHECK(rejected > 1500);
}

TEST_CASE("loading validates the code like a build", "[vm][exe]") {
  auto exe = sample_program();
  // Point the first call's destination outside the register file.
  exe->instr_data[static_cast<size_t>(exe->instr_offset[0]) + 1] = 99;
  CHECK(error_of(Executable::load(exe->save())) ==
        "invalid executable: function `main`, instruction 0: destination register 99 is outside "
        "the register file (6 registers)");
}

TEST_CASE("parameter struct info round-trips and is validated", "[vm][exe]") {
  auto exe = sample_program();
  auto loaded = Executable::load(exe->save());
  REQUIRE(loaded.ok());
  const auto& info = (*loaded)->functions[0].param_info;
  REQUIRE(info.size() == 2);
  CHECK(info[0].kind == ParamInfo::Kind::kTensor);
  CHECK(info[0].text == "R.Tensor((n,), dtype=\"float32\")");
  CHECK(info[0].dtype == "float32");
  CHECK(info[0].ndim == 1);
  REQUIRE(info[0].dims.size() == 1);
  CHECK(info[0].dims[0].text == "n");
  CHECK(info[0].dims[0].program == std::vector<int64_t>{1, 0});
  CHECK(info[1].kind == ParamInfo::Kind::kPrim);
  CHECK((*loaded)->functions[1].param_info.empty());
  // A dim program reading a slot the function does not have, or leaving two values.
  exe->functions[0].param_info[0].dims[0].program = {1, 1};
  CHECK(error_of(Executable::load(exe->save())) ==
        "invalid executable: function `main`: parameter `x`: dimension `n`: shape program reads "
        "heap slot 1 of 1");
  exe->functions[0].param_info[0].dims[0].program = {0, 4, 0, 5};
  CHECK(error_of(Executable::load(exe->save())) ==
        "invalid executable: function `main`: parameter `x`: dimension `n`: shape program leaves 2 "
        "values");
  exe->functions[0].param_info.pop_back();
  CHECK(error_of(Executable::load(exe->save())) ==
        "invalid executable: function `main`: 1 parameter struct infos for 2 parameters");
  // Format version 1 (before parameter struct info) is refused with what to do.
  std::vector<uint8_t> bytes = sample_program()->save();
  bytes[8] = 1;
  CHECK(error_of(Executable::load(bytes)) ==
        "executable format version 1 is not supported (this runtime reads version 2); rebuild it "
        "with this relax");
  // Tuples nest at most kMaxParamInfoDepth deep.
  exe = sample_program();
  ParamInfo deep;
  for (int i = 0; i <= kMaxParamInfoDepth + 1; ++i) {
    ParamInfo outer{ParamInfo::Kind::kTuple, "R.Tuple", "", -1, {}, {deep}};
    deep = outer;
  }
  exe->functions[0].param_info[1] = deep;
  CHECK(error_of(Executable::load(exe->save())) ==
        "corrupt executable: parameter struct info nests deeper than 32");
}

TEST_CASE("shape programs: checked, evaluated, overflow and division by zero are errors",
          "[vm][exe]") {
  using C = ShapeProgramCode;
  auto w = [](std::initializer_list<int64_t> v) { return std::vector<int64_t>(v); };
  std::vector<int64_t> heap{7, 3};
  // (n - 2) * k floordiv 2 with n = 7, k = 3
  auto p = w({1, 0, 0, 2, static_cast<int64_t>(C::kSub), 0, 1, 1, static_cast<int64_t>(C::kMul), 0,
              0, 2, static_cast<int64_t>(C::kFloorDiv), 0});
  CHECK(check_shape_program(p, 2).empty());
  CHECK(eval_shape_program(p, heap).value() == 7);
  CHECK(shape_program_slots(p) == w({0, 1}));
  CHECK(check_shape_program(w({2, 0}), 2) == "shape program code 2 underflows");
  CHECK(check_shape_program(w({0, 1, 18, 0}), 2) == "unknown shape program code 18");
  CHECK(check_shape_program(w({0, 1, 0}), 2) == "a shape program has an odd number of words");
  CHECK(error_of(eval_shape_program(w({0, 5, 0, 0, 5, 0}), heap)) ==
        "division by zero in a symbolic shape expression");
  CHECK(error_of(eval_shape_program(w({0, int64_t{1} << 62, 0, 4, 4, 0}), heap)) ==
        "integer overflow in a symbolic shape expression: 4611686018427387904 * 4 does not fit in "
        "int64");
  CHECK(eval_shape_program(w({0, -7, 0, 2, 5, 0}), heap).value() == -4);  // floor division
  CHECK(eval_shape_program(w({0, -7, 0, 2, 9, 0}), heap).value() == -3);  // truncating division
}

// Expects finish() to fail with `message`.
void expect_invalid(ExecutableBuilder& b, const std::string& message) {
  auto r = b.finish();
  CHECK(error_of(r) == message);
}

TEST_CASE("validation: registers are written before they are read on every path", "[vm][exe]") {
  {
    ExecutableBuilder b;
    b.declare_function("main", {"x"});
    b.begin_function("main");
    b.emit_call("vm.builtin.copy", {Arg::reg(3)}, 1);
    b.emit_ret(1);
    b.end_function();
    expect_invalid(b, "function `main`, instruction 0: register %3 is read before it is written");
  }
  {  // written on the true branch only, read after the join
    ExecutableBuilder b;
    b.declare_function("main", {"c"});
    b.begin_function("main");
    int64_t branch = b.emit_if(0);
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, 1);
    b.patch_target(branch, b.next_instr());
    b.emit_ret(1);
    b.end_function();
    expect_invalid(b, "function `main`, instruction 2: register %1 is read before it is written");
  }
  {  // written on both branches: fine; unreachable code is not checked
    ExecutableBuilder b;
    b.declare_function("main", {"c"});
    b.begin_function("main");
    int64_t branch = b.emit_if(0);
    b.emit_call("vm.builtin.copy", {b.int_arg(1)}, 1);
    int64_t done = b.emit_goto();
    b.patch_target(branch, b.next_instr());
    b.emit_call("vm.builtin.copy", {b.int_arg(2)}, 1);
    b.patch_target(done, b.next_instr());
    b.emit_ret(1);
    b.emit_ret(7);
    b.end_function();
    auto exe = b.finish();
    REQUIRE(exe.ok());
    CHECK((*exe)->functions[0].register_file_size == 8);
  }
  {  // a loop: the back edge brings nothing new
    ExecutableBuilder b;
    b.declare_function("main", {"n"});
    b.begin_function("main");
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, 1);
    int64_t top = b.next_instr();
    b.emit_call("vm.builtin.copy", {Arg::reg(1)}, 2);
    int64_t exit = b.emit_if(2);
    b.emit_call("vm.builtin.copy", {b.int_arg(0)}, 1);
    b.patch_target(b.emit_goto(), top);
    b.patch_target(exit, b.next_instr());
    b.emit_ret(2);
    b.end_function();
    CHECK(b.finish().ok());
  }
}

TEST_CASE("validation: no register is read after a kill, on any path", "[vm][exe]") {
  {  // straight line: the message names the kill and the variable the compiler named
    ExecutableBuilder b;
    b.declare_function("main", {"x"});
    b.begin_function("main");
    int64_t r = b.new_register();
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, r);
    b.name_register(r, "alloc");
    b.emit_call("vm.builtin.kill", {}, r);
    b.emit_ret(r);
    b.end_function();
    expect_invalid(b,
                   "function `main`, instruction 2: register %1 (`alloc`) is read after "
                   "instruction 1 killed it");
  }
  {  // killed on one branch, read after the join
    ExecutableBuilder b;
    b.declare_function("main", {"c"});
    b.begin_function("main");
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, 1);
    int64_t branch = b.emit_if(0);
    b.emit_call("vm.builtin.kill", {}, 1);
    b.patch_target(branch, b.next_instr());
    b.emit_ret(1);
    b.end_function();
    expect_invalid(b,
                   "function `main`, instruction 3: register %1 is read after a vm.builtin.kill "
                   "killed it");
  }
  {  // a killed parameter (a named register after it does not hide its name)
    ExecutableBuilder b;
    b.declare_function("main", {"x"});
    b.begin_function("main");
    b.name_register(1, "y");
    b.emit_call("vm.builtin.kill", {}, 0);
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, 1);
    b.emit_ret(1);
    b.end_function();
    expect_invalid(b,
                   "function `main`, instruction 1: register %0 (`x`) is read after "
                   "instruction 0 killed it");
  }
  {  // written again after the kill, killed twice, or killed and never read: fine
    ExecutableBuilder b;
    b.declare_function("main", {"x"});
    b.begin_function("main");
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, 1);
    b.emit_call("vm.builtin.kill", {}, 1);
    b.emit_call("vm.builtin.kill", {}, 1);
    b.emit_call("vm.builtin.copy", {Arg::reg(0)}, 1);
    b.emit_call("vm.builtin.copy", {Arg::reg(1)}, 2);
    b.emit_call("vm.builtin.kill", {}, 2);
    b.emit_ret(1);
    b.end_function();
    CHECK(b.finish().ok());
  }
}

TEST_CASE("validation: a register read after 200 branches, killed in one of them", "[vm][exe]") {
  // x (%1) is written first and read at the end; each diamond writes its own register on both
  // branches. With `kill_at`, the else branch of that diamond kills x.
  auto build = [](int kill_at) {
    ExecutableBuilder b;
    b.declare_function("main", {"c"});
    b.begin_function("main");
    int64_t x = b.new_register();
    b.emit_call("vm.builtin.copy", {b.int_arg(1)}, x);
    for (int i = 0; i < 200; ++i) {
      int64_t r = b.new_register();
      int64_t branch = b.emit_if(0);
      b.emit_call("vm.builtin.copy", {Arg::reg(x)}, r);
      int64_t done = b.emit_goto();
      b.patch_target(branch, b.next_instr());
      if (i == kill_at) b.emit_call("vm.builtin.kill", {}, x);
      b.emit_call("vm.builtin.copy", {b.int_arg(2)}, r);
      b.patch_target(done, b.next_instr());
      b.emit_call("vm.builtin.copy", {Arg::reg(r)}, r);
    }
    b.emit_ret(x);
    b.end_function();
    return b.finish();
  };
  CHECK(build(-1).ok());
  auto killed = build(100);
  CHECK(error_of(killed).ends_with("register %1 is read after a vm.builtin.kill killed it"));
}

TEST_CASE("validation: jumps, fall-through, arity, and builder misuse", "[vm][exe]") {
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.begin_function("main");
    b.emit_goto(5);
    b.end_function();
    expect_invalid(b, "function `main`, instruction 0: jump offset 5 leaves the function");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.begin_function("main");
    b.emit_call("vm.builtin.null_value", {}, 0);
    b.end_function();
    expect_invalid(b,
                   "function `main`, instruction 0: the function's last instruction must be ret or "
                   "goto");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    int64_t f = b.declare_function("f", {"a", "b"});
    b.begin_function("f");
    b.emit_ret(0);
    b.end_function();
    b.begin_function("main");
    b.emit_call(f, {b.int_arg(1)}, 0);
    b.emit_ret(0);
    b.end_function();
    expect_invalid(b,
                   "function `main`, instruction 1: `f` takes 2 arguments but the call passes 1");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.declare_function("g", {});
    b.begin_function("main");
    b.emit_call("h", {});
    b.emit_ret(kVoidRegister);
    b.end_function();
    expect_invalid(b, "call of undeclared function `h`");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    expect_invalid(b, "VM function `main` has no body");
  }
  {
    ExecutableBuilder b;
    b.declare_kernel("add");
    b.declare_extern("add");
    expect_invalid(b, "`add` is declared as both kernel and extern");
  }
  {
    ExecutableBuilder b;
    b.emit_ret(0);
    expect_invalid(b, "an instruction emitted outside a function");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.begin_function("main");
    b.emit_call("vm.builtin.copy", {Arg::imm(int64_t{1} << 60)}, 0);
    b.emit_ret(0);
    b.end_function();
    expect_invalid(b, "immediate 1152921504606846976 does not fit in 56 bits (use int_arg)");
  }
}

TEST_CASE("constants are deduplicated, large ints become constants", "[vm][exe]") {
  ExecutableBuilder b;
  Tensor t = make_tensor({1}, {1});
  CHECK(b.string_arg("a") == b.string_arg("a"));
  CHECK(b.string_arg("a") != b.string_arg("b"));
  CHECK(b.shape_arg({1, 2}) == b.shape_arg({1, 2}));
  CHECK(b.shape_arg({1, 2}) != b.shape_arg({12}));
  CHECK(b.float_arg(0.5) == b.float_arg(0.5));
  CHECK(b.dtype_arg(kInt8) == b.dtype_arg(kInt8));
  CHECK(b.constant(Value(t)) == b.constant(Value(t)));
  CHECK(b.constant(Value(t)) != b.constant(Value(make_tensor({1}, {1}))));
  CHECK(b.int_arg(kMaxImmediate) == Arg::imm(kMaxImmediate));
  CHECK(b.int_arg(-kMaxImmediate) == Arg::imm(-kMaxImmediate));
  CHECK(b.int_arg(int64_t{1} << 60).kind == ArgKind::kConstant);
  CHECK(b.int_arg(int64_t{1} << 60) == b.int_arg(int64_t{1} << 60));
}

TEST_CASE("argument words encode kinds and sign-extended values", "[vm][exe]") {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, kMaxImmediate, -kMaxImmediate}) {
    for (ArgKind k :
         {ArgKind::kRegister, ArgKind::kImmediate, ArgKind::kConstant, ArgKind::kFunction}) {
      Arg a{k, v};
      CHECK(Arg::decode(a.encode()) == a);
    }
  }
  CHECK(Arg::decode(Arg::context().encode()).value == kContextRegister);
  CHECK(opcode_info(1)->name == "Call");
  CHECK(opcode_info(0) == nullptr);
  CHECK(kOpcodeTable.size() == 4);
}

}  // namespace
}  // namespace relax::vm::test
