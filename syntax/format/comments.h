// Comment placement: every comment of the file is attached to one node as a leading, dangling
// or trailing comment, following ruff's rules (the enclosing node and the nodes just before and
// after a comment decide, with special cases for bodies, brackets, operators and keywords), so
// that the layout code can print each comment exactly once, where ruff prints it.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "syntax/format/ast.h"

namespace relax::syntax::format {

class Comments {
 public:
  explicit Comments(const Ast& ast);

  std::span<const uint32_t> leading(int32_t node) const { return get(node, 0); }
  std::span<const uint32_t> dangling(int32_t node) const { return get(node, 1); }
  std::span<const uint32_t> trailing(int32_t node) const { return get(node, 2); }
  bool has_leading(int32_t node) const { return !leading(node).empty(); }
  bool has_dangling(int32_t node) const { return !dangling(node).empty(); }
  bool has_trailing(int32_t node) const { return !trailing(node).empty(); }
  bool has(int32_t node) const {
    return has_leading(node) || has_dangling(node) || has_trailing(node);
  }
  bool has_trailing_own_line(int32_t node) const;
  bool has_trailing_end_of_line(int32_t node) const;

  const SourceComment& comment(uint32_t i) const { return ast_.comments()[i]; }
  size_t size() const { return ast_.comments().size(); }
  bool formatted(uint32_t i) const { return formatted_[i]; }
  void mark_formatted(uint32_t i) { formatted_[i] = true; }
  void mark_unformatted(uint32_t i) { formatted_[i] = false; }
  bool any_comments() const { return !ast_.comments().empty(); }

 private:
  struct Slots {
    std::vector<uint32_t> lists[3];
  };
  std::span<const uint32_t> get(int32_t node, int k) const {
    if (map_.empty()) return {};
    auto it = map_.find(node);
    if (it == map_.end()) return {};
    return it->second.lists[k];
  }
  void attach(int32_t node, int k, uint32_t index) { map_[node].lists[k].push_back(index); }

  const Ast& ast_;
  std::unordered_map<int32_t, Slots> map_;
  std::vector<char> formatted_;
};

}  // namespace relax::syntax::format
