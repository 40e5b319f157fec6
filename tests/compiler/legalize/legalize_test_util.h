// Helpers of the legalization tests: parse + normalize + legalize a .relax text, run a legalized
// PrimFunc through the TIR interpreter, random inputs and closeness checks.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compiler/tir_eval/tir_eval.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::legalize_test {

using compiler::tir_eval::HostArray;

struct Legalized {
  ir::Ref<ir::IRModule> module;
  ir::DiagnosticBag diags;
  std::string text;  // printed module
};

// Parses (failing the test on errors), normalizes and legalizes `source`.
Legalized legalize_text(const std::string& source);

// The PrimFunc called by the (single) call_tir of function `fn` (the `index`-th call_tir).
ir::Ref<ir::tir::PrimFunc> called_prim_func(const ir::IRModule& m, const std::string& fn = "main",
                                            size_t index = 0);

// Runs `func` on `inputs`, allocating an output of `out_shape`/`out_dtype`; returns the output.
HostArray run_func(const ir::tir::PrimFunc& func, std::vector<HostArray> inputs,
                   ir::DataType out_dtype, std::vector<int64_t> out_shape);

// Uniform random values in [lo, hi) (integers: rounded), deterministic per seed.
HostArray random_array(ir::DataType dtype, std::vector<int64_t> shape, double lo, double hi,
                       uint32_t seed);

// Max relative error check: |a - b| <= atol + rtol * |b| for every element; returns "" or a
// message.
std::string compare(const HostArray& got, const std::vector<double>& want, double rtol = 1e-5,
                    double atol = 1e-6);

}  // namespace relax::legalize_test
