// The builtins LegalizeOps calls for ops that have no TIR legalization (what TVM runs as
// runtime functions on the CPU: tvm.contrib.sort.*, relax.run.unique, relax.run.nonzero,
// runtime.disco.*): sort, argsort and topk in destination-passing style (the caller allocates
// the outputs), unique, nonzero and dynamic_strided_slice allocating their results (shapes known
// only from the data), and the collectives for the single worker this runtime runs.
// Sorting is stable (ties keep their input order, also when descending), as TVM's CPU sort.
// NaN ordering is unspecified. Host tensors only.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "vm/builtins_internal.h"

namespace relax::vm::builtin {

namespace {

// Element types: the storage type and a key that orders and compares elements.
template <class T>
struct Plain {
  using storage = T;
  static T key(T v) { return v; }
};
struct Half {
  using storage = uint16_t;
  static float key(uint16_t v) { return half_to_float(v); }
};
struct BHalf {
  using storage = uint16_t;
  static float key(uint16_t v) { return bfloat16_to_float(v); }
};

// Calls f(Tag{}) for the element type of `t`; throws for types the builtins do not support.
template <class F>
void visit_dtype(DLDataType t, const char* op, F&& f) {
  if (t.lanes == 1) {
    if (is_bool(t)) return f(Plain<uint8_t>{});
    switch (t.code) {
      case kDLFloat:
        if (t.bits == 16) return f(Half{});
        if (t.bits == 32) return f(Plain<float>{});
        if (t.bits == 64) return f(Plain<double>{});
        break;
      case kDLBfloat:
        if (t.bits == 16) return f(BHalf{});
        break;
      case kDLInt:
        if (t.bits == 8) return f(Plain<int8_t>{});
        if (t.bits == 16) return f(Plain<int16_t>{});
        if (t.bits == 32) return f(Plain<int32_t>{});
        if (t.bits == 64) return f(Plain<int64_t>{});
        break;
      case kDLUInt:
        if (t.bits == 8) return f(Plain<uint8_t>{});
        if (t.bits == 16) return f(Plain<uint16_t>{});
        if (t.bits == 32) return f(Plain<uint32_t>{});
        if (t.bits == 64) return f(Plain<uint64_t>{});
        break;
      default:
        break;
    }
  }
  throw_error(std::string(op) + " does not support tensors of dtype " + dtype_name(t));
}

// Writes integer `v` as element `i` of an index tensor (int or float dtype).
void store_index(const TensorObj& t, int64_t i, int64_t v) {
  DLDataType dt = t.dtype();
  char* p = static_cast<char*>(t.data());
  auto put = [&]<class T>(T x) {
    std::memcpy(p + i * static_cast<int64_t>(sizeof(T)), &x, sizeof(T));
  };
  if (dt.lanes == 1 && dt.code == kDLInt) {
    switch (dt.bits) {
      case 8:
        return put(static_cast<int8_t>(v));
      case 16:
        return put(static_cast<int16_t>(v));
      case 32:
        return put(static_cast<int32_t>(v));
      case 64:
        return put(v);
    }
  } else if (dt.lanes == 1 && dt.code == kDLUInt && !is_bool(dt)) {
    switch (dt.bits) {
      case 8:
        return put(static_cast<uint8_t>(v));
      case 16:
        return put(static_cast<uint16_t>(v));
      case 32:
        return put(static_cast<uint32_t>(v));
      case 64:
        return put(static_cast<uint64_t>(v));
    }
  } else if (dt.lanes == 1 && dt.code == kDLFloat) {
    switch (dt.bits) {
      case 16:
        return put(float_to_half(static_cast<float>(v)));
      case 32:
        return put(static_cast<float>(v));
      case 64:
        return put(static_cast<double>(v));
    }
  }
  throw_error("indices of dtype " + dtype_name(dt) + " are not supported");
}

// Reads element `i` of an integer tensor.
int64_t load_index(const TensorObj& t, int64_t i) {
  DLDataType dt = t.dtype();
  const char* p = static_cast<const char*>(t.data());
  auto get = [&]<class T>(T) {
    T v;
    std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return static_cast<int64_t>(v);
  };
  if (dt.lanes == 1 && dt.code == kDLInt) {
    switch (dt.bits) {
      case 8:
        return get(int8_t{});
      case 16:
        return get(int16_t{});
      case 32:
        return get(int32_t{});
      case 64:
        return get(int64_t{});
    }
  }
  if (dt.lanes == 1 && dt.code == kDLUInt && !is_bool(dt)) {
    switch (dt.bits) {
      case 8:
        return get(uint8_t{});
      case 16:
        return get(uint16_t{});
      case 32:
        return get(uint32_t{});
      case 64:
        return get(uint64_t{});
    }
  }
  throw_error("expected an integer tensor, got one of dtype " + dtype_name(dt));
}

const TensorObj& host_tensor_arg(ArgList args, int64_t i, const char* what) {
  const TensorObj& t = tensor_arg(args, i, what);
  if (t.device().device_type != kDLCPU)
    throw_error("argument " + std::to_string(i) + " (" + what + ") must be a host tensor");
  return t;
}

int64_t normalize_axis(int64_t axis, int64_t ndim, const char* op) {
  int64_t a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim) {
    throw_error(std::string(op) + ": axis " + std::to_string(axis) +
                " is out of range for a tensor of rank " + std::to_string(ndim));
  }
  return a;
}

void check_out(const TensorObj& out, std::span<const int64_t> shape, DLDataType dtype,
               const char* op, const char* what) {
  if (!std::equal(out.shape().begin(), out.shape().end(), shape.begin(), shape.end()) ||
      out.dtype() != dtype) {
    throw_error(std::string(op) + ": the " + what + " output must be " + dtype_name(dtype) +
                shape_string(shape) + ", but is " + dtype_name(out.dtype()) +
                shape_string(out.shape()));
  }
  if (out.device().device_type != kDLCPU)
    throw_error(std::string(op) + ": the " + what + " output must be a host tensor");
}

// The layout of a tensor around `axis`: outer * len * inner elements.
struct AxisLayout {
  int64_t outer = 1, len = 1, inner = 1;
};
AxisLayout layout_of(std::span<const int64_t> shape, int64_t axis) {
  AxisLayout l;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) l.outer *= shape[static_cast<size_t>(d)];
    if (d == axis) l.len = shape[static_cast<size_t>(d)];
    if (d > axis) l.inner *= shape[static_cast<size_t>(d)];
  }
  return l;
}

// Sorts each line of `x` along `axis` (stable), keeps the first `k` of each line and writes
// the values and/or the indices (either may be null).
void sort_lines(const TensorObj& x, int64_t axis, bool descending, int64_t k, TensorObj* values,
                TensorObj* indices, const char* op) {
  AxisLayout l = layout_of(x.shape(), axis);
  visit_dtype(x.dtype(), op, [&]<class Tag>(Tag) {
    using S = typename Tag::storage;
    const S* src = x.data_as<S>();
    S* dst = values ? values->template data_as<S>() : nullptr;
    std::vector<int64_t> order(static_cast<size_t>(l.len));
    for (int64_t o = 0; o < l.outer; ++o) {
      for (int64_t in = 0; in < l.inner; ++in) {
        const S* line = src + o * l.len * l.inner + in;
        std::iota(order.begin(), order.end(), int64_t{0});
        auto at = [&](int64_t j) { return Tag::key(line[j * l.inner]); };
        if (descending) {
          std::stable_sort(order.begin(), order.end(),
                           [&](int64_t a, int64_t b) { return at(b) < at(a); });
        } else {
          std::stable_sort(order.begin(), order.end(),
                           [&](int64_t a, int64_t b) { return at(a) < at(b); });
        }
        int64_t base = o * k * l.inner + in;
        for (int64_t j = 0; j < k; ++j) {
          int64_t src_j = order[static_cast<size_t>(j)];
          if (dst) dst[base + j * l.inner] = line[src_j * l.inner];
          if (indices) store_index(*indices, base + j * l.inner, src_j);
        }
      }
    }
  });
}

}  // namespace

// sort(x, axis, descending, out)
void sort(VirtualMachine&, ArgList args, Value*) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  int64_t axis = normalize_axis(int_arg(args, 1, "axis"), x.ndim(), "sort");
  bool descending = int_arg(args, 2, "descending") != 0;
  TensorObj& out = const_cast<TensorObj&>(tensor_arg(args, 3, "out"));
  check_out(out, x.shape(), x.dtype(), "sort", "values");
  sort_lines(x, axis, descending, x.shape()[static_cast<size_t>(axis)], &out, nullptr, "sort");
}

// argsort(x, axis, descending, out)
void argsort(VirtualMachine&, ArgList args, Value*) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  int64_t axis = normalize_axis(int_arg(args, 1, "axis"), x.ndim(), "argsort");
  bool descending = int_arg(args, 2, "descending") != 0;
  TensorObj& out = const_cast<TensorObj&>(tensor_arg(args, 3, "out"));
  check_out(out, x.shape(), out.dtype(), "argsort", "indices");
  sort_lines(x, axis, descending, x.shape()[static_cast<size_t>(axis)], nullptr, &out, "argsort");
}

// topk(x, k, axis, ret_type, largest, out...): "both" writes values and indices (two outputs),
// "values" or "indices" one.
void topk(VirtualMachine&, ArgList args, Value*) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  int64_t k = int_arg(args, 1, "k");
  int64_t axis = normalize_axis(int_arg(args, 2, "axis"), x.ndim(), "topk");
  const std::string& ret_type = string_arg(args, 3, "ret_type");
  bool largest = int_arg(args, 4, "largest") != 0;
  int64_t len = x.shape()[static_cast<size_t>(axis)];
  if (k < 1 || k > len) k = len;
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
  shape[static_cast<size_t>(axis)] = k;
  int64_t nout = ret_type == "both" ? 2 : 1;
  if (ret_type != "both" && ret_type != "values" && ret_type != "indices")
    throw_error("topk: ret_type must be \"both\", \"values\" or \"indices\", not \"" + ret_type +
                "\"");
  if (args.size() != 5 + nout) {
    throw_error("topk with ret_type \"" + ret_type + "\" takes " + std::to_string(nout) +
                " output(s), got " + std::to_string(args.size() - 5));
  }
  TensorObj* values = nullptr;
  TensorObj* indices = nullptr;
  if (ret_type != "indices") {
    values = const_cast<TensorObj*>(&tensor_arg(args, 5, "values"));
    check_out(*values, shape, x.dtype(), "topk", "values");
  }
  if (ret_type != "values") {
    indices = const_cast<TensorObj*>(&tensor_arg(args, 4 + nout, "indices"));
    check_out(*indices, shape, indices->dtype(), "topk", "indices");
  }
  sort_lines(x, axis, largest, k, values, indices, "topk");
}

// unique(x, sorted, return_index, return_inverse, return_counts[, axis]) -> tensor or tuple
void unique(VirtualMachine&, ArgList args, Value* result) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  bool sorted = int_arg(args, 1, "sorted") != 0;
  bool want_index = int_arg(args, 2, "return_index") != 0;
  bool want_inverse = int_arg(args, 3, "return_inverse") != 0;
  bool want_counts = int_arg(args, 4, "return_counts") != 0;
  bool has_axis = args.size() > 5 && !args[5].is_null();
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
  int64_t axis = 0;
  AxisLayout l;
  if (has_axis && x.ndim() > 0) {
    axis = normalize_axis(int_arg(args, 5, "axis"), x.ndim(), "unique");
    l = layout_of(shape, axis);
  } else {
    has_axis = false;
    l.len = x.numel();
  }
  // Items: the slices along the axis (elements when flattened), compared lexicographically.
  int64_t n = l.len;
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::vector<int64_t> group_first;  // per unique item (sorted order): its first index
  std::vector<int64_t> group_count;
  std::vector<int64_t> group_of(static_cast<size_t>(n));  // item -> unique position (sorted)
  Tensor out_values;
  visit_dtype(x.dtype(), "unique", [&]<class Tag>(Tag) {
    using S = typename Tag::storage;
    const S* src = x.data_as<S>();
    auto elem = [&](int64_t item, int64_t o, int64_t in) {
      return Tag::key(src[(o * l.len + item) * l.inner + in]);
    };
    auto compare = [&](int64_t a, int64_t b) {  // -1, 0, 1
      for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t in = 0; in < l.inner; ++in) {
          auto va = elem(a, o, in), vb = elem(b, o, in);
          if (va < vb) return -1;
          if (vb < va) return 1;
        }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
    for (int64_t i = 0; i < n; ++i) {
      int64_t item = order[static_cast<size_t>(i)];
      if (i == 0 || compare(order[static_cast<size_t>(i - 1)], item) != 0) {
        group_first.push_back(item);
        group_count.push_back(0);
      }
      group_of[static_cast<size_t>(item)] = static_cast<int64_t>(group_first.size()) - 1;
      ++group_count.back();
    }
    // Unsorted: the order of first occurrence.
    int64_t m = static_cast<int64_t>(group_first.size());
    std::vector<int64_t> rank(static_cast<size_t>(m));  // sorted position -> output position
    std::iota(rank.begin(), rank.end(), int64_t{0});
    if (!sorted) {
      std::vector<int64_t> by_first(static_cast<size_t>(m));
      std::iota(by_first.begin(), by_first.end(), int64_t{0});
      std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) {
        return group_first[static_cast<size_t>(a)] < group_first[static_cast<size_t>(b)];
      });
      std::vector<int64_t> first(static_cast<size_t>(m)), count(static_cast<size_t>(m));
      for (int64_t p = 0; p < m; ++p) {
        int64_t g = by_first[static_cast<size_t>(p)];
        rank[static_cast<size_t>(g)] = p;
        first[static_cast<size_t>(p)] = group_first[static_cast<size_t>(g)];
        count[static_cast<size_t>(p)] = group_count[static_cast<size_t>(g)];
      }
      group_first = std::move(first);
      group_count = std::move(count);
      for (auto& g : group_of) g = rank[static_cast<size_t>(g)];
    }
    std::vector<int64_t> vshape;
    if (has_axis) {
      vshape = shape;
      vshape[static_cast<size_t>(axis)] = m;
    } else {
      vshape = {m};
    }
    out_values = empty_tensor(vshape, x.dtype());
    S* dst = out_values->data_as<S>();
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t p = 0; p < m; ++p)
        for (int64_t in = 0; in < l.inner; ++in)
          dst[(o * m + p) * l.inner + in] =
              src[(o * l.len + group_first[static_cast<size_t>(p)]) * l.inner + in];
  });
  if (!want_index && !want_inverse && !want_counts) {
    *result = Value(out_values);
    return;
  }
  auto i64_tensor = [](const std::vector<int64_t>& v) {
    std::vector<int64_t> s{static_cast<int64_t>(v.size())};
    return Value(tensor_from_bytes(s, kInt64, v.data()));
  };
  std::vector<Value> fields{Value(out_values)};
  if (want_index) fields.push_back(i64_tensor(group_first));
  if (want_inverse) fields.push_back(i64_tensor(group_of));
  if (want_counts) fields.push_back(i64_tensor(group_count));
  *result = Value::tuple(std::move(fields));
}

// nonzero(x) -> int64[max(ndim, 1), count]: row d holds the d-th coordinate of each non-zero
// element in row-major order (a 0-d tensor counts as 1-d).
void nonzero(VirtualMachine&, ArgList args, Value* result) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
  if (shape.empty()) shape = {1};
  std::vector<int64_t> hits;
  int64_t numel = x.numel();
  visit_dtype(x.dtype(), "nonzero", [&]<class Tag>(Tag) {
    using S = typename Tag::storage;
    const S* src = x.data_as<S>();
    for (int64_t i = 0; i < numel; ++i) {
      auto v = Tag::key(src[i]);
      if (v != decltype(v){0}) hits.push_back(i);
    }
  });
  int64_t rows = static_cast<int64_t>(shape.size());
  int64_t count = static_cast<int64_t>(hits.size());
  std::vector<int64_t> oshape{rows, count};
  Tensor out = empty_tensor(oshape, kInt64);
  int64_t* dst = out->data_as<int64_t>();
  for (int64_t c = 0; c < count; ++c) {
    int64_t flat = hits[static_cast<size_t>(c)];
    for (int64_t d = rows - 1; d >= 0; --d) {
      int64_t dim = shape[static_cast<size_t>(d)];
      dst[d * count + c] = flat % dim;
      flat /= dim;
    }
  }
  *result = Value(out);
}

// dynamic_strided_slice(x, begin, end, strides) -> tensor: numpy slicing x[b:e:s] on the first
// len(begin) axes (negative begin/end count from the end, bounds are clamped); the other axes
// are kept whole.
void dynamic_strided_slice(VirtualMachine&, ArgList args, Value* result) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  const TensorObj& begin = host_tensor_arg(args, 1, "begin");
  const TensorObj& end = host_tensor_arg(args, 2, "end");
  const TensorObj& strides = host_tensor_arg(args, 3, "strides");
  int64_t ndim = x.ndim();
  int64_t n = begin.numel();
  if (begin.ndim() != 1 || end.ndim() != 1 || strides.ndim() != 1 || end.numel() != n ||
      strides.numel() != n || n > ndim) {
    throw_error(
        "dynamic_strided_slice: begin, end and strides must be 1-D tensors of the same "
        "length, at most the rank " +
        std::to_string(ndim) + " of x; got " + shape_string(begin.shape()) + ", " +
        shape_string(end.shape()) + ", " + shape_string(strides.shape()));
  }
  std::vector<int64_t> start(static_cast<size_t>(ndim), 0), step(static_cast<size_t>(ndim), 1),
      oshape(x.shape().begin(), x.shape().end());
  for (int64_t d = 0; d < n; ++d) {
    int64_t dim = x.shape()[static_cast<size_t>(d)];
    int64_t b = load_index(begin, d), e = load_index(end, d), s = load_index(strides, d);
    if (s == 0)
      throw_error("dynamic_strided_slice: the stride of axis " + std::to_string(d) + " is 0");
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    int64_t len;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      // ceil((e - b) / s) without forming e - b + s, which overflows for a stride near 2^63.
      len = e > b ? (e - b - 1) / s + 1 : 0;
    } else {
      b = std::clamp<int64_t>(b, -1, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      uint64_t magnitude = 0 - static_cast<uint64_t>(s);  // -s, also for INT64_MIN
      len = b > e ? static_cast<int64_t>(static_cast<uint64_t>(b - e - 1) / magnitude + 1) : 0;
    }
    start[static_cast<size_t>(d)] = b;
    step[static_cast<size_t>(d)] = s;
    oshape[static_cast<size_t>(d)] = len;
  }
  Tensor out = empty_tensor(oshape, x.dtype());
  int64_t total = out->numel();
  int64_t esize = dtype_bytes(x.dtype());
  std::vector<int64_t> in_strides(static_cast<size_t>(ndim), 1);
  for (int64_t d = ndim - 2; d >= 0; --d)
    in_strides[static_cast<size_t>(d)] =
        in_strides[static_cast<size_t>(d + 1)] * x.shape()[static_cast<size_t>(d + 1)];
  const char* src = static_cast<const char*>(x.data());
  char* dst = static_cast<char*>(out->data());
  std::vector<int64_t> idx(static_cast<size_t>(ndim), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t off = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      size_t u = static_cast<size_t>(d);
      off += (start[u] + idx[u] * step[u]) * in_strides[u];
    }
    std::memcpy(dst + i * esize, src + off * esize, static_cast<size_t>(esize));
    for (int64_t d = ndim - 1; d >= 0; --d) {
      size_t u = static_cast<size_t>(d);
      if (++idx[u] < oshape[u]) break;
      idx[u] = 0;
    }
  }
  *result = Value(out);
}

// ---- Collectives: one worker ----------------------------------------------------------------

static void copy_into(ArgList args, int64_t out_index, const char* op) {
  const TensorObj& x = host_tensor_arg(args, 0, "x");
  TensorObj& out = const_cast<TensorObj&>(tensor_arg(args, out_index, "out"));
  check_out(out, x.shape(), x.dtype(), op, "result");
  copy_tensor(x, out);
}

static void check_workers(ArgList args, int64_t i, const char* op) {
  int64_t workers = int_arg(args, i, "num_workers");
  if (workers != 1) {
    throw_error(std::string(op) + " needs " + std::to_string(workers) +
                " workers, this runtime runs 1");
  }
}

// ccl_allreduce(x, op_type, out): with one worker every reduction is the tensor itself.
void ccl_allreduce(VirtualMachine&, ArgList args, Value*) {
  const std::string& op = string_arg(args, 1, "op_type");
  if (op != "sum" && op != "prod" && op != "min" && op != "max" && op != "avg")
    throw_error("ccl.allreduce: unknown op_type \"" + op + "\"");
  copy_into(args, 2, "ccl.allreduce");
}

// ccl_allgather(x, num_workers, out)
void ccl_allgather(VirtualMachine&, ArgList args, Value*) {
  check_workers(args, 1, "ccl.allgather");
  copy_into(args, 2, "ccl.allgather");
}

// ccl_broadcast_from_worker0(x, out)
void ccl_broadcast_from_worker0(VirtualMachine&, ArgList args, Value*) {
  copy_into(args, 1, "ccl.broadcast_from_worker0");
}

// ccl_scatter_from_worker0(x, num_workers, axis, out)
void ccl_scatter_from_worker0(VirtualMachine&, ArgList args, Value*) {
  check_workers(args, 1, "ccl.scatter_from_worker0");
  int_arg(args, 2, "axis");
  copy_into(args, 3, "ccl.scatter_from_worker0");
}

}  // namespace relax::vm::builtin
