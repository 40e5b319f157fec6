// The end-to-end run cases of tests/compiler/e2e, as data: each a module's text and the calls a
// test makes on it (fresh inputs each time: some modules write into their inputs). The tests
// check each case against a C++ reference; round_trip_test.cc runs every case again from the
// text printed after each prefix of the default pipeline.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "vm/value.h"

namespace relax::test::e2e {

struct RunCall {
  std::string func = "main";
  std::vector<vm::Value> args;
};

struct RunCase {
  std::string name;
  std::string text;  // the module, as a .relax file holds it
  std::function<std::vector<RunCall>()> calls;
};

// Every case, in a fixed order; case_named fails the test when there is no such case.
const std::vector<RunCase>& run_cases();
const RunCase& case_named(const std::string& name);

// Uniform floats in [-1, 1) from `rng`, as a float32 tensor of `shape`.
vm::Value random_tensor(const std::vector<int64_t>& shape, std::mt19937& rng);
// Random small integers (-3..3) as floats, `n` of them: many ties.
std::vector<float> random_ties(size_t n, uint32_t seed);

}  // namespace relax::test::e2e
