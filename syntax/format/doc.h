// The formatter's document algebra: a flat sequence of elements (text, line breaks, and
// start/end tags for groups, indentation, conditional content, line suffixes and best-fitting
// alternatives) plus the printer that lays a document out at a given width. The semantics are
// those of the Wadler/Prettier family as ruff's formatter refines them (measured fits, group
// ids, "fits expanded", best-fit parenthesization), because our layouts must equal ruff's.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace relax::syntax::format {

enum class LineMode : uint8_t {
  kSoft,         // nothing when flat, a line break when expanded
  kSoftOrSpace,  // a space when flat, a line break when expanded
  kHard,         // always a line break (expands enclosing groups)
  kEmpty,        // a line break that leaves one empty line
};

enum class PrintMode : uint8_t { kFlat, kExpanded };

// How a best-fitting alternative is measured: up to its first line break, or every line.
enum class BestFitMode : uint8_t { kFirstLine, kAllLines };

using GroupId = uint32_t;  // 0 means "no id"

enum class Op : uint8_t {
  kText,  // a = offset in the text arena, b = bytes, c = display width; flags: kMultiline
  kSpace,
  kLine,  // mode = LineMode
  kExpandParent,
  kLineSuffixBoundary,
  kBestFitting,  // a = first variant slice, b = variant count, mode = BestFitMode
  kInterned,     // a = slice
  kStartGroup,   // a = id, mode = GroupState
  kEndGroup,
  kStartConditionalGroup,  // a = condition group id, mode = condition PrintMode, flags = GroupState
  kEndConditionalGroup,
  kStartIndent,
  kEndIndent,
  kStartDedent,  // mode: 0 one level, 1 to the root
  kEndDedent,
  kStartConditionalContent,  // a = group id (0: enclosing), mode = PrintMode
  kEndConditionalContent,
  kStartIndentIfGroupBreaks,  // a = group id
  kEndIndentIfGroupBreaks,
  kStartLineSuffix,  // a = reserved width
  kEndLineSuffix,
  kStartFitsExpanded,  // a = condition group id, mode = condition PrintMode; flags: kHasCondition,
                       // kPropagated
  kEndFitsExpanded,
  kStartBestFitParenthesize,  // a = id
  kEndBestFitParenthesize,
  kStartEntry,  // a best-fitting variant
  kEndEntry,
};

// Group states (Element::mode of kStartGroup, flags of kStartConditionalGroup).
enum : uint8_t { kGroupFlat = 0, kGroupExpand = 1, kGroupPropagated = 2 };
// Element::flags bits.
enum : uint8_t { kMultiline = 1, kHasCondition = 1, kPropagated = 2 };

struct Element {
  Op op;
  uint8_t mode = 0;
  uint8_t flags = 0;
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;
};

// The display width of a one-line text: code points, East Asian wide ones counting two and
// combining marks zero (ruff measures with the unicode-width tables).
uint32_t text_width(std::string_view text);

// A document under construction and its storage. Content is written to the current buffer;
// begin_slice()/end_slice() capture a sub-document (a best-fitting variant, or content formatted
// once and referenced several times) that elements refer to by index.
class Document {
 public:
  Document();
  // Room for about `elements` elements and `text` bytes of text (avoids regrowing).
  void reserve(size_t elements, size_t text) {
    root_.reserve(elements);
    arena_.reserve(text);
  }

  void text(std::string_view s);
  void space() { push({Op::kSpace}); }
  void line(LineMode m) { push({Op::kLine, static_cast<uint8_t>(m)}); }
  void soft_line() { line(LineMode::kSoft); }
  void soft_line_or_space() { line(LineMode::kSoftOrSpace); }
  void hard_line() { line(LineMode::kHard); }
  void empty_line() { line(LineMode::kEmpty); }
  void expand_parent() { push({Op::kExpandParent}); }
  void line_suffix_boundary() { push({Op::kLineSuffixBoundary}); }

  GroupId new_group_id() { return next_group_id_++; }
  void start_group(GroupId id = 0, bool expand = false) {
    push({Op::kStartGroup, expand ? kGroupExpand : kGroupFlat, 0, id});
  }
  void end_group() { push({Op::kEndGroup}); }
  void start_conditional_group(GroupId id, PrintMode m) {
    push({Op::kStartConditionalGroup, static_cast<uint8_t>(m), kGroupFlat, id});
  }
  void end_conditional_group() { push({Op::kEndConditionalGroup}); }
  void start_indent() { push({Op::kStartIndent}); }
  void end_indent() { push({Op::kEndIndent}); }
  void start_dedent(bool to_root) { push({Op::kStartDedent, static_cast<uint8_t>(to_root)}); }
  void end_dedent() { push({Op::kEndDedent}); }
  // Content printed only when group `id` (0: the enclosing group) is in `m` mode.
  void start_if(PrintMode m, GroupId id = 0) {
    push({Op::kStartConditionalContent, static_cast<uint8_t>(m), 0, id});
  }
  void end_if() { push({Op::kEndConditionalContent}); }
  void start_indent_if_group_breaks(GroupId id) { push({Op::kStartIndentIfGroupBreaks, 0, 0, id}); }
  void end_indent_if_group_breaks() { push({Op::kEndIndentIfGroupBreaks}); }
  void start_line_suffix(uint32_t reserved_width) {
    push({Op::kStartLineSuffix, 0, 0, reserved_width});
  }
  void end_line_suffix() { push({Op::kEndLineSuffix}); }
  // Measured fully expanded (overflow allowed) when the condition holds: group `id` in mode `m`.
  void start_fits_expanded(bool has_condition, GroupId id = 0, PrintMode m = PrintMode::kFlat) {
    push({Op::kStartFitsExpanded, static_cast<uint8_t>(m),
          static_cast<uint8_t>(has_condition ? 1 : 0), id});
  }
  void end_fits_expanded() { push({Op::kEndFitsExpanded}); }
  void start_best_fit_parenthesize(GroupId id) { push({Op::kStartBestFitParenthesize, 0, 0, id}); }
  void end_best_fit_parenthesize() { push({Op::kEndBestFitParenthesize}); }

  // While on, soft line breaks are dropped (or become spaces) and content shown only when a group
  // breaks is left out: the content is written flat whatever the width (ruff's
  // RemoveSoftLinesBuffer). Nests.
  void push_remove_soft_lines() { ++remove_soft_lines_; }
  void pop_remove_soft_lines() { --remove_soft_lines_; }

  // The current buffer's size, and cutting it back (to drop a construct whose content came out
  // empty, as ruff's block indents do).
  size_t mark() const { return current_->size(); }
  void truncate(size_t size) { current_->resize(size); }

  // Sub-documents.
  void begin_slice();
  uint32_t end_slice();
  void interned(uint32_t slice) { push({Op::kInterned, 0, 0, slice}); }
  // `variants` are slices from most flat to most expanded, each begun with begin_variant().
  void begin_variant() {
    begin_slice();
    push({Op::kStartEntry});
  }
  uint32_t end_variant() {
    push({Op::kEndEntry});
    return end_slice();
  }
  void best_fitting(const std::vector<uint32_t>& variants,
                    BestFitMode mode = BestFitMode::kFirstLine);

  // True if the slice's content will certainly break (ruff's `will_break`).
  bool will_break(uint32_t slice) const;

  // Marks groups that contain hard breaks as expanded. Call once before printing.
  void propagate_expand();

  const std::vector<Element>& root() const { return root_; }
  const std::vector<Element>& slice(uint32_t i) const { return slices_[i]; }
  // The slice of variant `i` of a best-fitting element.
  const std::vector<Element>& variant(const Element& best_fitting, uint32_t i) const {
    return slices_[variant_table_[best_fitting.a + i]];
  }
  std::string_view text_of(const Element& e) const {
    return std::string_view(arena_).substr(e.a, e.b);
  }
  uint32_t group_count() const { return next_group_id_; }

 private:
  void push(Element e) {
    if (remove_soft_lines_ > 0 && !filter(e)) return;
    current_->push_back(e);
  }
  bool filter(Element& e);
  struct EnclosingEntry;
  bool propagate(std::vector<Element>& elements, std::vector<EnclosingEntry>& enclosing,
                 std::vector<int8_t>& checked);
  bool will_break(const std::vector<Element>& elements) const;

  std::vector<Element> root_;
  std::deque<std::vector<Element>> slices_;
  std::vector<std::vector<Element>*> buffers_;
  std::vector<uint32_t> open_slices_;
  std::vector<uint32_t> variant_table_;
  std::vector<Element>* current_;
  std::string arena_;
  GroupId next_group_id_ = 1;
  int remove_soft_lines_ = 0;
  int skipping_ = 0;  // depth inside skipped if-breaks content
};

struct PrintOptions {
  uint32_t line_width = 100;
  uint32_t indent_width = 4;
};

// Lays the document out. Output lines end with "\n".
std::string print_document(const Document& doc, const PrintOptions& options);

}  // namespace relax::syntax::format
