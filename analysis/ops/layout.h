// Tensor layouts of the nn ops ("NCHW", "NHWC", "NCHW16c", "OIHW"): parsing, the check that a
// layout can be converted to the op's canonical one (same primal axes), and the conversion of
// shapes between layouts (a packed axis `16c` multiplies its primal axis `C` by 16).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/ops/common.h"

namespace relax::analysis {

struct Layout {
  struct Axis {
    char name;       // 'N', 'C', ... (primal, upper case) or 'c', ... (packed part, lower case)
    int64_t factor;  // the packed part's extent; 0 for a primal axis
  };
  std::string name;
  std::vector<Axis> axes;

  int ndim() const { return static_cast<int>(axes.size()); }
  // Position of the axis named `c`, or -1.
  int find(char c) const;
};

// Parses a layout string; nullopt when it is not one (a repeated axis, a packed axis without a
// factor or without its primal axis, a character that is not a letter or digit).
std::optional<Layout> parse_layout(std::string_view text);

// Whether shapes convert between the two layouts: they have the same primal axes.
bool layouts_convertible(const Layout& a, const Layout& b);

// A shape in layout `from` expressed in layout `to` (convertible layouts), dims simplified.
PrimExprs convert_layout_shape(InferContext& ctx, const PrimExprs& shape, const Layout& from,
                               const Layout& to);

// The layout attribute `attr` of the call, checked to convert to `canonical`; reports E0319 at
// the attribute otherwise.
std::optional<Layout> layout_attr(InferContext& ctx, std::string_view attr,
                                  std::string_view canonical);

// The tensor argument's rank must match the layout (E0312 at the argument). Returns the
// tensor's ShapeExpr dims when known.
bool check_layout_rank(InferContext& ctx, size_t arg, const ir::TensorStructInfo& t,
                       const Layout& layout, std::string_view attr);

}  // namespace relax::analysis
