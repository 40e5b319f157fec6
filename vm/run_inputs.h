// Inputs for `relax run` (and the language server's Run) made from what the executable records of a
// function's parameters (vm::ParamInfo), so that a model library alone is enough: the symbolic
// dimensions --shape may size, and random values (--random) of a parameter's struct info.
#pragma once

#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "vm/executable.h"
#include "vm/value.h"

namespace relax::vm {

// The symbolic variables the parameters' dims use, in order of first use ("n", "k").
std::vector<std::string> symbolic_dims(const FunctionInfo& fn);

// The function's shape heap filled from --shape values: each slot named like a given size holds
// it; `known[i]` tells which slots were filled.
struct SizeHeap {
  std::vector<int64_t> values;
  std::vector<bool> known;
};
SizeHeap size_heap(const FunctionInfo& fn, const std::map<std::string, int64_t>& sizes);

// The sizes that random values of the parameters not `given` (by position; past its end: not
// given) need and `heap` does not hold: the symbolic variables their dims read, in order.
std::vector<std::string> missing_sizes(const FunctionInfo& fn, const SizeHeap& heap,
                                       const std::vector<bool>& given);

// A random value for parameter `index` of `fn` (floats in [-1, 1), integers in [0, 9], bools;
// shapes and integer prims from their dims), or nullopt with `error` set: the parameter is not
// of a kind --random makes, or a dim needs a size --shape did not give.
std::optional<Value> random_input(const FunctionInfo& fn, size_t index, const SizeHeap& heap,
                                  std::mt19937& rng, std::string& error);

}  // namespace relax::vm
