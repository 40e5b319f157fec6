// Internal to compiler/legalize: the context a per-op legalization builds its PrimFunc in, and
// the registration of the op families' legalizations.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/legalize/legalize.h"
#include "compiler/te/te.h"

namespace relax::compiler::legalize {

using te::Expr;
using te::Exprs;
using te::Tensor;

class Ctx {
 public:
  Ctx(const ir::Call& call, ir::DiagnosticBag& diags) : call(call), diags(diags) {}

  const ir::Call& call;
  ir::DiagnosticBag& diags;
  te::Builder b;
  std::string name;           // PrimFunc name hint
  std::optional<Tensor> out;  // the output tensor (the last stage, or a given one)
  std::vector<Tensor> outs;   // or the outputs of an op with a tuple result, in order

  // The tensor struct info of argument `i` with known dims (null otherwise).
  const ir::TensorStructInfo* tensor_sinfo(size_t i) const;
  // A placeholder for tensor argument `i` (named A, B, ... in order of creation); passes the
  // argument to the call. nullopt when the shape is not known.
  std::optional<Tensor> input(size_t i);
  // A scalar parameter for an `R.Prim` argument `i` (named as placeholders are); null when the
  // argument is not a prim value of known dtype.
  ir::Ref<ir::tir::Var> scalar_input(size_t i);
  // A placeholder for an arbitrary relax expression with known tensor shape.
  std::optional<Tensor> input_expr(const ir::Ref<ir::Expr>& e);
  // Placeholders for the fields of tuple argument `i`: a tuple expression's fields, or the
  // items `t[k]` of a variable of tuple struct info (the pass binds them before the call, as
  // TVM's emit_te does). nullopt when the argument is no tuple or a field's shape is not known.
  std::optional<std::vector<Tensor>> tuple_inputs(size_t i);
  // The result's dims and dtype (remapped to the PrimFunc's vars); nullopt when not known.
  std::optional<Exprs> out_shape() const;
  ir::DataType out_dtype() const;
  // For a tuple result: the dims and dtype of each field (nullopt when one is not known).
  std::optional<std::vector<std::pair<Exprs, ir::DataType>>> out_fields() const;
  // A relax-side dim in terms of the PrimFunc's fresh vars.
  Expr remap(const Expr& dim) const;
  // Attributes.
  std::optional<std::vector<int64_t>> ints(const std::string& key) const;  // null: nullopt
  int64_t int_attr(const std::string& key, int64_t fallback) const;
  double float_attr(const std::string& key, double fallback) const;
  std::string str_attr(const std::string& key, const std::string& fallback = "") const;
  bool bool_attr(const std::string& key, bool fallback) const;
  // Reports E0742 (unsupported attributes) and returns false.
  bool unsupported(const std::string& why);

  std::vector<te::Builder::Param> params;
  std::vector<ir::Ref<ir::Expr>> args;

  // Layout adaptation (layouts.cc): attribute values the legalization sees instead of the
  // call's; for input argument i, the axes of its canonical view (canonical dim d is the
  // argument's dim input_perm[i][d]), made by a transposing stage after its placeholder; and the
  // same for the result, whose canonical dims out_shape() then returns.
  std::unordered_map<std::string, std::string> attr_override;
  std::unordered_map<size_t, std::vector<size_t>> input_perm;
  std::optional<std::vector<size_t>> out_perm;

 private:
  mutable std::unordered_map<const ir::tir::Var*, ir::Ref<ir::tir::Var>> vars_;
  mutable std::vector<std::pair<ir::Ref<ir::tir::Var>, ir::Ref<ir::tir::Var>>>
      var_pairs_;  // relax, fresh

 public:
  // The relax-side var a fresh PrimFunc var stands for (null when it is not one).
  ir::Ref<ir::tir::Var> relax_var_of(const ir::tir::Var* fresh) const {
    for (const auto& [orig, f] : var_pairs_)
      if (f.get() == fresh) return orig;
    return nullptr;
  }
};

// A legalization: builds into the context, sets `name` and `out`; false = not legalized.
using LegalizeFn = std::function<bool(Ctx&)>;
using Table = std::unordered_map<std::string, LegalizeFn>;

void register_elementwise(Table& t);
void register_reduce(Table& t);
void register_manipulate(Table& t);
void register_nn(Table& t);
void register_misc(Table& t);
// Wraps the legalizations of convolutions, pools and resize2d so that any permutation of their
// canonical layouts (NHWC, HWIO, ...) is legalized through transposing stages.
void adapt_layouts(Table& t);
void register_conv(Table& t);
void register_pool(Table& t);
void register_nn_misc(Table& t);
void register_scatter(Table& t);
void register_einsum(Table& t);
void register_quantize(Table& t);
void register_layout(Table& t);

// A legalization into a Relax expression replacing the call (a call of a runtime builtin,
// ops_runtime.cc); null = not legalized (an error, if any, is reported into the bag).
using PackedFn = std::function<ir::Ref<ir::Expr>(const ir::Call&, ir::DiagnosticBag&)>;
using PackedTable = std::unordered_map<std::string, PackedFn>;
void register_runtime(PackedTable& t);

// Shared helpers.
// Numpy broadcasting of `x` (loaded at the output indices `idx` of an output of rank idx.size()).
Expr broadcast_load(const Tensor& x, const Exprs& idx, const Exprs& out_shape);
// Axis normalization (negative axes count from the end).
int64_t norm_axis(int64_t axis, int64_t ndim);
// The extent an index at position `i` of an index tensor must stay within.
using IndexExtent = std::function<Expr(const Exprs& i)>;
// Index validation for the ops that read or write where an index tensor says (take, gathers,
// scatters, index_tensor): a serial stage `<indices>_checked` that copies `indices` as int64,
// asserting 0 <= k < extent (-extent <= k < extent when `negative` indices count from the
// end); an index out of range stops the kernel with "R.op: <what> out of range [0, n)" instead
// of reading or writing past the tensor. The op then indexes with the copy.
Tensor checked_indices(Ctx& c, const Tensor& indices, const IndexExtent& extent, bool negative,
                       const std::string& what);
// e + v, folded when e is a constant (ops_conv.cc).
Expr add_const(const Expr& e, int64_t v);
// A per-spatial-axis attribute (one value stands for all); nullopt: an unexpected length.
std::optional<std::vector<int64_t>> spatial_ints(const Ctx& c, const std::string& key, size_t dims,
                                                 int64_t fallback);
// The `padding` attribute as (before, after) per spatial axis.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> spatial_padding(const Ctx& c,
                                                                                     size_t dims);
// The padded extent a pooling window needs: (out - 1) * stride + (k - 1) * dilation + 1
// (ops_pool.cc).
Expr window_extent(const Expr& out, int64_t stride, int64_t k, int64_t dil);
// A `pad_temp` copy of `x` (leading axes kept, the last before.size() axes padded to `extents`)
// with `pad` outside the data. A bound is tested only on a side with padding (as topi's pad), or
// on the upper side always when `guard_upper` (windows reaching past the data).
Tensor pad_spatial(te::Builder& b, const Tensor& x, const std::vector<int64_t>& before,
                   const std::vector<int64_t>& after, const Exprs& extents, const Expr& pad,
                   bool guard_upper);

}  // namespace relax::compiler::legalize
