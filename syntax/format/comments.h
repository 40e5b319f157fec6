// Comment placement: every comment of the file is attached to one node as a leading, dangling
// or trailing comment, following ruff's rules (the enclosing node and the nodes just before and
// after a comment decide, with special cases for bodies, brackets, operators and keywords), so
// that the layout code can print each comment exactly once, where ruff prints it.
#pragma once

#include <cstdint>
#include <span>
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
  // End-of-line comments right after a prefix operator (`not  # c` with the operand on the next
  // line). The layout prints them as line suffixes, so they land at the end of whatever line the
  // operand ends up on: their final place depends on the layout that their width helped choose.
  size_t floating() const { return floating_; }

 private:
  struct Slots {
    std::vector<uint32_t> lists[3];
  };
  std::span<const uint32_t> get(int32_t node, int k) const {
    if (slot_of_.empty() || node < 0) return {};
    int32_t slot = slot_of_[static_cast<size_t>(node)];
    if (slot < 0) return {};
    return slots_[static_cast<size_t>(slot)].lists[k];
  }
  void attach(int32_t node, int k, uint32_t index) {
    if (slot_of_.empty()) slot_of_.assign(ast_.size(), -1);
    int32_t& slot = slot_of_[static_cast<size_t>(node)];
    if (slot < 0) {
      slot = static_cast<int32_t>(slots_.size());
      slots_.emplace_back();
    }
    slots_[static_cast<size_t>(slot)].lists[k].push_back(index);
  }

  const Ast& ast_;
  std::vector<int32_t> slot_of_;  // node -> index in slots_, or -1 (empty without comments)
  std::vector<Slots> slots_;
  std::vector<char> formatted_;
  size_t floating_ = 0;
};

}  // namespace relax::syntax::format
