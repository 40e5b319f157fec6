// Legalizations of layout_transform, meshgrid and multinomial_from_uniform.
// - layout_transform: the output starts filled with pad_value (0 when absent; only padded
//   positions keep it), then every input element is stored at the index map's image of its
//   index: a hand-written stage with serial loops, which needs no inverse of the map and so
//   handles every map inference does (floordiv / floormod splits, fusions, permutations).
//   Axis separators only describe the physical layout and do not change the values.
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
  auto tuple = c.call.args.empty() ? nullptr : c.call.args[0].as_ptr<ir::Tuple>();
  if (!fields) return false;
  if (!tuple) return c.unsupported("the tensors must be a tuple expression");
  std::vector<Tensor> xs;
  for (const auto& f : tuple->fields) {
    auto t = c.input_expr(f);
    if (!t) return false;
    xs.push_back(*t);
  }
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
