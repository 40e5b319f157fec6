// Models as shared libraries: a small C file holding two kernels and an embedded executable
// blob, compiled at test time with the project's C compiler (as `relax build` will produce),
// loaded by the runtime alone; user extern libraries; the ABI version check.
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "tests/support/test_util.h"
#include "tests/vm/vm_test_util.h"
#include "vm/runtime.h"

namespace relax::vm::test {
namespace {

namespace fs = std::filesystem;

const char* kKernels = R"C(
#include <string.h>
#include "vm/kernel_abi.h"

static int64_t numel(const DLTensor* t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; ++i) n *= t->shape[i];
  return n;
}

/* vadd(a, b, out): out = a + b */
int32_t vadd(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg* ret) {
  if (n != 3) { ctx->set_error(ctx, "vadd takes 3 tensors"); return 1; }
  const float* a = (const float*)args[0].value.tensor->data;
  const float* b = (const float*)args[1].value.tensor->data;
  float* out = (float*)args[2].value.tensor->data;
  for (int64_t i = 0; i < numel(args[2].value.tensor); ++i) out[i] = a[i] + b[i];
  return 0;
}

struct scale_job { const float* x; float* out; float factor; };
static int32_t scale_chunk(int64_t begin, int64_t end, void* closure) {
  struct scale_job* job = (struct scale_job*)closure;
  for (int64_t i = begin; i < end; ++i) job->out[i] = job->x[i] * job->factor;
  return 0;
}

/* vscale(x, factor, out): out = x * factor, as a parallel loop */
int32_t vscale(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg* ret) {
  if (n != 3 || args[1].kind != kRelaxArgFloat) {
    ctx->set_error(ctx, "vscale takes (tensor, float, tensor)");
    return 1;
  }
  struct scale_job job = {(const float*)args[0].value.tensor->data,
                          (float*)args[2].value.tensor->data, (float)args[1].value.f};
  return ctx->parallel_for(ctx, numel(args[2].value.tensor), scale_chunk, &job);
}
)C";

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("relax_vm_test_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// Compiles `source` into a shared library; fails the test if the compiler does.
fs::path compile(const TempDir& dir, const std::string& name, const std::string& source) {
  fs::path c = dir / (name + ".c"), so = dir / (name + ".so");
  relax::test::write_file(c, source);
  auto r =
      relax::test::run_command({RELAX_C_COMPILER, "-shared", "-fPIC", "-O1", "-std=c99", "-Wall",
                                "-Werror", "-I", RELAX_SOURCE_DIR, "-o", so.string(), c.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return so;
}

// The C definitions of the model's exports for `exe`.
std::string embed(const Executable& exe, int abi_version, int64_t size_delta = 0) {
  std::vector<uint8_t> bytes = exe.save();
  std::ostringstream s;
  s << "const unsigned char relax_executable_blob[" << bytes.size() << "] = {";
  for (size_t i = 0; i < bytes.size(); ++i) s << (i % 24 ? "" : "\n  ") << int(bytes[i]) << ",";
  s << "\n};\nconst uint64_t relax_executable_blob_size = "
    << static_cast<int64_t>(bytes.size()) + size_delta << ";\n"
    << "const int32_t relax_kernel_abi_version = " << abi_version << ";\n";
  return s.str();
}

// main(a, b) = vscale(vadd(a, b), 0.5); ext(x) = my_negate(x) from a user library.
std::shared_ptr<Executable> model_program(int64_t n, bool with_extern) {
  ExecutableBuilder b;
  b.declare_function("main", {"a", "b"});
  int64_t vadd = b.declare_kernel("vadd"), vscale = b.declare_kernel("vscale");
  b.begin_function("main");
  auto alloc = [&](int64_t tensor) {
    int64_t storage = b.new_register();
    b.emit_call("vm.builtin.alloc_storage",
                {Arg::context(), b.shape_arg({n * 4}), b.int_arg(-1), b.dtype_arg(kFloat32),
                 b.string_arg("global")},
                storage);
    b.emit_call("vm.builtin.alloc_tensor",
                {Arg::reg(storage), b.int_arg(0), b.shape_arg({n}), b.dtype_arg(kFloat32)}, tensor);
  };
  int64_t sum = b.new_register(), out = b.new_register();
  alloc(sum);
  b.emit_call(vadd, {Arg::reg(0), Arg::reg(1), Arg::reg(sum)});
  alloc(out);
  b.emit_call(vscale, {Arg::reg(sum), b.float_arg(0.5), Arg::reg(out)});
  b.emit_ret(out);
  b.end_function();
  if (with_extern) {
    b.declare_function("ext", {"x", "out"});
    int64_t neg = b.declare_extern("my_negate");
    b.begin_function("ext");
    b.emit_call(neg, {Arg::reg(0), Arg::reg(1)});
    b.emit_ret(1);
    b.end_function();
  }
  return finish(b);
}

const char* kUserLib = R"C(
#include "vm/kernel_abi.h"
int32_t my_negate(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg* ret) {
  const float* x = (const float*)args[0].value.tensor->data;
  float* out = (float*)args[1].value.tensor->data;
  for (int64_t i = 0; i < args[1].value.tensor->shape[0]; ++i) out[i] = -x[i];
  return 0;
}
)C";

TEST_CASE("a model library holds kernels and the executable, the runtime alone runs it",
          "[vm][so]") {
  TempDir dir;
  auto exe = model_program(4, false);
  fs::path so =
      compile(dir, "model", std::string(kKernels) + embed(*exe, RELAX_KERNEL_ABI_VERSION));
  auto model = Module::load(so.string());
  INFO((model ? "" : model.error().message));
  REQUIRE(model.ok());
  CHECK(model->executable().disassemble() == exe->disassemble());
  Value a(make_tensor({4}, {1, 2, 3, 4})), b(make_tensor({4}, {1, 1, 1, 1}));
  auto r = model->invoke("main", {a, b});
  REQUIRE(r.ok());
  CHECK(values(*r) == std::vector<float>{1, 1.5, 2, 2.5});

  // The stateful style, parameters from a safetensors file, and the profiler.
  fs::path weights = dir / "weights.safetensors";
  REQUIRE(write_safetensors(weights.string(), {{"b", make_tensor({4}, {3, 3, 3, 3})}}).ok());
  REQUIRE(model->load_params(weights.string()).ok());
  Profiler& profiler = model->enable_profiling();
  model->set_input("main", {a});
  REQUIRE(model->run("main").ok());
  CHECK(model->num_outputs() == 1);
  CHECK(values(model->output(0)) == std::vector<float>{2, 2.5, 3, 3.5});
  CHECK(model->output(1).is_null());
  std::vector<std::string> names;
  for (const auto& row : profiler.rows()) names.push_back(row.name);
  CHECK(std::find(names.begin(), names.end(), "vadd") != names.end());
  CHECK(std::find(names.begin(), names.end(), "vscale") != names.end());
}

TEST_CASE("user libraries provide extern functions, kernels resolve only in their library",
          "[vm][so]") {
  TempDir dir;
  auto exe = model_program(3, true);
  fs::path so =
      compile(dir, "model", std::string(kKernels) + embed(*exe, RELAX_KERNEL_ABI_VERSION));
  fs::path user = compile(dir, "user", kUserLib);
  CHECK(error_of(Module::load(so.string())) ==
        "cannot find extern function `my_negate` in " + so.string());
  ModuleOptions options;
  options.libraries = {user.string()};
  auto model = Module::load(so.string(), options);
  REQUIRE(model.ok());
  Value out(empty_tensor({3}, kFloat32));
  auto r = model->invoke("ext", {Value(make_tensor({3}, {1, -2, 3})), out});
  REQUIRE(r.ok());
  CHECK(values(*r) == std::vector<float>{-1, 2, -3});

  // `strlen` is reachable through the library's dependencies (libc) but is no kernel of it.
  auto lib = SharedLibrary::open(so.string());
  REQUIRE(lib.ok());
  CHECK((*lib)->resolve("vadd") != nullptr);
  CHECK((*lib)->resolve("strlen") == nullptr);
  CHECK((*lib)->resolve("nope") == nullptr);
}

TEST_CASE("libraries built for another ABI version, or without an executable, are refused",
          "[vm][so]") {
  TempDir dir;
  auto exe = model_program(2, false);
  fs::path v2 = compile(dir, "v2", std::string(kKernels) + embed(*exe, 2));
  CHECK(error_of(Module::load(v2.string())) ==
        v2.string() +
            " was built for kernel ABI version 2, but this runtime implements version 1; rebuild "
            "it with this relax");
  fs::path plain = compile(dir, "plain", kUserLib);
  CHECK(error_of(Module::load(plain.string())) ==
        plain.string() + " is not a relax model (it exports no relax_kernel_abi_version)");
  fs::path lying = compile(dir, "lying", std::string(kKernels) + embed(*exe, 1, 1000));
  CHECK(error_of(Module::load(lying.string()))
            .ends_with(") exceeds the blob (" + std::to_string(exe->save().size()) + " bytes)"));
  fs::path corrupt = compile(dir, "corrupt", std::string(kKernels) + embed(*exe, 1, -5));
  CHECK(error_of(Module::load(corrupt.string())).starts_with(corrupt.string() + ": "));
  CHECK(error_of(Module::load((dir / "missing.so").string()))
            .starts_with("cannot load " + (dir / "missing.so").string() + ": "));
}

TEST_CASE("truncated or corrupted libraries are refused before dlopen maps them", "[vm][so]") {
  TempDir dir;
  auto exe = model_program(4, false);
  fs::path so =
      compile(dir, "model", std::string(kKernels) + embed(*exe, RELAX_KERNEL_ABI_VERSION));
  std::string bytes = relax::test::read_file(so);
  size_t n = bytes.size();
  // dlopen maps segments past the end of a truncated file, and the first touch of such a page
  // is SIGBUS: every cut, at page boundaries too, must be an error instead.
  std::vector<size_t> lengths = {0, 3, 16, 63, 64, 200, n / 2, n - 1};
  for (size_t len = 4096; len < n; len += 4096) lengths.push_back(len);
  for (size_t len : lengths) {
    CAPTURE(len);
    fs::path cut = dir / ("cut_" + std::to_string(len) + ".so");
    relax::test::write_file(cut, bytes.substr(0, len));
    std::string error = error_of(Module::load(cut.string()));
    CHECK(error.starts_with("cannot load " + cut.string() + ": "));
    CHECK(error.find("truncated") != std::string::npos);
  }
  // A section header table past the end of the file.
  std::string corrupt = bytes;
  corrupt[0x28 + 7] = '\x40';  // the high byte of e_shoff
  fs::path bad = dir / "bad_sections.so";
  relax::test::write_file(bad, corrupt);
  CHECK(error_of(Module::load(bad.string())).find("the section headers lie past the end") !=
        std::string::npos);
  relax::test::write_file(bad, "#!/bin/sh\n");
  CHECK(error_of(Module::load(bad.string())) ==
        "cannot load " + bad.string() + ": not an ELF shared library");
}

}  // namespace
}  // namespace relax::vm::test
