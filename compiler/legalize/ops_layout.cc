// Legalizations of layout_transform, meshgrid and multinomial_from_uniform.
// - layout_transform: when every output index is an input index `v`, or the `v // c` and `v % c`
//   halves of a split (permutations, NCHW -> NCHW4c), a compute reading the input at the inverse
//   map, pad_value (0 when absent) where the split runs past the input's extent. Other maps (a
//   fusion `a * 4 + b`, ...) become a hand-written stage: the output filled with pad_value, then
//   every input element stored at the map's image of its index (serial loops). Axis separators
//   only describe the physical layout and do not change the values.
// - meshgrid: one compute per output; "xy" swaps the first two axes (numpy).
// - multinomial_from_uniform: as TVM's CPU dispatch, the cumulative sum of each probability row,
//   then per sample the first index whose cumulative sum exceeds the uniform sample (the last
//   index when none does).
#include "analysis/arith/substitute.h"
#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

// The inverse of an index map made of input indices and floordiv / floormod pairs by constants:
// for each input index, the output position it is read from (or the positions of its quotient
// and remainder, with the divisor). Empty when the map has another form.
struct InverseSource {
  int direct = -1, quot = -1, rem = -1;
  int64_t divisor = 0;
};

std::vector<InverseSource> simple_inverse(const ir::tir::IndexMap& map) {
  std::vector<InverseSource> src(map.initial_indices.size());
  auto var_index = [&](const Expr& e) -> int {
    auto v = e.as_ptr<ir::tir::Var>();
    for (size_t k = 0; v && k < map.initial_indices.size(); ++k)
      if (map.initial_indices[k].get() == v) return static_cast<int>(k);
    return -1;
  };
  for (size_t o = 0; o < map.final_indices.size(); ++o) {
    const Expr& f = map.final_indices[o];
    int oi = static_cast<int>(o);
    if (int k = var_index(f); k >= 0) {
      auto& s = src[static_cast<size_t>(k)];
      if (s.direct >= 0 || s.quot >= 0 || s.rem >= 0) return {};
      s.direct = oi;
      continue;
    }
    auto b = f.as_ptr<ir::tir::BinaryOp>();
    auto cst = b ? ir::tir::as_const_int(b->b) : std::nullopt;
    int k = b ? var_index(b->a) : -1;
    if (!cst || *cst <= 0 || k < 0) return {};
    auto& s = src[static_cast<size_t>(k)];
    if (s.direct >= 0 || (s.divisor != 0 && s.divisor != *cst)) return {};
    s.divisor = *cst;
    if (b->kind() == ObjectKind::kFloorDiv && s.quot < 0) {
      s.quot = oi;
    } else if (b->kind() == ObjectKind::kFloorMod && s.rem < 0) {
      s.rem = oi;
    } else {
      return {};
    }
  }
  for (const auto& s : src)
    if (s.direct < 0 && (s.quot < 0 || s.rem < 0)) return {};
  return src;
}

bool layout_transform(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  auto map = c.call.attrs.find("index_map").as_ptr<ir::tir::IndexMap>();
  if (!map) return c.unsupported("the index map is missing");
  Tensor xt = *x;
  if (map->initial_indices.size() != xt.ndim() || map->final_indices.size() != shape->size())
    return c.unsupported("the index map does not match the ranks of the input and the output");
  Expr pad = const_of(xt.dtype(), 0);
  if (auto pv = c.call.attrs.find("pad_value").as_ptr<ir::PrimValue>()) {
    if (!ir::tir::as_const_int(pv->value) && !pv->value.is<ir::tir::FloatImm>())
      return c.unsupported("pad_value must be a constant");
    pad = cast(xt.dtype(), pv->value);
  }
  c.name = "layout_transform";
  if (auto src = simple_inverse(*map); !src.empty()) {
    c.out = c.b.compute(
        *shape, xt.dtype(), "T_layout_trans",
        [&](const Exprs& o) {
          Exprs idx;
          Expr in_bounds;
          for (size_t k = 0; k < src.size(); ++k) {
            const auto& s = src[k];
            if (s.direct >= 0) {
              idx.push_back(o[static_cast<size_t>(s.direct)]);
              continue;
            }
            Expr v = add(mul(o[static_cast<size_t>(s.quot)], i64(s.divisor)),
                         o[static_cast<size_t>(s.rem)]);
            idx.push_back(v);
            auto ext = ir::tir::as_const_int(xt.shape()[k]);
            if (ext && *ext % s.divisor == 0) continue;  // the split does not pad
            Expr ok = cmp(ObjectKind::kLT, v, xt.shape()[k]);
            in_bounds = in_bounds ? logical_and(in_bounds, ok) : ok;
          }
          if (!in_bounds) return xt(idx);
          return if_then_else(in_bounds, xt(idx), pad);
        },
        "ax");
    return true;
  }
  c.out = c.b.opaque(*shape, xt.dtype(), "T_layout_trans", {xt}, [&](const Tensor& out) {
    auto fill = loop_nest(
        *shape, [&](const Exprs& i) { return store(out, i, pad); }, "ax");
    auto scatter = loop_nest(
        xt.shape(),
        [&](const Exprs& i) {
          Exprs idx;
          for (const auto& f : map->final_indices) {
            Expr e = analysis::arith::substitute(f, [&](const Ref<ir::tir::Var>& v) -> Expr {
              for (size_t k = 0; k < map->initial_indices.size(); ++k)
                if (map->initial_indices[k].get() == v.get()) return cast(v->dtype, i[k]);
              return nullptr;
            });
            idx.push_back(cast(DataType::Int64(), e));
          }
          return store(out, idx, xt(i));
        },
        "i");
    return seq({fill, scatter});
  });
  return true;
}

bool meshgrid(Ctx& c) {
  auto fields = c.out_fields();
  if (!fields) return false;
  auto inputs = c.tuple_inputs(0);
  if (!inputs) return false;
  std::vector<Tensor> xs = std::move(*inputs);
  std::string indexing = c.str_attr("indexing", "ij");
  if (indexing != "ij" && indexing != "xy")
    return c.unsupported("indexing \"" + indexing + "\" is not \"ij\" or \"xy\"");
  if (fields->size() != xs.size()) return false;
  bool xy = indexing == "xy" && xs.size() >= 2;
  c.name = "meshgrid";
  for (size_t k = 0; k < xs.size(); ++k) {
    const auto& [shape, dtype] = (*fields)[k];
    size_t axis = xy && k < 2 ? 1 - k : k;
    Tensor xk = xs[k];
    c.outs.push_back(c.b.compute(
        shape, dtype, k == 0 ? "T_meshgrid" : "T_meshgrid_" + std::to_string(k),
        [&](const Exprs& i) { return xk({i[axis]}); }, "ax"));
  }
  return true;
}

bool multinomial_from_uniform(Ctx& c) {
  auto p = c.input(0), u = c.input(1), s = c.input(2);
  auto shape = c.out_shape();
  if (!p || !u || !s || !shape) return false;
  Tensor pt = *p, ut = *u, st = *s;
  Expr vocab = pt.shape()[1];
  st = checked_indices(
      c, st, [&](const Exprs&) { return pt.shape()[0]; }, false, "sample index");
  c.name = "multinomial_from_uniform";
  Tensor cs = c.b.reduce(
      pt.shape(), {vocab}, ReduceKind::kSum, pt.dtype(), "T_cumsum",
      [&](const Exprs& i, const Exprs& k) {
        return select(cmp(ObjectKind::kLE, k[0], i[1]), pt({i[0], k[0]}), const_of(pt.dtype(), 0));
      });
  DataType t = c.out_dtype();
  Tensor first = c.b.reduce(
      *shape, {vocab}, ReduceKind::kMin, DataType::Int64(), "T_sample_first",
      [&](const Exprs& i, const Exprs& k) {
        Expr row = cast(DataType::Int64(), st({i[0], i64(0)}));
        Expr uv = cast(pt.dtype(), ut({i[0], i64(0)}));
        return select(cmp(ObjectKind::kLT, uv, cs({row, k[0]})), k[0], sub(vocab, i64(1)));
      });
  c.out = c.b.compute(
      *shape, t, "T_multinomial_from_uniform", [&](const Exprs& i) { return cast(t, first(i)); },
      "ax");
  return true;
}

}  // namespace

void register_layout(Table& t) {
  t["relax.layout_transform"] = layout_transform;
  t["relax.meshgrid"] = meshgrid;
  t["relax.multinomial_from_uniform"] = multinomial_from_uniform;
}

}  // namespace relax::compiler::legalize
