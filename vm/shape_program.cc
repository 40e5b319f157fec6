// Checking and running the postfix shape programs of shape_program.h.
#include "vm/shape_program.h"

#include <algorithm>
#include <limits>

namespace relax::vm {

namespace {

// How many values an operator code takes from the stack.
int64_t operands(int64_t code) {
  return code == static_cast<int64_t>(ShapeProgramCode::kSelect) ? 3 : 2;
}

int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0 && ((a < 0) != (b < 0))) ? 1 : 0);
}

}  // namespace

std::string check_shape_program(std::span<const int64_t> words, int64_t heap_size) {
  if (words.size() % 2 != 0) return "a shape program has an odd number of words";
  int64_t depth = 0;
  for (size_t i = 0; i < words.size(); i += 2) {
    int64_t code = words[i], v = words[i + 1];
    if (code < 0 || code > kMaxShapeProgramCode) {
      return "unknown shape program code " + std::to_string(code);
    }
    if (code == static_cast<int64_t>(ShapeProgramCode::kPushHeap) && (v < 0 || v >= heap_size)) {
      return "shape program reads heap slot " + std::to_string(v) + " of " +
             std::to_string(heap_size);
    }
    if (code <= static_cast<int64_t>(ShapeProgramCode::kPushHeap)) {
      ++depth;
      continue;
    }
    if (depth < operands(code)) return "shape program code " + std::to_string(code) + " underflows";
    depth -= operands(code) - 1;
  }
  if (depth != 1) return "shape program leaves " + std::to_string(depth) + " values";
  return "";
}

Result<int64_t> eval_shape_program(std::span<const int64_t> words, std::span<const int64_t> heap) {
  using C = ShapeProgramCode;
  // The exact result must fit in int64: a shape computed at run time never wraps.
  auto overflow = [](int64_t a, const char* op, int64_t b) {
    return Error{"integer overflow in a symbolic shape expression: " + std::to_string(a) + " " +
                 op + " " + std::to_string(b) + " does not fit in int64"};
  };
  std::vector<int64_t> stack;
  if (words.size() % 2 != 0) return Error{"malformed shape program: odd number of words"};
  for (size_t i = 0; i < words.size(); i += 2) {
    int64_t code = words[i], v = words[i + 1];
    if (code == static_cast<int64_t>(C::kPushImm)) {
      stack.push_back(v);
      continue;
    }
    if (code == static_cast<int64_t>(C::kPushHeap)) {
      if (v < 0 || static_cast<size_t>(v) >= heap.size()) {
        return Error{"shape heap slot " + std::to_string(v) + " is out of range (" +
                     std::to_string(heap.size()) + " slots)"};
      }
      stack.push_back(heap[static_cast<size_t>(v)]);
      continue;
    }
    if (code < 0 || code > kMaxShapeProgramCode ||
        stack.size() < static_cast<size_t>(operands(code))) {
      return Error{"malformed shape program at code " + std::to_string(code)};
    }
    if (code == static_cast<int64_t>(C::kSelect)) {
      int64_t f = stack.back();
      stack.pop_back();
      int64_t t = stack.back();
      stack.pop_back();
      stack.back() = stack.back() != 0 ? t : f;
      continue;
    }
    int64_t b = stack.back();
    stack.pop_back();
    int64_t a = stack.back();
    int64_t r = 0;
    switch (static_cast<C>(code)) {
      case C::kFloorDiv:
      case C::kFloorMod:
      case C::kTruncDiv:
      case C::kTruncMod:
        if (b == 0) return Error{"division by zero in a symbolic shape expression"};
        if (b == -1 && a == std::numeric_limits<int64_t>::min()) return overflow(a, "//", b);
        break;
      default:
        break;
    }
    switch (static_cast<C>(code)) {
      case C::kAdd:
        if (__builtin_add_overflow(a, b, &r)) return overflow(a, "+", b);
        break;
      case C::kSub:
        if (__builtin_sub_overflow(a, b, &r)) return overflow(a, "-", b);
        break;
      case C::kMul:
        if (__builtin_mul_overflow(a, b, &r)) return overflow(a, "*", b);
        break;
      case C::kFloorDiv:
        r = floor_div(a, b);
        break;
      case C::kFloorMod:
        r = a - b * floor_div(a, b);
        break;
      case C::kMin:
        r = std::min(a, b);
        break;
      case C::kMax:
        r = std::max(a, b);
        break;
      case C::kTruncDiv:
        r = a / b;
        break;
      case C::kTruncMod:
        r = a % b;
        break;
      case C::kEQ:
        r = a == b;
        break;
      case C::kNE:
        r = a != b;
        break;
      case C::kLT:
        r = a < b;
        break;
      case C::kLE:
        r = a <= b;
        break;
      case C::kGT:
        r = a > b;
        break;
      case C::kGE:
        r = a >= b;
        break;
      default:
        return Error{"malformed shape program at code " + std::to_string(code)};
    }
    stack.back() = r;
  }
  if (stack.size() != 1) {
    return Error{"malformed shape program: " + std::to_string(stack.size()) + " values left"};
  }
  return stack.back();
}

std::vector<int64_t> shape_program_slots(std::span<const int64_t> words) {
  std::vector<int64_t> slots;
  for (size_t i = 0; i + 1 < words.size(); i += 2) {
    if (words[i] == static_cast<int64_t>(ShapeProgramCode::kPushHeap) &&
        std::find(slots.begin(), slots.end(), words[i + 1]) == slots.end())
      slots.push_back(words[i + 1]);
  }
  return slots;
}

}  // namespace relax::vm
