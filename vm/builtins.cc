// The builtin table (the one place builtins are registered) and the builtins other than the
// shape heap and struct-info checks.
#include "vm/builtins.h"

#include <ostream>

#include "vm/builtins_internal.h"

namespace relax::vm {
namespace builtin {

static std::string arg_name(int64_t i, const char* what) {
  return "argument " + std::to_string(i) + " (" + what + ")";
}

int64_t int_arg(ArgList args, int64_t i, const char* what) {
  const Value& v = args[i];
  if (v.kind() != ValueKind::kInt) {
    throw_error(arg_name(i, what) + " must be an int, but is " + describe_value(v));
  }
  return v.as_int();
}

const TensorObj& tensor_arg(ArgList args, int64_t i, const char* what) {
  const TensorObj* t = args[i].as_tensor();
  if (!t) throw_error(arg_name(i, what) + " must be a tensor, but is " + describe_value(args[i]));
  return *t;
}

const ShapeObj& shape_arg(ArgList args, int64_t i, const char* what) {
  const ShapeObj* s = args[i].as_shape();
  if (!s) throw_error(arg_name(i, what) + " must be a shape, but is " + describe_value(args[i]));
  return *s;
}

const std::string& string_arg(ArgList args, int64_t i, const char* what) {
  const StringObj* s = args[i].as_string();
  if (!s) throw_error(arg_name(i, what) + " must be a string, but is " + describe_value(args[i]));
  return s->str();
}

void fail_checked(VirtualMachine& vm, const Value& err, const std::string& what) {
  std::string where = vm.current_function().name;
  if (const StringObj* s = err.as_string(); s && !s->str().empty()) where += ": " + s->str();
  throw VMError(where + ": " + what, true);
}

namespace {

void null_value(VirtualMachine&, ArgList, Value*) {}

void copy(VirtualMachine&, ArgList args, Value* result) {
  *result = args[0];
}

void alloc_storage(VirtualMachine& vm, ArgList args, Value* result) {
  const ShapeObj& size = shape_arg(args, 1, "size");
  int64_t device_index = int_arg(args, 2, "device_index");
  if (size.size() != 1 || size[0] < 0) {
    throw_error("the size must be a shape of one non-negative dimension [nbytes], not " +
                describe_value(args[1]));
  }
  if (device_index != -1 && device_index != 0) {
    throw_error("device index " + std::to_string(device_index) +
                " does not exist (this VM runs on " + device_name(vm.allocator()->device()) + ")");
  }
  *result = Value(make_ref<StorageObj>(vm.allocator(), static_cast<size_t>(size[0])));
}

void alloc_tensor(VirtualMachine&, ArgList args, Value* result) {
  const StorageObj* storage = args[0].as_storage();
  if (!storage)
    throw_error("argument 0 (storage) must be a storage, but is " + describe_value(args[0]));
  int64_t offset = int_arg(args, 1, "offset");
  const ShapeObj& shape = shape_arg(args, 2, "shape");
  if (args[3].kind() != ValueKind::kDType) {
    throw_error("argument 3 (dtype) must be a dtype, but is " + describe_value(args[3]));
  }
  DLDataType dtype = args[3].as_dtype();
  int64_t numel = shape_numel(shape.dims());
  int64_t nbytes = 0;
  if (numel < 0 || __builtin_mul_overflow(numel, dtype_bytes(dtype), &nbytes) || offset < 0 ||
      static_cast<uint64_t>(offset) + static_cast<uint64_t>(nbytes) > storage->nbytes()) {
    throw_error("a tensor " + dtype_name(dtype) + shape_string(shape.dims()) + " (" +
                std::to_string(nbytes) + " bytes) at offset " + std::to_string(offset) +
                " does not fit in a storage of " + std::to_string(storage->nbytes()) + " bytes");
  }
  *result = Value(make_ref<TensorObj>(Ref<StorageObj>(const_cast<StorageObj*>(storage)),
                                      static_cast<size_t>(offset), shape.dims(), dtype));
}

void reshape(VirtualMachine&, ArgList args, Value* result) {
  tensor_arg(args, 0, "tensor");
  const ShapeObj& shape = shape_arg(args, 1, "shape");
  *result = Value(reshape_view(args[0].tensor(), shape.dims()));
}

// A view of x's storage with another shape, dtype or byte offset (each null or an empty tuple:
// unchanged), checked to fit in the storage.
void tensor_view(VirtualMachine&, ArgList args, Value* result) {
  const TensorObj& x = tensor_arg(args, 0, "tensor");
  auto unchanged = [&](int64_t i) {
    const Value& v = args[i];
    return v.is_null() || (v.as_tuple() && v.as_tuple()->size() == 0);
  };
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
  if (!unchanged(1)) {
    const ShapeObj& s = shape_arg(args, 1, "shape");
    shape.assign(s.dims().begin(), s.dims().end());
  }
  DLDataType dtype = x.dtype();
  if (!unchanged(2)) {
    if (args[2].kind() != ValueKind::kDType) throw_error("view: `dtype` must be a dtype");
    dtype = args[2].as_dtype();
  }
  int64_t offset = unchanged(3) ? 0 : int_arg(args, 3, "relative_byte_offset");
  for (int64_t d : shape) {
    if (d < 0) throw_error("view: negative dimension in " + shape_string(shape));
  }
  int64_t n = shape_numel(shape), bytes = 0, begin = 0, end = 0;
  if (n < 0 || __builtin_mul_overflow(n, dtype_bytes(dtype), &bytes)) {
    throw_error("view: the shape " + shape_string(shape) + " of " + dtype_name(dtype) +
                " has more bytes than an int64 counts");
  }
  // Every sum is checked: an offset near 2^63 must not wrap around into the storage.
  if (offset < 0 || __builtin_add_overflow(static_cast<int64_t>(x.offset()), offset, &begin) ||
      __builtin_add_overflow(begin, bytes, &end) ||
      end > static_cast<int64_t>(x.storage()->nbytes())) {
    throw_error("view: " + std::to_string(bytes) + " bytes at relative offset " +
                std::to_string(offset) + " do not fit in the tensor's storage of " +
                std::to_string(x.storage()->nbytes()) + " bytes (the tensor starts at byte " +
                std::to_string(x.offset()) + ")");
  }
  *result = Value(make_ref<TensorObj>(x.storage(), static_cast<size_t>(begin), shape, dtype));
}

void shape_to_tensor(VirtualMachine&, ArgList args, Value* result) {
  const ShapeObj& s = shape_arg(args, 0, "shape");
  std::vector<int64_t> dims(s.dims().begin(), s.dims().end());
  std::vector<int64_t> len{static_cast<int64_t>(dims.size())};
  *result = Value(tensor_from_bytes(len, kInt64, dims.data()));
}

void shape_of(VirtualMachine&, ArgList args, Value* result) {
  const TensorObj& t = tensor_arg(args, 0, "tensor");
  *result = Value::shape(std::vector<int64_t>(t.shape().begin(), t.shape().end()));
}

void tensor_to_shape(VirtualMachine&, ArgList args, Value* result) {
  const TensorObj& t = tensor_arg(args, 0, "tensor");
  DLDataType dt = t.dtype();
  if (t.ndim() != 1 || dt.code != kDLInt || (dt.bits != 16 && dt.bits != 32 && dt.bits != 64) ||
      dt.lanes != 1) {
    throw_error("expected a 1-d int16/int32/int64 tensor, got " + describe_value(args[0]));
  }
  Tensor host;
  const TensorObj* src = &t;
  if (t.device().device_type != kDLCPU) {
    host = clone_tensor(t, kCPU);
    src = host.get();
  }
  std::vector<int64_t> dims(static_cast<size_t>(src->numel()));
  for (size_t i = 0; i < dims.size(); ++i) {
    switch (dt.bits) {
      case 16:
        dims[i] = src->data_as<int16_t>()[i];
        break;
      case 32:
        dims[i] = src->data_as<int32_t>()[i];
        break;
      default:
        dims[i] = src->data_as<int64_t>()[i];
        break;
    }
  }
  *result = Value::shape(std::move(dims));
}

void make_tuple(VirtualMachine&, ArgList args, Value* result) {
  std::vector<Value> fields(static_cast<size_t>(args.size()));
  for (int64_t i = 0; i < args.size(); ++i) fields[static_cast<size_t>(i)] = args[i];
  *result = Value::tuple(std::move(fields));
}

void tuple_getitem(VirtualMachine&, ArgList args, Value* result) {
  const TupleObj* t = args[0].as_tuple();
  if (!t) throw_error("argument 0 (tuple) must be a tuple, but is " + describe_value(args[0]));
  int64_t i = int_arg(args, 1, "index");
  if (i < 0 || i >= static_cast<int64_t>(t->size())) {
    throw_error("index " + std::to_string(i) + " is out of range for a tuple of " +
                std::to_string(t->size()));
  }
  *result = (*t)[static_cast<size_t>(i)];
}

// The truth of a condition: an int, or a one-element bool/int tensor.
bool truth(const Value& v, const char* what) {
  if (v.kind() == ValueKind::kInt) return v.as_int() != 0;
  if (const TensorObj* t = v.as_tensor()) {
    DLDataType dt = t->dtype();
    if (t->numel() == 1 && dt.lanes == 1 && (dt.code == kDLInt || dt.code == kDLUInt)) {
      Tensor host = t->device().device_type == kDLCPU ? Tensor() : clone_tensor(*t, kCPU);
      const TensorObj& h = host ? *host : *t;
      return load_as_double(h.data(), dt, 0) != 0;
    }
  }
  throw_error(std::string(what) + " must be an int or a one-element bool/int tensor, but is " +
              describe_value(v));
}

void read_if_cond(VirtualMachine&, ArgList args, Value* result) {
  *result = Value(static_cast<int64_t>(truth(args[0], "the condition")));
}

void make_closure(VirtualMachine&, ArgList args, Value* result) {
  const Value& f = args[0];
  std::vector<Value> captured;
  int64_t index;
  if (const ClosureObj* c = f.as_closure()) {
    index = c->function();
    captured.assign(c->captured().begin(), c->captured().end());
  } else if (f.kind() == ValueKind::kFunction) {
    index = f.as_int();
  } else {
    throw_error("argument 0 (func) must be a function, but is " + describe_value(f));
  }
  for (int64_t i = 1; i < args.size(); ++i) captured.push_back(args[i]);
  *result = Value(make_ref<ClosureObj>(index, std::move(captured)));
}

// The general form; the dispatch loop handles calls of closures over VM functions itself.
void invoke_closure(VirtualMachine& vm, ArgList args, Value* result) {
  const Value& clo = args[1];
  std::vector<Value> call_args;
  for (int64_t i = 2; i < args.size(); ++i) call_args.push_back(args[i]);
  int64_t index;
  if (const ClosureObj* c = clo.as_closure()) {
    index = c->function();
    call_args.insert(call_args.end(), c->captured().begin(), c->captured().end());
  } else if (clo.kind() == ValueKind::kFunction) {
    index = clo.as_int();
  } else {
    throw_error(describe_value(clo) + " is not a closure");
  }
  *result = vm.call_function(index, call_args);
}

void call_tir_dyn(VirtualMachine& vm, ArgList args, Value* result) {
  if (args[0].kind() != ValueKind::kFunction) {
    throw_error("argument 0 (kernel) must be a function, but is " + describe_value(args[0]));
  }
  const ShapeObj& shape = shape_arg(args, args.size() - 1, "shape");
  std::vector<Value> call_args;
  for (int64_t i = 1; i + 1 < args.size(); ++i) call_args.push_back(args[i]);
  for (int64_t d : shape.dims()) call_args.emplace_back(d);
  *result = vm.call_function(args[0].as_int(), call_args);
}

// Substitutes "{}" in `format` by the values from `first` on; with an empty format, the values
// separated by spaces.
std::string format_values(const std::string& format, ArgList args, int64_t first) {
  std::string out;
  if (format.empty()) {
    for (int64_t i = first; i < args.size(); ++i) {
      if (i > first) out += ' ';
      out += value_to_string(args[i]);
    }
    return out;
  }
  int64_t next = first;
  for (size_t p = 0; p < format.size(); ++p) {
    if (format.compare(p, 2, "{}") == 0 && next < args.size()) {
      out += value_to_string(args[next++]);
      ++p;
    } else {
      out += format[p];
    }
  }
  return out;
}

void print(VirtualMachine& vm, ArgList args, Value*) {
  vm.out() << format_values(string_arg(args, 0, "format"), args, 1) << '\n';
}

void assert_(VirtualMachine& vm, ArgList args, Value*) {
  if (truth(args[0], "the asserted condition")) return;
  std::string message = format_values(string_arg(args, 1, "format"), args, 2);
  throw VMError(
      vm.current_function().name + ": assertion failed" + (message.empty() ? "" : ": " + message),
      true);
}

}  // namespace
}  // namespace builtin

// Every builtin, its arity and signature. A call's argument count is checked against this
// table when a VM is created.
static constexpr BuiltinInfo kBuiltins[] = {
    {"vm.builtin.alloc_shape_heap", builtin::alloc_shape_heap, 2, 2, true, "(ctx, size)"},
    {"vm.builtin.match_shape", builtin::match_shape, 4, -1, false,
     "(value, heap, n, code0, r0, ..., err)"},
    {"vm.builtin.match_prim_value", builtin::match_prim_value, 5, 5, false,
     "(value, heap, code, r, err)"},
    {"vm.builtin.make_shape", builtin::make_shape, 2, -1, false, "(heap, n, code0, r0, ...)"},
    {"vm.builtin.make_prim_value", builtin::make_prim_value, 3, 3, false, "(heap, code, r)"},
    {"vm.builtin.shape_compute", builtin::shape_compute, 4, -1, false,
     "(heap, dst, code0, v0, ...)"},
    {"vm.builtin.check_tensor_info", builtin::check_tensor_info, 4, 4, false,
     "(value, ndim, dtype, err)"},
    {"vm.builtin.check_shape_info", builtin::check_shape_info, 3, 3, false, "(value, ndim, err)"},
    {"vm.builtin.check_prim_value_info", builtin::check_prim_value_info, 3, 3, false,
     "(value, dtype, err)"},
    {"vm.builtin.check_tuple_info", builtin::check_tuple_info, 3, 3, false, "(value, size, err)"},
    {"vm.builtin.check_func_info", builtin::check_func_info, 2, 2, false, "(value, err)"},
    {"vm.builtin.alloc_storage", builtin::alloc_storage, 5, 5, true,
     "(ctx, size, device_index, dtype_hint, scope)"},
    {"vm.builtin.alloc_tensor", builtin::alloc_tensor, 4, 5, false,
     "(storage, offset, shape, dtype[, scope])"},
    {"vm.builtin.null_value", builtin::null_value, 0, 0, false, "()"},
    {"vm.builtin.kill", builtin::null_value, 0, 0, false, "()"},
    {"vm.builtin.copy", builtin::copy, 1, 1, false, "(value)"},
    {"vm.builtin.reshape", builtin::reshape, 2, 2, false, "(tensor, shape)"},
    {"vm.builtin.shape_of", builtin::shape_of, 1, 1, false, "(tensor)"},
    {"vm.builtin.tensor_view", builtin::tensor_view, 4, 4, false,
     "(tensor, shape|(), dtype|(), relative_byte_offset|())"},
    {"vm.builtin.shape_to_tensor", builtin::shape_to_tensor, 1, 1, false, "(shape)"},
    {"vm.builtin.tensor_to_shape", builtin::tensor_to_shape, 1, 1, false, "(tensor)"},
    {"vm.builtin.make_tuple", builtin::make_tuple, 0, -1, false, "(values...)"},
    {"vm.builtin.tuple_getitem", builtin::tuple_getitem, 2, 2, false, "(tuple, index)"},
    {"vm.builtin.read_if_cond", builtin::read_if_cond, 1, 1, false, "(cond)"},
    {"vm.builtin.make_closure", builtin::make_closure, 1, -1, false, "(func, captured...)"},
    {"vm.builtin.invoke_closure", builtin::invoke_closure, 2, -1, true, "(ctx, closure, args...)"},
    {"vm.builtin.call_tir_dyn", builtin::call_tir_dyn, 2, -1, false, "(kernel, tensors..., shape)"},
    {"vm.builtin.print", builtin::print, 1, -1, false, "(format, values...)"},
    {"vm.builtin.assert", builtin::assert_, 2, -1, false, "(cond, format, values...)"},
    {"vm.builtin.sort", builtin::sort, 4, 4, false, "(x, axis, descending, out)"},
    {"vm.builtin.argsort", builtin::argsort, 4, 4, false, "(x, axis, descending, out)"},
    {"vm.builtin.topk", builtin::topk, 6, 7, false, "(x, k, axis, ret_type, largest, out...)"},
    {"vm.builtin.unique", builtin::unique, 5, 6, false,
     "(x, sorted, return_index, return_inverse, return_counts[, axis])"},
    {"vm.builtin.nonzero", builtin::nonzero, 1, 1, false, "(x)"},
    {"vm.builtin.dynamic_strided_slice", builtin::dynamic_strided_slice, 4, 4, false,
     "(x, begin, end, strides)"},
    {"vm.builtin.ccl_allreduce", builtin::ccl_allreduce, 3, 3, false, "(x, op_type, out)"},
    {"vm.builtin.ccl_allgather", builtin::ccl_allgather, 3, 3, false, "(x, num_workers, out)"},
    {"vm.builtin.ccl_broadcast_from_worker0", builtin::ccl_broadcast_from_worker0, 2, 2, false,
     "(x, out)"},
    {"vm.builtin.ccl_scatter_from_worker0", builtin::ccl_scatter_from_worker0, 4, 4, false,
     "(x, num_workers, axis, out)"},
};

std::span<const BuiltinInfo> builtin_table() {
  return kBuiltins;
}

const BuiltinInfo* find_builtin(std::string_view name) {
  for (const BuiltinInfo& b : kBuiltins) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

}  // namespace relax::vm
