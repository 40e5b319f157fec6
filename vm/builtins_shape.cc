// The shape heap builtins (SEMANTICS.md §5.3) and the struct-info checks at function
// boundaries. Their messages name the function, what is checked (the `err` argument the
// compiler passes, e.g. "argument `x` (parameter 0)"), the dimension and both values:
//   main: argument `x` (parameter 0): dimension 1 is 5 but the function expects 4
//   main: argument `x` (parameter 0): dimension 0 is 2 but the function expects n = 3 from an
//   earlier dimension
#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

#include "vm/builtins_internal.h"
#include "vm/shape_program.h"

namespace relax::vm::builtin {

namespace {

// The heap's slots (null when the function has none).
std::span<int64_t> heap_arg(ArgList args, int64_t i) {
  const Value& v = args[i];
  if (v.is_null()) return {};
  const TensorObj* t = v.as_tensor();
  if (!t || t->dtype() != kInt64 || t->ndim() != 1) {
    throw_error("argument " + std::to_string(i) + " must be the shape heap, but is " +
                describe_value(v));
  }
  return {t->data_as<int64_t>(), static_cast<size_t>(t->shape()[0])};
}

int64_t& heap_slot(std::span<int64_t> heap, int64_t r) {
  if (r < 0 || static_cast<size_t>(r) >= heap.size()) {
    throw_error("shape heap slot " + std::to_string(r) + " is out of range (" +
                std::to_string(heap.size()) + " slots)");
  }
  return heap[static_cast<size_t>(r)];
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// "n = 3 from an earlier dimension" for slot r holding 3.
std::string slot_text(VirtualMachine& vm, int64_t r, int64_t value) {
  const auto& names = vm.current_function().shape_slot_names;
  std::string name = static_cast<size_t>(r) < names.size() ? names[static_cast<size_t>(r)]
                                                           : "slot " + std::to_string(r);
  return name + " = " + std::to_string(value) +
         (is_identifier(name) || static_cast<size_t>(r) >= names.size()
              ? " from an earlier dimension"
              : " from earlier dimensions");
}

std::string plural(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Checks `actual` against heap code `code`/`r`; `dim` is the dimension's index, or -1 for a
// prim value (messages only: no string is built unless the check fails).
void match_one(VirtualMachine& vm, const Value& err, std::span<int64_t> heap, int64_t code,
               int64_t r, int64_t actual, int64_t dim) {
  auto what = [dim] { return dim < 0 ? std::string("value") : "dimension " + std::to_string(dim); };
  switch (static_cast<MatchShapeCode>(code)) {
    case MatchShapeCode::kAssertEqualToImm:
      if (actual != r) {
        fail_checked(vm, err,
                     what() + " is " + std::to_string(actual) + " but the function expects " +
                         std::to_string(r));
      }
      return;
    case MatchShapeCode::kStoreToHeap:
      heap_slot(heap, r) = actual;
      return;
    case MatchShapeCode::kNoOp:
      return;
    case MatchShapeCode::kAssertEqualToLoad: {
      int64_t expect = heap_slot(heap, r);
      if (actual != expect) {
        fail_checked(vm, err,
                     what() + " is " + std::to_string(actual) + " but the function expects " +
                         slot_text(vm, r, expect));
      }
      return;
    }
  }
  throw_error("unknown match code " + std::to_string(code));
}

}  // namespace

void alloc_shape_heap(VirtualMachine& vm, ArgList args, Value* result) {
  int64_t size = int_arg(args, 1, "size");
  if (size < 0) throw_error("negative heap size " + std::to_string(size));
  *result = Value(empty_tensor(std::span<const int64_t>(&size, 1), kInt64, kCPU, vm.allocator()));
}

void match_shape(VirtualMachine& vm, ArgList args, Value*) {
  int64_t n = int_arg(args, 2, "n");
  if (n < 0 || args.size() != 4 + 2 * n) {
    throw_error("expected " + std::to_string(4 + 2 * std::max<int64_t>(n, 0)) + " arguments for " +
                std::to_string(n) + " dimensions, got " + std::to_string(args.size()));
  }
  const Value& err = args[3 + 2 * n];
  const Value& value = args[0];
  std::span<const int64_t> dims;
  if (const TensorObj* t = value.as_tensor()) {
    dims = t->shape();
  } else if (const ShapeObj* s = value.as_shape()) {
    dims = s->dims();
  } else {
    fail_checked(vm, err, "expected a tensor or a shape but got " + describe_value(value));
  }
  if (static_cast<int64_t>(dims.size()) != n) {
    fail_checked(vm, err,
                 "has " + plural(static_cast<int64_t>(dims.size()), "dimension", "dimensions") +
                     " (shape " + shape_string(dims) + ") but the function expects " +
                     std::to_string(n));
  }
  std::span<int64_t> heap = heap_arg(args, 1);
  for (int64_t i = 0; i < n; ++i) {
    match_one(vm, err, heap, int_arg(args, 3 + 2 * i, "code"), int_arg(args, 4 + 2 * i, "r"),
              dims[static_cast<size_t>(i)], i);
  }
}

void match_prim_value(VirtualMachine& vm, ArgList args, Value*) {
  const Value& err = args[4];
  const Value& value = args[0];
  if (value.kind() != ValueKind::kInt) {
    fail_checked(vm, err, "expected an int but got " + describe_value(value));
  }
  match_one(vm, err, heap_arg(args, 1), int_arg(args, 2, "code"), int_arg(args, 3, "r"),
            value.as_int(), -1);
}

static int64_t make_one(std::span<int64_t> heap, int64_t code, int64_t r) {
  switch (static_cast<MakeShapeCode>(code)) {
    case MakeShapeCode::kUseImm:
      return r;
    case MakeShapeCode::kLoadShape:
      return heap_slot(heap, r);
  }
  throw_error("unknown make_shape code " + std::to_string(code));
}

void make_shape(VirtualMachine&, ArgList args, Value* result) {
  int64_t n = int_arg(args, 1, "n");
  if (n < 0 || args.size() != 2 + 2 * n) {
    throw_error("expected " + std::to_string(2 + 2 * std::max<int64_t>(n, 0)) + " arguments for " +
                std::to_string(n) + " dimensions, got " + std::to_string(args.size()));
  }
  std::span<int64_t> heap = heap_arg(args, 0);
  std::vector<int64_t> dims(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    dims[static_cast<size_t>(i)] =
        make_one(heap, int_arg(args, 2 + 2 * i, "code"), int_arg(args, 3 + 2 * i, "r"));
  }
  *result = Value::shape(std::move(dims));
}

void make_prim_value(VirtualMachine&, ArgList args, Value* result) {
  *result = Value(make_one(heap_arg(args, 0), int_arg(args, 1, "code"), int_arg(args, 2, "r")));
}

// heap[dst] = a postfix program (shape_program.h) of the remaining (code, value) arguments.
void shape_compute(VirtualMachine& vm, ArgList args, Value*) {
  std::span<int64_t> heap = heap_arg(args, 0);
  int64_t dst = int_arg(args, 1, "dst");
  if ((args.size() - 2) % 2 != 0 || args.size() < 4) {
    throw_error("expected (heap, dst, code, value, ...) pairs, got " + std::to_string(args.size()) +
                " arguments");
  }
  std::vector<int64_t> words;
  words.reserve(static_cast<size_t>(args.size() - 2));
  for (int64_t i = 2; i < args.size(); ++i) words.push_back(int_arg(args, i, "code or value"));
  Result<int64_t> value = eval_shape_program(words, heap);
  // Named after the function, as every run-time error of a shape is.
  if (!value) throw VMError(vm.current_function().name + ": " + value.error().message, true);
  heap_slot(heap, dst) = *value;
}

void check_tensor_info(VirtualMachine& vm, ArgList args, Value*) {
  const Value& value = args[0];
  const Value& err = args[3];
  int64_t ndim = int_arg(args, 1, "ndim");
  const TensorObj* t = value.as_tensor();
  if (!t) fail_checked(vm, err, "expected a tensor but got " + describe_value(value));
  if (ndim != -1 && t->ndim() != ndim) {
    fail_checked(vm, err,
                 "expected a tensor of " + plural(ndim, "dimension", "dimensions") + " but got " +
                     std::to_string(t->ndim()) + " (shape " + shape_string(t->shape()) + ")");
  }
  const Value& dtype = args[2];
  if (dtype.kind() == ValueKind::kDType && t->dtype() != dtype.as_dtype()) {
    fail_checked(
        vm, err,
        "expected dtype " + dtype_name(dtype.as_dtype()) + " but got " + dtype_name(t->dtype()));
  }
}

void check_shape_info(VirtualMachine& vm, ArgList args, Value*) {
  const Value& value = args[0];
  const Value& err = args[2];
  int64_t ndim = int_arg(args, 1, "ndim");
  const ShapeObj* s = value.as_shape();
  if (!s) fail_checked(vm, err, "expected a shape but got " + describe_value(value));
  if (ndim != -1 && static_cast<int64_t>(s->size()) != ndim) {
    fail_checked(vm, err,
                 "expected a shape of " + plural(ndim, "dimension", "dimensions") + " but got " +
                     describe_value(value));
  }
}

void check_prim_value_info(VirtualMachine& vm, ArgList args, Value*) {
  const Value& value = args[0];
  const Value& dtype = args[1];
  const Value& err = args[2];
  bool ok = value.kind() == ValueKind::kInt || value.kind() == ValueKind::kFloat;
  std::string expect = "a prim value";
  if (dtype.kind() == ValueKind::kDType) {
    DLDataType t = dtype.as_dtype();
    expect = "a value of dtype " + dtype_name(t);
    ok = is_float(t) ? value.kind() == ValueKind::kFloat : value.kind() == ValueKind::kInt;
  }
  if (!ok) fail_checked(vm, err, "expected " + expect + " but got " + describe_value(value));
}

void check_tuple_info(VirtualMachine& vm, ArgList args, Value*) {
  const Value& value = args[0];
  const Value& err = args[2];
  int64_t size = int_arg(args, 1, "size");
  const TupleObj* t = value.as_tuple();
  if (!t) fail_checked(vm, err, "expected a tuple but got " + describe_value(value));
  if (size != -1 && static_cast<int64_t>(t->size()) != size) {
    fail_checked(vm, err,
                 "expected a tuple of " + plural(size, "field", "fields") + " but got " +
                     std::to_string(t->size()));
  }
}

void check_func_info(VirtualMachine& vm, ArgList args, Value*) {
  const Value& value = args[0];
  if (value.kind() != ValueKind::kClosure && value.kind() != ValueKind::kFunction) {
    fail_checked(vm, args[1], "expected a function but got " + describe_value(value));
  }
}

}  // namespace relax::vm::builtin
