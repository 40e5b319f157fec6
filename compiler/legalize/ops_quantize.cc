// Legalizations of quantize and dequantize, as TVM's qdq legalization: one compute whose scale
// and zero point are a scalar (a tensor of one element) or one value per slice along `axis`.
//   quantize:   clip(round(data / scale) + zero_point) cast to out_dtype (integers round to
//               nearest even; float outputs are not rounded, only clipped to their range)
//   dequantize: (data as int32, or float32 for float data, - zero_point) * scale as float32,
//               clipped to the range of out_dtype and cast when that is not float32
#include <limits>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

// The lowest and highest value of `t` (nullopt for dtypes the legalization does not handle).
std::optional<std::pair<double, double>> dtype_range(DataType t) {
  if (t.lanes() != 1) return std::nullopt;
  if (t.is_int() && t.bits() <= 32) {
    double hi = static_cast<double>((int64_t{1} << (t.bits() - 1)) - 1);
    return std::make_pair(-hi - 1, hi);
  }
  if (t.is_uint() && t.bits() <= 32)
    return std::make_pair(0.0, static_cast<double>((int64_t{1} << t.bits()) - 1));
  if (t.is_float() && t.bits() == 16) return std::make_pair(-65504.0, 65504.0);
  if (t.is_float() && t.bits() == 32) {
    double m = static_cast<double>(std::numeric_limits<float>::max());
    return std::make_pair(-m, m);
  }
  return std::nullopt;
}

// max(min(v, hi), lo) in v's dtype, then cast to `t`.
Expr clip_cast(const Expr& v, DataType t, std::pair<double, double> range) {
  return cast(t, max(min(v, const_of(v->dtype, range.second)), const_of(v->dtype, range.first)));
}

// A scale / zero-point load: the single element, or the one of the slice along `axis`.
Expr qparam(const Tensor& p, const Exprs& i, size_t axis) {
  bool single = true;
  for (const auto& d : p.shape())
    if (!ir::tir::is_const_int(d, 1)) single = false;
  if (single) return p(Exprs(p.ndim(), i64(0)));
  return p({i[axis]});
}

LegalizeFn qdq(bool quantize) {
  return [quantize](Ctx& c) {
    auto x = c.input(0), s = c.input(1), z = c.input(2);
    if (!x || !s || !z) return false;
    Tensor xt = *x, st = *s, zt = *z;
    DataType out = c.out_dtype();
    auto range = dtype_range(out);
    if (!range || (!quantize && !out.is_float()))
      return c.unsupported("out_dtype " + out.str() + " is not supported");
    if (quantize && !xt.dtype().is_float())
      return c.unsupported("the data must have a float dtype");
    size_t axis =
        static_cast<size_t>(norm_axis(c.int_attr("axis", -1), static_cast<int64_t>(xt.ndim())));
    c.name = quantize ? "quantize" : "dequantize";
    c.out = c.b.compute(
        xt.shape(), out, quantize ? "quantized" : "dequantized",
        [&](const Exprs& i) -> Expr {
          Expr scale = qparam(st, i, axis), zp = qparam(zt, i, axis);
          if (quantize) {
            DataType ft = xt.dtype();
            Expr scaled = div(xt(i), cast(ft, scale));
            Expr rounded = out.is_float() ? scaled : call1("tir.round", scaled);
            return clip_cast(add(rounded, cast(ft, zp)), out, *range);
          }
          DataType wt = xt.dtype().is_float() ? DataType::Float32() : DataType::Int32();
          Expr sub_v = sub(cast(wt, xt(i)), cast(wt, zp));
          Expr v = mul(cast(DataType::Float32(), sub_v), cast(DataType::Float32(), scale));
          if (out == DataType::Float32()) return v;
          return clip_cast(v, out, *range);
        },
        "i");
    return true;
  };
}

}  // namespace

void register_quantize(Table& t) {
  t["relax.quantize"] = qdq(true);
  t["relax.dequantize"] = qdq(false);
}

}  // namespace relax::compiler::legalize
