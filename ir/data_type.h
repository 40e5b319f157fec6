// DataType: the scalar or vector element type of TIR values, tensors and prim values
// ("float32", "int64", "bool", "float16x4", "handle", "void", "float8_e4m3fn", ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relax::ir {

class DataType {
 public:
  // Type codes. The first five follow DLPack's numbering; the rest are ours (the runtime maps
  // them to DLPack codes where it needs to).
  enum class Code : uint8_t {
    kInt = 0,
    kUInt = 1,
    kFloat = 2,
    kHandle = 3,
    kBFloat = 4,
    kFloat8E4M3FN,
    kFloat8E5M2,
    kFloat8E4M3FNUZ,
    kFloat8E5M2FNUZ,
    kFloat8E4M3,
    kFloat8E3M4,
    kFloat8E4M3B11FNUZ,
    kFloat8E8M0FNU,
    kFloat6E2M3FN,
    kFloat6E3M2FN,
    kFloat4E2M1FN,
  };

  // Void (handle with 0 bits), the type of "no value".
  constexpr DataType() : code_(Code::kHandle), bits_(0), lanes_(1) {}
  // `lanes` > 0 is a fixed vector width; `lanes` < 0 encodes a scalable vector of -lanes * vscale.
  constexpr DataType(Code code, int bits, int lanes = 1)
      : code_(code), bits_(static_cast<uint8_t>(bits)), lanes_(static_cast<int16_t>(lanes)) {}

  static constexpr DataType Int(int bits, int lanes = 1) { return {Code::kInt, bits, lanes}; }
  static constexpr DataType UInt(int bits, int lanes = 1) { return {Code::kUInt, bits, lanes}; }
  static constexpr DataType Float(int bits, int lanes = 1) { return {Code::kFloat, bits, lanes}; }
  static constexpr DataType BFloat(int bits, int lanes = 1) { return {Code::kBFloat, bits, lanes}; }
  static constexpr DataType Bool(int lanes = 1) { return {Code::kUInt, 1, lanes}; }
  static constexpr DataType Handle() { return {Code::kHandle, 64, 1}; }
  static constexpr DataType Void() { return DataType(); }
  static constexpr DataType Int32() { return Int(32); }
  static constexpr DataType Int64() { return Int(64); }
  static constexpr DataType Float32() { return Float(32); }

  // Parses a dtype string; nullopt when it is not one. Accepts the legacy FP8 names
  // ("e4m3_float8", "e5m2_float8") as aliases.
  static std::optional<DataType> parse(std::string_view text);
  // The scalar dtypes by name ("bool", "int8" ... "float64", "bfloat16", the small floats,
  // "handle", "void"): the candidates of a "did you mean" for a misspelt dtype.
  static const std::vector<std::string>& scalar_names();

  Code code() const { return code_; }
  int bits() const { return bits_; }
  // Fixed lanes (1 for scalars); for scalable vectors the vscale multiplier, negated.
  int lanes() const { return lanes_; }
  bool is_scalable_vector() const { return lanes_ < 0; }
  bool is_scalar() const { return lanes_ == 1; }
  bool is_vector() const { return lanes_ != 1; }
  bool is_void() const { return code_ == Code::kHandle && bits_ == 0; }
  bool is_handle() const { return code_ == Code::kHandle && bits_ != 0; }
  bool is_bool() const { return code_ == Code::kUInt && bits_ == 1; }
  bool is_int() const { return code_ == Code::kInt; }
  bool is_uint() const { return code_ == Code::kUInt && bits_ != 1; }
  // Int, UInt or bool: the types index arithmetic and comparisons work on.
  bool is_integer_like() const { return code_ == Code::kInt || code_ == Code::kUInt; }
  bool is_float() const { return code_ == Code::kFloat; }
  bool is_bfloat() const { return code_ == Code::kBFloat; }
  bool is_float8_or_smaller() const { return code_ >= Code::kFloat8E4M3FN; }
  // Any floating-point type (IEEE, bfloat or a small float format).
  bool is_floating() const { return is_float() || is_bfloat() || is_float8_or_smaller(); }

  DataType element_of() const { return DataType(code_, bits_, 1); }
  DataType with_lanes(int lanes) const { return DataType(code_, bits_, lanes); }
  DataType with_bits(int bits) const { return DataType(code_, bits, lanes_); }
  // Storage size of one element in bytes, rounded up (bool counts as one byte).
  int bytes() const { return (bits_ + 7) / 8; }

  // The canonical name: "float32", "bool", "int64x4", "void", "handle", "uint1xvscalex4".
  std::string str() const;

  bool operator==(const DataType& other) const = default;

 private:
  Code code_;
  uint8_t bits_;
  int16_t lanes_;
};

}  // namespace relax::ir
