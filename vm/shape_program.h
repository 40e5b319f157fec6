// Postfix programs over int64 values: how `vm.builtin.shape_compute` computes a compound symbolic
// dimension (`n * 4`) from a function's shape heap, and how an executable's parameter struct info
// (executable.h) writes each dimension. One table of codes for the compiler and the runtime.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vm/result.h"

namespace relax::vm {

// A program is a list of (code, value) pairs. kPushImm pushes the value, kPushHeap pushes
// heap[value]; the operators (value ignored) replace the two top values by their result,
// kSelect the three top values (condition, true value, false value).
enum class ShapeProgramCode : int64_t {
  kPushImm = 0,
  kPushHeap = 1,
  kAdd = 2,
  kSub = 3,
  kMul = 4,
  kFloorDiv = 5,
  kFloorMod = 6,
  kMin = 7,
  kMax = 8,
  kTruncDiv = 9,
  kTruncMod = 10,
  kEQ = 11,  // comparisons give 0 or 1
  kNE = 12,
  kLT = 13,
  kLE = 14,
  kGT = 15,
  kGE = 16,
  kSelect = 17,
};
inline constexpr int64_t kMaxShapeProgramCode = 17;

// Why `words` is not a well-formed program (odd length, unknown code, a stack underflow, not
// exactly one value left, a heap slot outside [0, heap_size)); empty when it is.
std::string check_shape_program(std::span<const int64_t> words, int64_t heap_size);

// Runs a program; `heap` holds the slots it reads. Errors for malformed programs, heap slots out
// of range and division by zero.
Result<int64_t> eval_shape_program(std::span<const int64_t> words, std::span<const int64_t> heap);

// The heap slots a program reads, in order of first use.
std::vector<int64_t> shape_program_slots(std::span<const int64_t> words);

}  // namespace relax::vm
