// A reference interpreter of TIR: evaluates a PrimFunc (block-level, as legalization produces
// it, or lowered to loops) on host arrays. Blocks bind their iteration variables, run their init
// on the first iteration of their reduce axes and allocate their alloc_buffers; loops, lets,
// conditionals, stores and loads run as written. Values are kept as double (floats, rounded to
// float32 after every operation on float32 or float16 values: float16 is not emulated more
// precisely) or int64 (integers, bool). It is slow and
// simple on purpose: tests use it as the numeric oracle of legalization.
// It does not check the function's well-formedness beyond what evaluation needs; errors
// (unknown intrinsic, out-of-bounds access, shape mismatch) throw EvalError.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/data_type.h"
#include "ir/expr.h"
#include "ir/tir.h"

namespace relax::compiler::tir_eval {

using ir::DataType;

class EvalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A scalar: floats in `f`, integers and bools in `i`.
struct Scalar {
  DataType dtype = DataType::Float32();
  double f = 0;
  int64_t i = 0;

  static Scalar of_float(DataType t, double v);
  static Scalar of_int(DataType t, int64_t v);
  double as_double() const { return dtype.is_floating() ? f : static_cast<double>(i); }
  int64_t as_int() const { return dtype.is_floating() ? static_cast<int64_t>(f) : i; }
};

// A dense row-major array of float32/float64/float16 (held as double) or integer/bool (held as
// int64) elements.
struct HostArray {
  DataType dtype = DataType::Float32();
  std::vector<int64_t> shape;
  std::vector<double> f;   // when dtype is floating
  std::vector<int64_t> i;  // otherwise

  HostArray() = default;
  HostArray(DataType t, std::vector<int64_t> s);
  int64_t size() const;
  double get(int64_t k) const { return dtype.is_floating() ? f[k] : static_cast<double>(i[k]); }
  void set(int64_t k, const Scalar& v);
  Scalar at(int64_t k) const;
};

// One argument of a call: an array (for a buffer parameter) or a scalar.
struct Arg {
  HostArray* array = nullptr;
  Scalar scalar;
  Arg(HostArray* a) : array(a) {}  // NOLINT
  Arg(Scalar s) : scalar(s) {}     // NOLINT
};

// Runs `func` with `args` in parameter order; buffer parameters write into their arrays.
// Symbolic dims of parameter buffers are bound from the arrays' shapes.
void run(const ir::tir::PrimFunc& func, const std::vector<Arg>& args);

// Conversions with the bytes of constants (row-major, little-endian): float32/64, int8/16/32/64,
// uint8/16/32/64 and bool. Other dtypes throw EvalError.
HostArray from_tensor_data(const ir::TensorData& data);
ir::TensorData to_tensor_data(const HostArray& array);

// Rounds `v` to the precision of `t` (float32; float16 as float32) and wraps integers to their
// width.
Scalar normalize(DataType t, Scalar v);

}  // namespace relax::compiler::tir_eval
