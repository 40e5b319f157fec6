// Shared by the legalization numerics tests: a case is an op call on small random inputs, run
// through LegalizeOps and the TIR interpreter, compared with an independent C++ reference
// computed in double precision. Every case group records the ops it checked in tested_ops(), so
// one test can assert that every legalized op has a numerics case (numerics_groups.h).
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ir/data_type.h"
#include "tests/compiler/legalize/legalize_test_util.h"

namespace relax::legalize_test {

using ir::DataType;
using Shape = std::vector<int64_t>;
using Values = std::vector<double>;

inline const DataType F32 = DataType::Float32();

// The ops whose numerics a case has checked.
std::set<std::string>& tested_ops();

int64_t numel(const Shape& s);
Shape unravel(int64_t flat, const Shape& s);
int64_t ravel(const Shape& idx, const Shape& s);
// The element of `a` that numpy broadcasting maps to output index `oi`.
double bget(const HostArray& a, const Shape& oi);
// "(2, 3)" / "(4,)".
std::string dims(const Shape& s);
// "R.Tensor((2, 3), \"float32\")".
std::string tensor(const Shape& s, DataType t = F32);

struct Case {
  std::string op;                 // registry name, for the coverage list
  std::string call;               // the call text, arguments x0, x1, ...
  std::vector<HostArray> inputs;  // one per parameter
  DataType out_dtype = F32;
  Shape out_shape;
  std::function<Values(const std::vector<HostArray>&)> ref;
  double rtol = 1e-5;
  double atol = 1e-6;
};

// Legalizes `y = call` in a main over the inputs, runs the PrimFunc it calls, compares. When
// compile_cases() is on, also builds the module with the default pipeline (schedule, LLVM) and
// runs it on the VM, compared with the same reference.
void check(const Case& c);
bool& compile_cases();

HostArray rnd(Shape s, uint32_t seed, double lo = -2, double hi = 2, DataType t = F32);
Values map1(const HostArray& x, const std::function<double(double)>& f);
Values map2(const HostArray& a, const HostArray& b, const Shape& out,
            const std::function<double(double, double)>& f);
double sigmoid(double v);

}  // namespace relax::legalize_test
