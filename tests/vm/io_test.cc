// Tensor I/O: .npy (every supported dtype, numpy's own header layout, clear errors),
// .safetensors (round trip, malformed inputs) and the summary printer.
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tests/vm/vm_test_util.h"
#include "vm/io/npy.h"
#include "vm/io/safetensors.h"
#include "vm/io/summary.h"

namespace relax::vm::test {
namespace {

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

// A tensor of `dtype` whose bytes are 0, 1, 2, ... (bools: 0/1).
Tensor pattern(std::span<const int64_t> shape, DLDataType dtype) {
  Tensor t = empty_tensor(shape, dtype);
  auto* p = static_cast<uint8_t*>(t->data());
  for (size_t i = 0; i < t->nbytes(); ++i)
    p[i] = is_bool(dtype) ? i % 2 : static_cast<uint8_t>(i * 7);
  return t;
}

const DLDataType kNpyTypes[] = {kFloat16, kFloat32, kFloat64, kInt8, kInt16,
                                kInt32,   kInt64,   kUInt8,   kBool, {kDLUInt, 16, 1}};

TEST_CASE("npy round-trips every supported dtype and shape", "[vm][io]") {
  std::vector<std::vector<int64_t>> shapes = {{}, {0}, {3}, {2, 3}, {2, 1, 4}};
  for (DLDataType dt : kNpyTypes) {
    for (const auto& shape : shapes) {
      Tensor t = pattern(shape, dt);
      auto bytes = encode_npy(*t);
      REQUIRE(bytes.ok());
      CHECK((bytes->size() - t->nbytes()) % 64 == 0);  // data starts 64-byte aligned
      auto back = parse_npy(*bytes);
      INFO(dtype_name(dt) << shape_string(shape));
      REQUIRE(back.ok());
      CHECK(tensor_equal(*t, **back));
    }
  }
  auto path = std::filesystem::temp_directory_path() / "relax_vm_io_test.npy";
  Tensor t = make_tensor({2, 2}, {1, 2, 3, 4});
  REQUIRE(write_npy(path.string(), *t).ok());
  auto back = read_npy(path.string());
  REQUIRE(back.ok());
  CHECK(tensor_equal(*t, **back));
  std::filesystem::remove(path);
  CHECK(error_of(read_npy("/nonexistent.npy")) == "cannot open /nonexistent.npy");
  CHECK(error_of(encode_npy(*empty_tensor({2}, kBFloat16))) ==
        "dtype bfloat16 has no .npy equivalent");
}

// The bytes numpy's np.save writes: magic, version, header length, the dict padded with spaces
// to a 64-byte boundary and a newline, then the data.
std::string numpy_file(const std::string& dict, const std::string& data, int version = 1) {
  size_t prefix = version == 1 ? 10 : 12;
  std::string header = dict;
  header.append(64 - (prefix + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(version);
  out += '\0';
  uint32_t len = static_cast<uint32_t>(header.size());
  out.append(reinterpret_cast<const char*>(&len), version == 1 ? 2 : 4);
  return out + header + data;
}

TEST_CASE("npy reads the headers numpy writes, and writes the same bytes", "[vm][io]") {
  int64_t values[6] = {0, 1, 2, 3, 4, 5};
  std::string data(reinterpret_cast<const char*>(values), sizeof values);
  // np.save(f, np.arange(6).reshape(2, 3))
  std::string file =
      numpy_file("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", data);
  CHECK(file.size() == 128 + 48);
  auto t = parse_npy(bytes_of(file));
  REQUIRE(t.ok());
  CHECK((*t)->dtype() == kInt64);
  CHECK(shape_string((*t)->shape()) == "[2, 3]");
  CHECK((*t)->data_as<int64_t>()[5] == 5);
  CHECK(encode_npy(**t).value() == bytes_of(file));

  // np.save of np.array([True, False, True]) and of a scalar np.float32(1.5)
  std::string bools = numpy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                                 std::string("\x01\x00\x01", 3));
  auto b = parse_npy(bytes_of(bools));
  REQUIRE(b.ok());
  CHECK((*b)->dtype() == kBool);
  CHECK(encode_npy(**b).value() == bytes_of(bools));
  float f = 1.5f;
  std::string scalar = numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
                                  std::string(reinterpret_cast<const char*>(&f), 4));
  auto s = parse_npy(bytes_of(scalar));
  REQUIRE(s.ok());
  CHECK((*s)->ndim() == 0);
  CHECK(encode_npy(**s).value() == bytes_of(scalar));

  // Version 2 and 3 headers, other key orders, double quotes and Python 2 longs.
  for (int version : {2, 3}) {
    auto v = parse_npy(bytes_of(numpy_file(
        "{\"shape\": (2L, 3L), \"fortran_order\": False, \"descr\": \"<i8\"}", data, version)));
    REQUIRE(v.ok());
    CHECK(tensor_equal(**v, **t));
  }
  // Fortran order is harmless with at most one non-unit dimension.
  CHECK(parse_npy(bytes_of(numpy_file("{'descr': '<i8', 'fortran_order': True, 'shape': (1, 6), }",
                                      data)))
            .ok());
}

TEST_CASE("npy errors say what is wrong", "[vm][io]") {
  std::string data(24, '\0');
  auto err = [&](const std::string& dict, const std::string& payload) {
    return error_of(parse_npy(bytes_of(numpy_file(dict, payload))));
  };
  CHECK(err("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", data) ==
        "Fortran-order arrays are not supported; save with np.ascontiguousarray");
  CHECK(err("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", data) ==
        "big-endian data ('>f4') is not supported; save it little-endian");
  CHECK(err("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", data) ==
        "unsupported dtype '<c8' (supported: float16/32/64, int8/16/32/64, uint8/16/32/64, bool)");
  CHECK(err("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", data) ==
        "unsupported dtype '<U3' (supported: float16/32/64, int8/16/32/64, uint8/16/32/64, bool)");
  CHECK(err("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", data) ==
        "invalid .npy header: structured dtypes are not supported");
  CHECK(err("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data.substr(0, 20)) ==
        "truncated .npy file: float32[2, 3] needs 24 bytes of data, 20 are left");
  CHECK(err("{'descr': '<f4', 'shape': (2, 3), }", data) ==
        "invalid .npy header: the header lacks 'descr', 'fortran_order' or 'shape'");
  CHECK(err("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }", data) ==
        "invalid .npy header: 'shape' must hold non-negative integers");
  CHECK(error_of(parse_npy(bytes_of("PK\x03\x04 not numpy"))) ==
        "not a .npy file (bad magic string)");
  std::string file =
      numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data);
  CHECK(error_of(parse_npy(bytes_of(file.substr(0, 40)))) ==
        "truncated .npy file: the header needs 118 bytes, 30 are left");
  file[6] = 4;
  CHECK(error_of(parse_npy(bytes_of(file))) == ".npy format version 4 is not supported");
  // Every truncation fails cleanly.
  std::string good =
      numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data);
  for (size_t n = 0; n < good.size(); ++n)
    REQUIRE_FALSE(parse_npy(bytes_of(good.substr(0, n))).ok());
}

TEST_CASE("safetensors round-trips tensors of every dtype and the metadata", "[vm][io]") {
  std::vector<NamedTensor> tensors;
  const DLDataType types[] = {kFloat16, kBFloat16, kFloat32, kFloat64, kInt8,
                              kInt16,   kInt32,    kInt64,   kUInt8,   kBool};
  int i = 0;
  for (DLDataType dt : types) {
    std::vector<int64_t> shape = {2, i % 3 + 1};
    tensors.push_back({"w" + std::to_string(i++), pattern(shape, dt)});
  }
  tensors.push_back({"empty", empty_tensor({0, 4}, kFloat32)});
  tensors.push_back({"scalar", make_tensor({}, {7})});
  std::map<std::string, std::string> meta = {{"format", "pt"}, {"author", "relax"}};
  auto bytes = encode_safetensors(tensors, meta);
  REQUIRE(bytes.ok());
  uint64_t header_size;
  std::memcpy(&header_size, bytes->data(), 8);
  CHECK(header_size % 8 == 0);
  auto file = parse_safetensors(*bytes);
  INFO((file ? "" : file.error().message));
  REQUIRE(file.ok());
  CHECK(file->metadata == meta);
  REQUIRE(file->tensors.size() == tensors.size());
  for (size_t k = 0; k < tensors.size(); ++k) {  // written in order, read back in data order
    CHECK(file->tensors[k].name == tensors[k].name);
    CHECK(tensor_equal(*file->tensors[k].tensor, *tensors[k].tensor));
  }
  auto path = std::filesystem::temp_directory_path() / "relax_vm_io_test.safetensors";
  REQUIRE(write_safetensors(path.string(), tensors, meta).ok());
  auto from_disk = read_safetensors(path.string());
  REQUIRE(from_disk.ok());
  CHECK(from_disk->tensors.size() == tensors.size());
  CHECK(tensor_equal(*from_disk->tensors[3].tensor, *tensors[3].tensor));
  std::filesystem::remove(path);
  CHECK(error_of(encode_safetensors({{"x", empty_tensor({1}, {kDLInt, 4, 1})}})) ==
        "tensor `x`: dtype int4 has no safetensors equivalent");
  CHECK(
      error_of(encode_safetensors({{"x", make_tensor({1}, {1})}, {"x", make_tensor({1}, {1})}})) ==
      "tensor name `x` is reserved or repeated");
}

// A safetensors file with `header` (JSON) and `data_size` zero bytes of data.
std::vector<uint8_t> st_file(const std::string& header, size_t data_size) {
  uint64_t n = header.size();
  std::string out(reinterpret_cast<const char*>(&n), 8);
  out += header;
  out.append(data_size, '\0');
  return bytes_of(out);
}

TEST_CASE("malformed safetensors files are rejected with the reason", "[vm][io]") {
  auto err = [](const std::string& header, size_t data) {
    return error_of(parse_safetensors(st_file(header, data)));
  };
  CHECK(parse_safetensors(
            st_file(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", 8))
            .ok());
  CHECK(err("{not json", 0) == "the safetensors header is not valid JSON");
  CHECK(err("[1, 2]", 0) == "the safetensors header is not a JSON object");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [2]}})", 8) ==
        "tensor `a`: needs dtype, shape and data_offsets");
  CHECK(err(R"({"a": {"dtype": "C64", "shape": [2], "data_offsets": [0, 8]}})", 8) ==
        "tensor `a`: unsupported dtype \"C64\"");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", 8) ==
        "tensor `a`: shape [-2] has a non-integer or negative dimension");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", 8) ==
        "tensor `a`: F32[3] takes 12 bytes but data_offsets span 8");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}})", 8) ==
        "tensor `a`: data_offsets [8, 16] lie outside the data (8 bytes)");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})", 8) ==
        "tensor `a`: data_offsets [8, 0] lie outside the data (8 bytes)");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                "b": {"dtype": "U8", "shape": [4], "data_offsets": [4, 8]}})",
            8) == "tensor `b` overlaps the tensor before it");
  CHECK(err(R"({"a": {"dtype": "U8", "shape": [4], "data_offsets": [4, 8]}})", 8) ==
        "the data has a hole at bytes [0, 4)");
  CHECK(err(R"({"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]}})", 8) ==
        "the data has 4 bytes no tensor describes");
  CHECK(err(R"({"__metadata__": {"k": 1}})", 0) == "__metadata__ value `k` is not a string");
  CHECK(err(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0]}})", 8) ==
        "tensor `a`: data_offsets must be [begin, end]");
  CHECK(error_of(parse_safetensors(std::vector<uint8_t>{1, 2, 3})) ==
        "truncated safetensors file (no header size)");
  auto file = st_file(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", 8);
  CHECK(error_of(parse_safetensors(std::span<const uint8_t>(file.data(), 20))) ==
        "truncated or corrupt safetensors file: header size 61 exceeds the 12 bytes left");
  for (size_t n = 0; n < file.size(); ++n) {
    REQUIRE_FALSE(parse_safetensors(std::span<const uint8_t>(file.data(), n)).ok());
  }
  auto path = std::filesystem::temp_directory_path() / "relax_vm_bad.safetensors";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(file.data()), 40);
  CHECK(error_of(read_safetensors(path.string())) ==
        path.string() +
            ": truncated or corrupt safetensors file: header size 61 exceeds the 32 bytes left");
  std::filesystem::remove(path);
}

TEST_CASE("tensor summaries: values, elision of large tensors, statistics", "[vm][io]") {
  CHECK(summarize_tensor(*make_tensor({2, 3}, {1, 2.5, -3, 0.125, 1e-7f, 100})) ==
        "float32[2, 3]\n"
        "[[1, 2.5, -3],\n"
        " [0.125, 1e-07, 100]]\n"
        "min -3, max 100, mean 16.7708");
  Tensor big = empty_tensor({2000}, kInt64);
  for (int64_t i = 0; i < 2000; ++i) big->data_as<int64_t>()[i] = i * 1000000007;
  CHECK(summarize_tensor(*big) ==
        "int64[2000]\n[0, 1000000007, 2000000014, ..., 1997000013979, 1998000013986, "
        "1999000013993]");
  Tensor cube = empty_tensor({2, 2, 2}, kInt32);
  for (int i = 0; i < 8; ++i) cube->data_as<int32_t>()[i] = i;
  CHECK(summarize_tensor(*cube) ==
        "int32[2, 2, 2]\n[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]");
  Tensor wide = empty_tensor({10, 200}, kUInt8);
  std::memset(wide->data(), 1, wide->nbytes());
  CHECK(summarize_tensor(*wide) ==
        "uint8[10, 200]\n"
        "[[1, 1, 1, ..., 1, 1, 1],\n [1, 1, 1, ..., 1, 1, 1],\n [1, 1, 1, ..., 1, 1, 1],\n ...,\n"
        " [1, 1, 1, ..., 1, 1, 1],\n [1, 1, 1, ..., 1, 1, 1],\n [1, 1, 1, ..., 1, 1, 1]]");
  Tensor flags = empty_tensor({3}, kBool);
  flags->data_as<uint8_t>()[0] = 1;
  flags->data_as<uint8_t>()[1] = 0;
  flags->data_as<uint8_t>()[2] = 1;
  CHECK(summarize_tensor(*flags) == "bool[3]\n[True, False, True]");
  Tensor half = empty_tensor({2}, kFloat16);
  half->data_as<uint16_t>()[0] = float_to_half(0.5f);
  half->data_as<uint16_t>()[1] = float_to_half(-2.0f);
  CHECK(summarize_tensor(*half, {.stats = false}) == "float16[2]\n[0.5, -2]");
  CHECK(summarize_tensor(*make_tensor({}, {3.25}), {.header = false}) ==
        "3.25\nmin 3.25, max 3.25, mean 3.25");
  CHECK(summarize_tensor(*empty_tensor({0, 3}, kFloat32)) == "float32[0, 3]\n[]");
  CHECK(summarize_tensor(*empty_tensor({2}, {kDLFloat, 32, 4})) == "float32x4[2]\n<32 bytes>");
}

TEST_CASE("half-precision conversions round to nearest even", "[vm][io]") {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f}) {
    CHECK(half_to_float(float_to_half(f)) == f);
  }
  CHECK(float_to_half(1e6f) == 0x7c00);                // overflow to infinity
  CHECK(float_to_half(1.0f + 1.0f / 4096) == 0x3c00);  // ties to even
  CHECK(bfloat16_to_float(float_to_bfloat16(1.5f)) == 1.5f);
  CHECK(dtype_name(*parse_dtype("float16x4")) == "float16x4");
  CHECK(parse_dtype("bool") == kBool);
  CHECK_FALSE(parse_dtype("float").has_value());
  CHECK_FALSE(parse_dtype("quux32").has_value());
}

TEST_CASE("DLPack exchange shares memory and runs the owner's deleter once", "[vm][io]") {
  Tensor t = make_tensor({2, 2}, {1, 2, 3, 4});
  DLManagedTensor* m = to_dlpack(t);
  CHECK(m->dl_tensor.data == t->data());
  CHECK(m->dl_tensor.ndim == 2);
  CHECK(t->use_count() == 2);
  Tensor back = from_dlpack(m);  // takes ownership of `m`
  CHECK(back->data() == t->data());
  CHECK(tensor_equal(*back, *t));
  back = Tensor();
  CHECK(t->use_count() == 1);  // the deleter released the exported reference

  static int deleted = 0;
  static float data[6] = {0, 1, 2, 3, 4, 5};
  static int64_t shape[2] = {3, 2}, strides[2] = {2, 1}, bad_strides[2] = {1, 3};
  deleted = 0;
  DLManagedTensor foreign{{data, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, strides, 4},
                          nullptr,
                          [](DLManagedTensor*) { ++deleted; }};
  {
    Tensor f = from_dlpack(&foreign);
    CHECK(f->data_as<float>()[0] == 1);  // byte_offset applied
    CHECK(shape_string(f->shape()) == "[3, 2]");
  }
  CHECK(deleted == 1);
  foreign.dl_tensor.strides = bad_strides;
  CHECK_THROWS_WITH(from_dlpack(&foreign),
                    "from_dlpack: a tensor with non-compact strides is not supported");
  CHECK(deleted == 1);
}

}  // namespace
}  // namespace relax::vm::test
