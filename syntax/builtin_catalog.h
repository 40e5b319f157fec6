// The front end's builtins (R.Tensor, R.dataflow, T.grid, T.axis.spatial, ...): each name the
// front end gives a meaning to, with its signature and a one-line doc, for hover and completion.
#pragma once
#include <string_view>
#include <vector>
namespace relax::syntax {
struct BuiltinInfo {
  std::string_view name;       // "T.grid"
  std::string_view signature;  // "T.grid(*extents: PrimExpr)"
  std::string_view doc;        // one sentence, ending with a period
};
// Every name of builtin_names(), sorted by name.
const std::vector<BuiltinInfo>& builtin_catalog();
// The entry of a name, or null.
const BuiltinInfo* find_builtin(std::string_view name);
}  // namespace relax::syntax
