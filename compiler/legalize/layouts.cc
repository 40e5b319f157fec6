// Layouts other than the canonical ones for convolutions, pools and resize2d: when a layout
// attribute is a permutation of the canonical letters (NHWC for NCHW, HWIO or OHWI for OIHW, ...),
// the legalization runs in the canonical layout: each such input goes through a transposing
// stage, the attribute reads as canonical, and a last stage writes the result in the requested
// out layout. Layouts that split an axis (NCHW4c) or name other axes stay unsupported (E0742).
#include <algorithm>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

namespace {

// One layout attribute of an op: its canonical value, and the argument it describes (-1: the
// result). An empty value falls back to `fallback_attr` (out_layout to the data layout).
struct LayoutAttr {
  std::string attr;
  std::string canonical;
  int arg;
  std::string fallback_attr;
};

// canonical dim d is dim perm[d] of `layout`; nullopt unless `layout` permutes `canonical`.
std::optional<std::vector<size_t>> permutation(const std::string& layout,
                                               const std::string& canonical) {
  if (layout.size() != canonical.size()) return std::nullopt;
  std::vector<size_t> perm;
  for (char axis : canonical) {
    auto at = layout.find(axis);
    if (at == std::string::npos) return std::nullopt;
    perm.push_back(at);
  }
  std::vector<size_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return std::nullopt;
  return perm;
}

LegalizeFn adapt(LegalizeFn inner, std::vector<LayoutAttr> attrs) {
  return [inner = std::move(inner), attrs = std::move(attrs)](Ctx& c) {
    std::optional<std::vector<size_t>> out_perm;
    for (const LayoutAttr& a : attrs) {
      std::string value = c.str_attr(a.attr, "");
      if (value.empty() && !a.fallback_attr.empty()) value = c.str_attr(a.fallback_attr, "");
      if (value.empty() || value == a.canonical) continue;
      auto perm = permutation(value, a.canonical);
      if (!perm)
        return c.unsupported(a.attr + " \"" + value + "\" (a permutation of " + a.canonical +
                             " is supported)");
      if (a.arg >= 0)
        c.input_perm[static_cast<size_t>(a.arg)] = *perm;
      else
        out_perm = perm;
    }
    if (c.input_perm.empty() && !out_perm) return inner(c);
    std::optional<Exprs> requested = c.out_shape();  // in the requested layout
    for (const LayoutAttr& a : attrs) c.attr_override[a.attr] = a.canonical;
    c.out_perm = out_perm;
    if (!inner(c) || !c.out || !requested) return false;
    if (!out_perm) return true;
    // The result in the requested layout: its dim (*out_perm)[d] is canonical dim d.
    Tensor canonical = *c.out;
    const std::vector<size_t>& p = *out_perm;
    c.out = c.b.compute(
        *requested, canonical.dtype(), "T_layout_trans",
        [&](const Exprs& idx) {
          Exprs at;
          for (size_t d = 0; d < p.size(); ++d) at.push_back(idx[p[d]]);
          return canonical(at);
        },
        "ax");
    return true;
  };
}

void wrap(Table& t, const std::string& op, std::vector<LayoutAttr> attrs) {
  auto it = t.find(op);
  if (it == t.end()) return;
  it->second = adapt(it->second, std::move(attrs));
}

}  // namespace

void adapt_layouts(Table& t) {
  const char* spatial[] = {"W", "HW", "DHW"};
  for (int dims = 1; dims <= 3; ++dims) {
    std::string d = std::to_string(dims) + "d", sp = spatial[dims - 1];
    std::string data = "NC" + sp;
    for (bool transpose : {false, true}) {
      std::string kernel = (transpose ? "IO" : "OI") + sp;
      wrap(t, "relax.nn.conv" + d + (transpose ? "_transpose" : ""),
           {{"data_layout", data, 0, ""},
            {"kernel_layout", kernel, 1, ""},
            {"out_layout", data, -1, "data_layout"}});
    }
    for (const char* pool : {"max_pool", "avg_pool", "adaptive_avg_pool"})
      wrap(t, std::string("relax.nn.") + pool + d,
           {{"layout", data, 0, ""}, {"out_layout", data, -1, "layout"}});
  }
  wrap(t, "relax.image.resize2d", {{"layout", "NCHW", 0, ""}, {"layout", "NCHW", -1, ""}});
}

}  // namespace relax::compiler::legalize
