// Tensor summaries.
#include "vm/io/summary.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace relax::vm {

std::string format_scalar(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    if (std::string_view(buf) == "-0") return "0";
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", v);
  }
  return buf;
}

namespace {

struct Printer {
  const TensorObj& t;
  const SummaryOptions& opt;
  bool summarize;
  std::string out;

  std::string element(int64_t i) const {
    DLDataType dt = t.dtype();
    double v = load_as_double(t.data(), dt, i);
    if (is_bool(dt)) return v != 0 ? "True" : "False";
    if (dt.code == kDLInt && dt.bits == 64) {
      int64_t x;
      std::memcpy(&x, static_cast<const char*>(t.data()) + i * 8, 8);
      return std::to_string(x);
    }
    if (dt.code == kDLUInt && dt.bits == 64) {
      uint64_t x;
      std::memcpy(&x, static_cast<const char*>(t.data()) + i * 8, 8);
      return std::to_string(x);
    }
    return format_scalar(v);
  }

  // Prints the sub-array of axis `axis` starting at flat element `base`.
  void print(int axis, int64_t base, int64_t stride_after) {
    auto shape = t.shape();
    int64_t n = shape[axis];
    int64_t stride = stride_after;  // elements per step along `axis`
    out += '[';
    bool cut = summarize && n > 2 * opt.edge_items;
    for (int64_t i = 0; i < n; ++i) {
      if (cut && i == opt.edge_items) {
        out += axis + 1 == t.ndim() ? "..., " : "...,\n" + std::string(axis + 1, ' ');
        i = n - opt.edge_items;
      }
      if (axis + 1 == t.ndim()) {
        out += element(base + i);
      } else {
        print(axis + 1, base + i * stride, stride / shape[axis + 1]);
      }
      if (i + 1 < n) {
        if (axis + 1 == t.ndim()) {
          out += ", ";
        } else {
          out += ",\n";
          if (axis + 2 < t.ndim()) out += '\n';
          out += std::string(axis + 1, ' ');
        }
      }
    }
    out += ']';
  }
};

}  // namespace

std::string summarize_tensor(const TensorObj& tensor, const SummaryOptions& opt) {
  Tensor host;
  const TensorObj* t = &tensor;
  if (tensor.device().device_type != kDLCPU) {
    host = clone_tensor(tensor, kCPU);
    t = host.get();
  }
  std::string out;
  if (opt.header) out = dtype_name(t->dtype()) + shape_string(t->shape()) + "\n";
  int64_t numel = t->numel();
  DLDataType dt = t->dtype();
  bool printable = dt.lanes == 1 &&
                   (is_bool(dt) ||
                    ((dt.code == kDLInt || dt.code == kDLUInt) &&
                     (dt.bits == 8 || dt.bits == 16 || dt.bits == 32 || dt.bits == 64)) ||
                    (dt.code == kDLFloat && (dt.bits == 16 || dt.bits == 32 || dt.bits == 64)) ||
                    (dt.code == kDLBfloat && dt.bits == 16));
  if (!printable) {
    return out + "<" + std::to_string(t->nbytes()) + " bytes>";
  }
  Printer p{*t, opt, numel > opt.threshold, {}};
  if (t->ndim() == 0) {
    p.out = p.element(0);
  } else if (numel == 0) {
    p.out = "[]";
  } else {
    p.print(0, 0, numel / t->shape()[0]);
  }
  out += p.out;
  if (opt.stats && is_float(dt) && numel > 0) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
    for (int64_t i = 0; i < numel; ++i) {
      double v = load_as_double(t->data(), dt, i);
      lo = std::fmin(lo, v);
      hi = std::fmax(hi, v);
      sum += v;
    }
    out += "\nmin " + format_scalar(lo) + ", max " + format_scalar(hi) + ", mean " +
           format_scalar(sum / static_cast<double>(numel));
  }
  return out;
}

}  // namespace relax::vm
