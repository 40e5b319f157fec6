// Legalizations of shape manipulation and indexing: reshape (also flatten, batch_flatten),
// permute_dims (TVM's `transpose`), expand_dims, squeeze, concat (`concatenate`), broadcast_to,
// flip, tile, repeat, take and strided_slice with constant axes and bounds.
#include <algorithm>
#include <cmath>

#include "analysis/arith/analyzer.h"

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

// The row-major flat index of `idx` in `shape`.
Expr ravel(const Exprs& idx, const Exprs& shape) {
  Expr flat;
  for (size_t d = 0; d < idx.size(); ++d) flat = flat ? add(mul(flat, shape[d]), idx[d]) : idx[d];
  return flat ? flat : i64(0);
}

// The indices of a flat index in `shape`.
Exprs unravel(const Expr& flat, const Exprs& shape) {
  Exprs out(shape.size());
  Expr rest = flat;
  for (size_t d = shape.size(); d-- > 0;) {
    // The first index also wraps, as TVM writes it (equal for in-range flat indices).
    out[d] = floormod(rest, shape[d]);
    rest = floordiv(rest, shape[d]);
  }
  return out;
}

bool reshape(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  c.name = "reshape";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_reshape",
      [&](const Exprs& i) {
        if (xt.ndim() == 0) return xt({});
        // Simplified (without the ranges of the indices) as TVM's reshape indices are.
        analysis::arith::Analyzer an;
        Exprs idx = unravel(ravel(i, *shape), xt.shape());
        for (auto& e : idx) e = an.simplify(e);
        return xt(idx);
      },
      "ax");
  return true;
}

bool permute_dims(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  int64_t nd = static_cast<int64_t>(xt.ndim());
  std::vector<int64_t> axes;
  if (auto given = c.ints("axes")) {
    for (int64_t a : *given) axes.push_back(norm_axis(a, nd));
  } else {
    for (int64_t a = nd - 1; a >= 0; --a) axes.push_back(a);
  }
  c.name = "transpose";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_transpose",
      [&](const Exprs& i) {
        Exprs idx(static_cast<size_t>(nd));
        for (int64_t d = 0; d < nd; ++d)
          idx[static_cast<size_t>(axes[static_cast<size_t>(d)])] = i[static_cast<size_t>(d)];
        return xt(idx);
      },
      "ax");
  return true;
}

bool expand_dims(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  int64_t ond = static_cast<int64_t>(shape->size());
  std::vector<int64_t> axes;
  for (int64_t a : c.ints("axis").value_or(std::vector<int64_t>{}))
    axes.push_back(norm_axis(a, ond));
  c.name = "expand_dims";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_expand_dims",
      [&](const Exprs& i) {
        Exprs idx;
        for (int64_t d = 0; d < ond; ++d)
          if (std::find(axes.begin(), axes.end(), d) == axes.end())
            idx.push_back(i[static_cast<size_t>(d)]);
        return xt(idx);
      },
      "ax");
  return true;
}

bool squeeze(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  int64_t nd = static_cast<int64_t>(xt.ndim());
  std::vector<int64_t> axes;
  if (auto given = c.ints("axis")) {
    for (int64_t a : *given) axes.push_back(norm_axis(a, nd));
  } else {
    for (int64_t d = 0; d < nd; ++d)
      if (ir::tir::is_const_int(xt.shape()[static_cast<size_t>(d)], 1)) axes.push_back(d);
  }
  c.name = "squeeze";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_squeeze",
      [&](const Exprs& i) {
        Exprs idx;
        size_t k = 0;
        for (int64_t d = 0; d < nd; ++d) {
          if (std::find(axes.begin(), axes.end(), d) != axes.end())
            idx.push_back(i64(0));
          else
            idx.push_back(i[k++]);
        }
        return xt(idx);
      },
      "ax");
  return true;
}

bool concat(Ctx& c) {
  auto shape = c.out_shape();
  if (!shape) return false;
  auto inputs = c.tuple_inputs(0);
  if (!inputs || inputs->empty()) return false;
  std::vector<Tensor> parts = std::move(*inputs);
  int64_t axis = norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(shape->size()));
  size_t ax = static_cast<size_t>(axis);
  Exprs offsets{i64(0)};
  for (size_t k = 0; k + 1 < parts.size(); ++k) {
    const Expr& prev = offsets.back();
    const Expr& ext = parts[k].shape()[ax];
    auto a = ir::tir::as_const_int(prev), b = ir::tir::as_const_int(ext);
    offsets.push_back(a && b ? i64(*a + *b) : (a && *a == 0) ? ext : add(prev, ext));
  }
  c.name = "concatenate";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_concat",
      [&](const Exprs& i) {
        auto load = [&](size_t k) {
          Exprs idx = i;
          if (!ir::tir::is_const_int(offsets[k], 0)) idx[ax] = sub(i[ax], offsets[k]);
          return parts[k](idx);
        };
        Expr v = load(parts.size() - 1);
        for (size_t k = parts.size() - 1; k-- > 0;)
          v = if_then_else(cmp(ObjectKind::kLT, i[ax], offsets[k + 1]), load(k), v);
        return v;
      },
      "ax");
  return true;
}

bool broadcast_to(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  c.name = "broadcast_to";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_broadcast_to",
      [&](const Exprs& i) { return broadcast_load(xt, i, *shape); }, "ax");
  return true;
}

bool flip(Ctx& c) {
  auto x = c.input(0);
  if (!x) return false;
  Tensor xt = *x;
  int64_t axis = norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim()));
  c.name = "flip";
  c.out = c.b.compute(
      xt.shape(), c.out_dtype(), "T_reverse_sequence",
      [&](const Exprs& i) {
        Exprs idx = i;
        size_t a = static_cast<size_t>(axis);
        idx[a] = sub(sub(xt.shape()[a], i64(1)), i[a]);
        return xt(idx);
      },
      "ax");
  return true;
}

bool tile(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  size_t off = shape->size() - xt.ndim();
  c.name = "tile";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_tile",
      [&](const Exprs& i) {
        Exprs idx;
        for (size_t d = 0; d < xt.ndim(); ++d) idx.push_back(floormod(i[d + off], xt.shape()[d]));
        return xt(idx);
      },
      "ax");
  return true;
}

bool repeat(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  int64_t reps = c.int_attr("repeats", 1);
  auto axis_attr = c.call.attrs.find("axis");
  c.name = "repeat";
  if (!axis_attr) {
    c.out = c.b.compute(
        *shape, c.out_dtype(), "T_repeat",
        [&](const Exprs& i) {
          Expr src = floordiv(i[0], i64(reps));
          return xt(xt.ndim() == 0 ? Exprs{} : unravel(src, xt.shape()));
        },
        "ax");
    return true;
  }
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim())));
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_repeat",
      [&](const Exprs& i) {
        Exprs idx = i;
        idx[axis] = floordiv(i[axis], i64(reps));
        return xt(idx);
      },
      "ax");
  return true;
}

bool take(Ctx& c) {
  auto x = c.input(0);
  auto ind = c.input(1);
  auto shape = c.out_shape();
  if (!x || !ind || !shape) return false;
  Tensor xt = *x, it = *ind;
  auto axis_attr = c.call.attrs.find("axis");
  size_t axis =
      axis_attr
          ? static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim())))
          : 0;
  size_t ni = it.ndim();
  // Out-of-range indices (TVM's modes; none given: checked at run time).
  //   (none)  an error naming the op ("R.take: index out of range [0, 8)")
  //   "fast"  not checked: the read is past the tensor (TVM's default, for trusted indices)
  //   "wrap"  taken modulo the extent; "clip" clamped to [0, extent - 1]
  //   "nan"   NaN for the out-of-range ones (float tensors)
  std::string mode = c.str_attr("mode", "");
  const Expr& extent = xt.shape()[axis];
  if (mode == "nan" && !xt.dtype().is_floating())
    return c.unsupported("mode=\"nan\" on a tensor of " + xt.dtype().str());
  if (!mode.empty() && mode != "fast" && mode != "wrap" && mode != "clip" && mode != "nan")
    return c.unsupported("mode \"" + mode + "\"");
  if (mode.empty())
    it = checked_indices(
        c, it, [&](const Exprs&) { return extent; }, false, "index");
  c.name = "take";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_take",
      [&](const Exprs& i) {
        Exprs ii(i.begin() + static_cast<std::ptrdiff_t>(axis),
                 i.begin() + static_cast<std::ptrdiff_t>(axis + ni));
        Exprs idx(i.begin(), i.begin() + static_cast<std::ptrdiff_t>(axis));
        Expr k = cast(DataType::Int64(), it(ii));
        Expr clipped = max(min(k, sub(extent, i64(1))), i64(0));
        if (mode == "wrap") k = floormod(k, extent);
        if (mode == "clip" || mode == "nan")
          idx.push_back(clipped);
        else
          idx.push_back(k);
        for (size_t d = axis + ni; d < i.size(); ++d) idx.push_back(i[d]);
        if (mode != "nan") return xt(idx);
        Expr in_range =
            logical_and(cmp(ObjectKind::kGE, k, i64(0)), cmp(ObjectKind::kLT, k, extent));
        return select(in_range, xt(idx), const_of(xt.dtype(), std::nan("")));
      },
      "ax");
  return true;
}

// The constant integers of a tuple-of-prim-values argument.
std::optional<std::vector<int64_t>> const_tuple(const Ref<ir::Expr>& e) {
  std::vector<int64_t> out;
  auto t = e.as_ptr<ir::Tuple>();
  if (!t) return std::nullopt;
  for (const auto& f : t->fields) {
    auto pv = f.as_ptr<ir::PrimValue>();
    if (!pv) return std::nullopt;
    auto k = ir::tir::as_const_int(pv->value);
    if (!k) return std::nullopt;
    out.push_back(*k);
  }
  return out;
}

// The values of a tuple of prim values (symbolic ones too), or nullopt.
std::optional<std::vector<Expr>> prim_tuple(const Ref<ir::Expr>& e) {
  std::vector<Expr> out;
  auto t = e.as_ptr<ir::Tuple>();
  if (!t) return std::nullopt;
  for (const auto& f : t->fields) {
    auto pv = f.as_ptr<ir::PrimValue>();
    if (!pv || !pv->value || !pv->value->dtype.is_integer_like()) return std::nullopt;
    out.push_back(pv->value);
  }
  return out;
}

bool strided_slice(Ctx& c) {
  if (c.call.args.size() < 4) return false;
  auto axes = const_tuple(c.call.args[1]);
  auto begin = prim_tuple(c.call.args[2]);
  std::optional<std::vector<int64_t>> strides;
  if (c.call.args.size() > 4) strides = const_tuple(c.call.args[4]);
  if (!axes || !begin || begin->size() != axes->size() || (c.call.args.size() > 4 && !strides))
    return c.unsupported("axes and strides must be constant, begin a tuple of prim values");
  bool inbound = c.bool_attr("assume_inbound", false);
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  int64_t nd = static_cast<int64_t>(xt.ndim());
  std::vector<Expr> start(static_cast<size_t>(nd), i64(0));
  std::vector<int64_t> step(static_cast<size_t>(nd), 1);
  for (size_t k = 0; k < axes->size(); ++k) {
    size_t a = static_cast<size_t>(norm_axis((*axes)[k], nd));
    int64_t s = strides && k < strides->size() ? (*strides)[k] : 1;
    if (s == 0) return c.unsupported("a stride of 0");
    step[a] = s;
    const Expr& dim = xt.shape()[a];
    Expr bx = cast(ir::DataType::Int64(), c.remap((*begin)[k]));
    auto bc = ir::tir::as_const_int(bx);
    if (!bc) {
      // A symbolic begin (`rank * 8`): normalized and clamped at run time, as TVM does, unless
      // the call promises it is in bounds.
      if (inbound) {
        start[a] = bx;
      } else {
        Expr b = select(cmp(ObjectKind::kLT, bx, i64(0)), add(bx, dim), bx);
        start[a] = s > 0 ? max(min(b, dim), i64(0)) : max(min(b, sub(dim, i64(1))), i64(-1));
      }
      continue;
    }
    int64_t b = *bc;
    if (auto n = ir::tir::as_const_int(dim)) {
      if (b < 0) b += *n;
      b = s > 0 ? std::clamp<int64_t>(b, 0, *n) : std::clamp<int64_t>(b, -1, *n - 1);
      start[a] = i64(b);
    } else {
      start[a] = b < 0 ? add(dim, i64(b)) : i64(b);
    }
  }
  c.name = "strided_slice";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_strided_slice_with_axes",
      [&](const Exprs& i) {
        Exprs idx;
        for (size_t d = 0; d < static_cast<size_t>(nd); ++d) {
          Expr v = step[d] == 1 ? i[d] : mul(i[d], i64(step[d]));
          idx.push_back(ir::tir::is_const_int(start[d], 0) ? v : add(start[d], v));
        }
        return xt(idx);
      },
      "ax");
  return true;
}

}  // namespace

void register_manipulate(Table& t) {
  t["relax.reshape"] = reshape;
  t["relax.flatten"] = reshape;
  t["relax.nn.batch_flatten"] = reshape;
  t["relax.permute_dims"] = permute_dims;
  t["relax.expand_dims"] = expand_dims;
  t["relax.squeeze"] = squeeze;
  t["relax.concat"] = concat;
  t["relax.broadcast_to"] = broadcast_to;
  t["relax.flip"] = flip;
  t["relax.tile"] = tile;
  t["relax.repeat"] = repeat;
  t["relax.take"] = take;
  t["relax.strided_slice"] = strided_slice;
}

}  // namespace relax::compiler::legalize
