// Layout parsing and shape conversion between layouts.
#include "analysis/ops/layout.h"

#include <algorithm>
#include <cctype>

namespace relax::analysis {

int Layout::find(char c) const {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].name == c) return static_cast<int>(i);
  }
  return -1;
}

std::optional<Layout> parse_layout(std::string_view text) {
  Layout out;
  out.name = std::string(text);
  int64_t factor = 0;
  bool has_factor = false;
  for (char ch : text) {
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      factor = factor * 10 + (ch - '0');
      has_factor = true;
      if (factor > (int64_t{1} << 40)) return std::nullopt;
      continue;
    }
    if (std::isupper(static_cast<unsigned char>(ch))) {
      if (has_factor || out.find(ch) >= 0) return std::nullopt;
      out.axes.push_back({ch, 0});
    } else if (std::islower(static_cast<unsigned char>(ch))) {
      if (!has_factor || factor <= 0 || out.find(ch) >= 0) return std::nullopt;
      out.axes.push_back({ch, factor});
    } else {
      return std::nullopt;
    }
    factor = 0;
    has_factor = false;
  }
  if (has_factor) return std::nullopt;
  for (const auto& a : out.axes) {
    if (a.factor &&
        out.find(static_cast<char>(std::toupper(static_cast<unsigned char>(a.name)))) < 0)
      return std::nullopt;
  }
  return out;
}

bool layouts_convertible(const Layout& a, const Layout& b) {
  auto primal = [](const Layout& l) {
    std::string s;
    for (const auto& x : l.axes) {
      if (!x.factor) s.push_back(x.name);
    }
    std::sort(s.begin(), s.end());
    return s;
  };
  return primal(a) == primal(b);
}

PrimExprs convert_layout_shape(InferContext& ctx, const PrimExprs& shape, const Layout& from,
                               const Layout& to) {
  PrimExprs out;
  for (const auto& axis : to.axes) {
    if (axis.factor) {
      out.push_back(dim_const(axis.factor));
      continue;
    }
    int i = from.find(axis.name);
    ExprRef dim = shape[static_cast<size_t>(i)];
    int packed = from.find(static_cast<char>(std::tolower(static_cast<unsigned char>(axis.name))));
    if (packed >= 0) dim = dim_mul(dim, shape[static_cast<size_t>(packed)]);
    int target_packed =
        to.find(static_cast<char>(std::tolower(static_cast<unsigned char>(axis.name))));
    if (target_packed >= 0)
      dim = dim_floordiv(dim, dim_const(to.axes[static_cast<size_t>(target_packed)].factor));
    out.push_back(ctx.analyzer().simplify(dim));
  }
  return out;
}

std::optional<Layout> layout_attr(InferContext& ctx, std::string_view attr,
                                  std::string_view canonical) {
  std::string text = ctx.attr_string(attr).value_or(std::string(canonical));
  auto layout = parse_layout(text);
  auto target = parse_layout(canonical);
  if (!layout) {
    ctx.error_at_attr(
           attr, "E0319",
           ctx.op_name() + ": `" + std::string(attr) + "` \"" + text + "\" is not a layout")
        .note(
            "a layout lists each axis once, upper case, with packed parts as a factor and the "
            "lower-case axis "
            "(\"NCHW\", \"NHWC\", \"NCHW16c\")");
    return std::nullopt;
  }
  if (!layouts_convertible(*layout, *target)) {
    ctx.error_at_attr(attr, "E0319",
                      ctx.op_name() + ": `" + std::string(attr) + "` \"" + text +
                          "\" cannot be converted to " + std::string(canonical) +
                          " (it must have the axes " + std::string(canonical) + ")");
    return std::nullopt;
  }
  return layout;
}

bool check_layout_rank(InferContext& ctx, size_t arg, const ir::TensorStructInfo& t,
                       const Layout& layout, std::string_view attr) {
  if (t.is_unknown_ndim() || t.ndim == layout.ndim()) return true;
  ctx.error_at_arg(arg, "E0312",
                   ctx.op_name() + ": " + std::string(attr) + " \"" + layout.name + "\" requires " +
                       arg_name(ctx, arg) + " to have rank " + std::to_string(layout.ndim()) +
                       ", but it has rank " + std::to_string(t.ndim));
  return false;
}

}  // namespace relax::analysis
