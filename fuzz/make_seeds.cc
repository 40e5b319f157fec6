// Writes seed inputs for the binary-format harnesses into a folder: .npy files of every dtype the
// reader takes (scalar, empty, 1-d and 3-d shapes), .safetensors files (several tensors and
// metadata, and none), and a hand-built executable touching every constant and operand kind.
// Usage: make_seeds OUT_DIR   (writes OUT_DIR/npy, OUT_DIR/safetensors, OUT_DIR/executable).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "vm/executable.h"
#include "vm/io/npy.h"
#include "vm/io/safetensors.h"

using namespace relax::vm;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// A tensor whose bytes count up, so that every element differs.
Tensor counting(std::vector<int64_t> shape, DLDataType dtype) {
  Tensor t = empty_tensor(shape, dtype);
  auto* p = static_cast<uint8_t*>(t->data());
  for (size_t i = 0; i < t->nbytes(); ++i) p[i] = static_cast<uint8_t>(is_bool(dtype) ? i % 2 : i);
  return t;
}

const std::vector<DLDataType>& dtypes() {
  static const std::vector<DLDataType> all = {
      kFloat16,         kFloat32,         kFloat64,         kInt8, kInt16, kInt32, kInt64, kUInt8,
      {kDLUInt, 16, 1}, {kDLUInt, 32, 1}, {kDLUInt, 64, 1}, kBool};
  return all;
}

const std::vector<std::vector<int64_t>>& shapes() {
  static const std::vector<std::vector<int64_t>> all = {{}, {0, 4}, {5}, {2, 3, 2}};
  return all;
}

void npy_seeds(const fs::path& dir) {
  for (DLDataType dtype : dtypes())
    for (const auto& shape : shapes()) {
      std::string name = dtype_name(dtype);
      for (int64_t d : shape) name += "_" + std::to_string(d);
      auto bytes = encode_npy(*counting(shape, dtype));
      if (bytes) write(dir / (name + ".npy"), *bytes);
    }
}

void safetensors_seeds(const fs::path& dir) {
  std::vector<NamedTensor> tensors;
  int i = 0;
  for (DLDataType dtype : {kFloat32, kInt64, kBFloat16, kBool, kUInt8}) {
    tensors.push_back({"w" + std::to_string(i), counting(shapes()[i % 4], dtype)});
    ++i;
  }
  auto many = encode_safetensors(tensors, {{"format", "pt"}, {"note", "quote \" \\ \n"}});
  if (many) write(dir / "many.safetensors", *many);
  auto one = encode_safetensors({{"weight", counting({2, 2}, kFloat16)}});
  if (one) write(dir / "one.safetensors", *one);
  auto none = encode_safetensors({});
  if (none) write(dir / "empty.safetensors", *none);
}

void executable_seeds(const fs::path& dir) {
  ExecutableBuilder b;
  b.declare_function("main", {"x", "n"});
  int64_t inner = b.declare_function("inner", {"t"});
  int64_t kernel = b.declare_kernel("add");
  b.begin_function("main");
  b.set_shape_slot_names({"n", "n + 1"});
  ParamInfo x{ParamInfo::Kind::kTensor,
              "R.Tensor((n,), dtype=\"float32\")",
              "float32",
              1,
              {{"n", {1, 0}}},
              {}};
  ParamInfo tuple{ParamInfo::Kind::kTuple,
                  "R.Tuple(R.Prim(\"int64\"), R.Shape(ndim=2))",
                  "",
                  -1,
                  {},
                  {{ParamInfo::Kind::kPrim, "R.Prim(\"int64\")", "int64", -1, {}, {}},
                   {ParamInfo::Kind::kShape, "R.Shape(ndim=2)", "", 2, {}, {}}}};
  b.set_param_info({x, tuple});
  int64_t heap = b.new_register(), cond = b.new_register(), out = b.new_register();
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), b.int_arg(2)}, heap);
  b.emit_call("vm.builtin.read_if_cond", {Arg::reg(1)}, cond);
  int64_t branch = b.emit_if(cond);
  b.emit_call(inner, {Arg::reg(0)}, out);
  int64_t done = b.emit_goto();
  b.patch_target(branch, b.next_instr());
  b.emit_call(kernel, {Arg::reg(0), b.constant(Value(counting({3}, kFloat32))), Arg::reg(0)});
  b.emit_call("vm.builtin.make_tuple",
              {b.int_arg(int64_t{1} << 60), b.float_arg(-0.5), b.dtype_arg(kInt8),
               b.shape_arg({2, 3}), b.string_arg("text"), Arg::func(inner)},
              out);
  b.patch_target(done, b.next_instr());
  b.emit_ret(out);
  b.end_function();
  b.begin_function("inner");
  b.emit_ret(0);
  b.end_function();
  auto exe = b.finish();
  if (!exe) {
    std::fprintf(stderr, "make_seeds: the sample executable is invalid: %s\n",
                 exe.error().message.c_str());
    return;
  }
  write(dir / "sample.rlxexe", (*exe)->save());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR\n");
    return 2;
  }
  fs::path out = argv[1];
  for (const char* sub : {"npy", "safetensors", "executable"}) fs::create_directories(out / sub);
  npy_seeds(out / "npy");
  safetensors_seeds(out / "safetensors");
  executable_seeds(out / "executable");
  return 0;
}
