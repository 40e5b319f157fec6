// The document printer. Elements are consumed from a queue of slices; start tags push frames
// (indentation, print mode, measure mode) that end tags pop. Whether a group fits is measured by
// a second walker that reads ahead through the same queue and a stack layered on the printer's
// stack, without consuming either, until the first line break or the width is exceeded.
#include <cstdint>
#include <string>
#include <vector>

#include "syntax/format/doc.h"

namespace relax::syntax::format {

namespace {

enum class MeasureMode : uint8_t { kFirstLine, kAllLines, kAllLinesAllowOverflow };

struct Args {
  uint16_t level = 0;
  PrintMode mode = PrintMode::kExpanded;
  MeasureMode measure = MeasureMode::kFirstLine;

  Args with_mode(PrintMode m) const {
    Args a = *this;
    a.mode = m;
    return a;
  }
  Args with_measure(MeasureMode m) const {
    Args a = *this;
    a.measure = m;
    return a;
  }
  Args indented() const {
    Args a = *this;
    ++a.level;
    return a;
  }
};

struct Frame {
  Op kind;
  Args args;
};

struct Slice {
  const Element* cur;
  const Element* end;
};

constexpr uint8_t kUnknownMode = 255;

// Elements the printer inserts itself (they refer to the "()" the document keeps at offset 0).
const Element kOpenParen{Op::kText, 0, 0, 0, 1, 1};
const Element kCloseParen{Op::kText, 0, 0, 1, 1, 1};
const Element kIndentStart{Op::kStartIndent};
const Element kHardLine{Op::kLine, static_cast<uint8_t>(LineMode::kHard)};
const Element kEndLineSuffix{Op::kEndLineSuffix};
const Element kParenthesizeOpen[] = {kOpenParen, kIndentStart, kHardLine};
const Element kParenthesizeClose[] = {kHardLine, kCloseParen};

class Queue {
 public:
  void push(const Element* begin, const Element* end) {
    if (begin != end) slices_.push_back({begin, end});
  }
  void push(const std::vector<Element>& v) { push(v.data(), v.data() + v.size()); }
  const Element* pop() {
    while (!slices_.empty()) {
      Slice& s = slices_.back();
      if (s.cur != s.end) return s.cur++;
      slices_.pop_back();
    }
    return nullptr;
  }
  const Element* top() {
    while (!slices_.empty()) {
      Slice& s = slices_.back();
      if (s.cur != s.end) return s.cur;
      slices_.pop_back();
    }
    return nullptr;
  }
  // Removes the most recently pushed slice (used after a measurement that read it).
  void pop_slice() {
    if (!slices_.empty()) slices_.pop_back();
  }
  // Skips the content up to and including the end tag that matches start tag `start`.
  void skip_content(Op start, Op end) {
    int depth = 1;
    while (const Element* e = pop()) {
      if (e->op == start) ++depth;
      if (e->op == end && --depth == 0) return;
    }
  }
  std::vector<Slice>& slices() { return slices_; }
  void assign(const std::vector<Slice>& s) { slices_ = s; }
  bool empty() { return top() == nullptr; }

 private:
  std::vector<Slice> slices_;
};

struct LineSuffix {
  Args args;
  const Element* begin;
  const Element* end;
};

enum class Fits { kYes, kNo, kMaybe };

class Printer {
 public:
  Printer(const Document& doc, const PrintOptions& options) : doc_(doc), options_(options) {
    group_modes_.assign(doc.group_count() + 1, kUnknownMode);
    out_.reserve(1 << 16);
  }

  std::string print() {
    stack_.push_back({Op::kStartIndent, Args{}});
    queue_.push(doc_.root());
    while (true) {
      if (const Element* e = queue_.pop()) {
        print_element(*e);
      } else if (!flush_line_suffixes(nullptr)) {
        break;
      }
    }
    return std::move(out_);
  }

 private:
  // ---- printing ----
  const Args& top() const { return stack_.back().args; }
  void push(Op kind, const Args& args) { stack_.push_back({kind, args}); }
  void pop() {
    if (stack_.size() > 1) stack_.pop_back();
  }

  PrintMode group_mode(GroupId id, PrintMode fallback) const {
    if (id == 0 || id >= group_modes_.size() || group_modes_[id] == kUnknownMode) return fallback;
    return static_cast<PrintMode>(group_modes_[id]);
  }
  void set_group_mode(GroupId id, PrintMode m) {
    if (id != 0 && id < group_modes_.size()) group_modes_[id] = static_cast<uint8_t>(m);
  }

  void print_element(const Element& e) {
    Args args = top();
    switch (e.op) {
      case Op::kSpace:
        print_text(" ", 1, false);
        break;
      case Op::kText:
        print_text(doc_.text_of(e), e.c, (e.flags & kMultiline) != 0);
        break;
      case Op::kLine: {
        LineMode m = static_cast<LineMode>(e.mode);
        if (args.mode == PrintMode::kFlat &&
            (m == LineMode::kSoft || m == LineMode::kSoftOrSpace)) {
          if (m == LineMode::kSoftOrSpace) print_text(" ", 1, false);
        } else if (!line_suffixes_.empty()) {
          flush_line_suffixes(&e);
        } else {
          if (out_.size() > line_start_) print_newline();
          if (m == LineMode::kEmpty) print_newline();
          pending_indent_ = args.level;
        }
        break;
      }
      case Op::kExpandParent:
        break;
      case Op::kLineSuffixBoundary:
        flush_line_suffixes(&kHardLine);
        break;
      case Op::kBestFitting:
        print_best_fitting(e);
        break;
      case Op::kInterned:
        queue_.push(doc_.slice(e.a));
        break;
      case Op::kStartGroup: {
        PrintMode m = e.mode != kGroupFlat ? PrintMode::kExpanded
                                           : flat_group_mode(Op::kStartGroup, e.a, args);
        set_group_mode(e.a, m);
        push(Op::kStartGroup, args.with_mode(m));
        break;
      }
      case Op::kStartBestFitParenthesize: {
        bool fits_flat =
            flat_group_mode(Op::kStartBestFitParenthesize, e.a, args) == PrintMode::kFlat;
        PrintMode m = PrintMode::kFlat;
        if (!fits_flat) {
          // Parenthesize only if the parenthesized content fits; otherwise keep it flat.
          set_group_mode(e.a, PrintMode::kExpanded);
          push(Op::kStartBestFitParenthesize, args.with_measure(MeasureMode::kAllLines));
          queue_.push(kParenthesizeOpen, kParenthesizeOpen + 3);
          bool fits_expanded = fits();
          queue_.pop_slice();
          pop();
          m = fits_expanded ? PrintMode::kExpanded : PrintMode::kFlat;
        }
        set_group_mode(e.a, m);
        if (m == PrintMode::kExpanded) queue_.push(kParenthesizeOpen, kParenthesizeOpen + 3);
        push(Op::kStartBestFitParenthesize, args.with_mode(m));
        break;
      }
      case Op::kEndBestFitParenthesize:
        if (args.mode == PrintMode::kExpanded) {
          pop();  // the indentation opened after "("
          queue_.push(kParenthesizeClose, kParenthesizeClose + 2);
        }
        pop();
        break;
      case Op::kStartConditionalGroup: {
        PrintMode expected = group_mode(e.a, args.mode);
        if (expected == static_cast<PrintMode>(e.mode)) {
          PrintMode m = e.flags != kGroupFlat
                            ? PrintMode::kExpanded
                            : flat_group_mode(Op::kStartConditionalGroup, 0, args);
          push(Op::kStartConditionalGroup, args.with_mode(m));
        } else {
          push(Op::kStartConditionalGroup, args);
        }
        break;
      }
      case Op::kStartIndent:
        push(Op::kStartIndent, args.indented());
        break;
      case Op::kStartDedent: {
        Args a = args;
        a.level = e.mode ? 0 : (a.level > 0 ? a.level - 1 : 0);
        push(Op::kStartDedent, a);
        break;
      }
      case Op::kStartConditionalContent: {
        PrintMode m = e.a ? group_mode(e.a, args.mode) : args.mode;
        if (m == static_cast<PrintMode>(e.mode)) {
          push(Op::kStartConditionalContent, args);
        } else {
          queue_.skip_content(Op::kStartConditionalContent, Op::kEndConditionalContent);
        }
        break;
      }
      case Op::kStartIndentIfGroupBreaks: {
        PrintMode m = group_mode(e.a, PrintMode::kFlat);
        push(Op::kStartIndentIfGroupBreaks, m == PrintMode::kExpanded ? args.indented() : args);
        break;
      }
      case Op::kStartLineSuffix: {
        line_width_ += e.a;
        // The content runs to the matching end tag within the current slice.
        std::vector<Slice>& slices = queue_.slices();
        Slice& s = slices.back();
        const Element* begin = s.cur;
        int depth = 1;
        const Element* p = s.cur;
        for (; p != s.end; ++p) {
          if (p->op == Op::kStartLineSuffix) ++depth;
          if (p->op == Op::kEndLineSuffix && --depth == 0) break;
        }
        line_suffixes_.push_back({args, begin, p});
        s.cur = p == s.end ? p : p + 1;
        break;
      }
      case Op::kStartFitsExpanded: {
        bool met = true;
        if (e.flags & kHasCondition) {
          PrintMode m = e.a ? group_mode(e.a, args.mode) : args.mode;
          met = m == static_cast<PrintMode>(e.mode);
        }
        // The inner groups were measured expanded; they must be measured again.
        if (met) measured_group_fits_ = false;
        push(Op::kStartFitsExpanded, args);
        break;
      }
      case Op::kStartEntry:
        push(Op::kStartEntry, args);
        break;
      case Op::kEndGroup:
      case Op::kEndConditionalGroup:
      case Op::kEndIndent:
      case Op::kEndDedent:
      case Op::kEndConditionalContent:
      case Op::kEndIndentIfGroupBreaks:
      case Op::kEndFitsExpanded:
      case Op::kEndLineSuffix:
      case Op::kEndEntry:
        pop();
        break;
    }
  }

  PrintMode flat_group_mode(Op kind, GroupId id, const Args& args) {
    if (args.mode == PrintMode::kFlat && measured_group_fits_) return PrintMode::kFlat;
    measured_group_fits_ = true;
    set_group_mode(id, PrintMode::kFlat);
    push(kind, args.with_mode(PrintMode::kFlat));
    bool ok = fits();
    pop();
    return ok ? PrintMode::kFlat : PrintMode::kExpanded;
  }

  void print_best_fitting(const Element& e) {
    Args args = top();
    if (args.mode == PrintMode::kFlat && measured_group_fits_) {
      queue_.push(doc_.variant(e, 0));
      print_entry(args);
      return;
    }
    measured_group_fits_ = true;
    MeasureMode measure = e.mode == static_cast<uint8_t>(BestFitMode::kAllLines)
                              ? MeasureMode::kAllLines
                              : MeasureMode::kFirstLine;
    for (uint32_t i = 0; i + 1 < e.b; ++i) {
      const std::vector<Element>& v = doc_.variant(e, i);
      // Measure the content without its entry tag so that the entry's args apply.
      queue_.push(v.data() + 1, v.data() + v.size());
      push(Op::kStartEntry, args.with_mode(PrintMode::kFlat).with_measure(measure));
      bool ok = fits();
      pop();
      queue_.pop_slice();
      if (ok) {
        queue_.push(v);
        print_entry(args.with_mode(PrintMode::kFlat));
        return;
      }
    }
    queue_.push(doc_.variant(e, e.b - 1));
    print_entry(args.with_mode(PrintMode::kExpanded));
  }

  // Prints a whole best-fitting entry (the queue's top starts with kStartEntry) with `args`.
  void print_entry(const Args& args) {
    const Element* start = queue_.pop();
    if (!start || start->op != Op::kStartEntry) return;
    push(Op::kStartEntry, args);
    int depth = 1;
    while (const Element* e = queue_.pop()) {
      if (e->op == Op::kStartEntry) {
        ++depth;
      } else if (e->op == Op::kEndEntry) {
        if (--depth == 0) {
          pop();
          return;
        }
      }
      print_element(*e);
    }
  }

  bool flush_line_suffixes(const Element* line_break) {
    if (line_suffixes_.empty()) return false;
    std::vector<LineSuffix> suffixes;
    suffixes.swap(line_suffixes_);
    // Print the line break again once the suffixes are out.
    if (line_break) queue_.push(line_break, line_break + 1);
    for (size_t i = suffixes.size(); i-- > 0;) {
      queue_.push(&kEndLineSuffix, &kEndLineSuffix + 1);
      queue_.push(suffixes[i].begin, suffixes[i].end);
      push(Op::kStartLineSuffix, suffixes[i].args);
    }
    return true;
  }

  void write_indent() {
    if (pending_indent_ == 0) return;
    out_.append(static_cast<size_t>(pending_indent_) * options_.indent_width, ' ');
    line_width_ += pending_indent_ * options_.indent_width;
    pending_indent_ = 0;
  }

  void print_newline() {
    out_.push_back('\n');
    line_width_ = 0;
    line_start_ = out_.size();
    measured_group_fits_ = false;
  }

  void print_text(std::string_view text, uint32_t width, bool multiline) {
    write_indent();
    if (!multiline) {
      out_.append(text);
      line_width_ += width;
      return;
    }
    size_t start = 0;
    while (start <= text.size()) {
      size_t nl = text.find('\n', start);
      std::string_view part =
          text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      out_.append(part);
      line_width_ += text_width(part);
      if (nl == std::string_view::npos) break;
      print_newline();
      start = nl + 1;
    }
  }

  // ---- measuring ----
  struct Measure {
    Queue queue;
    std::vector<Frame> stack;  // frames pushed while measuring, on top of the printer's stack
    size_t borrowed = 0;       // how many printer frames are still visible below
    uint32_t pending_indent = 0;
    uint32_t line_width = 0;
    bool has_line_suffix = false;
    bool must_be_flat = false;
  };

  const Args& mtop(const Measure& m) const {
    return m.stack.empty() ? stack_[m.borrowed - 1].args : m.stack.back().args;
  }
  Op mtop_kind(const Measure& m) const {
    return m.stack.empty() ? stack_[m.borrowed - 1].kind : m.stack.back().kind;
  }
  Args mpop(Measure& m) {
    if (!m.stack.empty()) {
      Args a = m.stack.back().args;
      m.stack.pop_back();
      return a;
    }
    if (m.borrowed > 1) --m.borrowed;
    return stack_[m.borrowed - 1].args;
  }

  bool fits() {
    Measure& m = measure_;
    m.queue.assign(queue_.slices());
    m.stack.clear();
    m.borrowed = stack_.size();
    m.pending_indent = pending_indent_;
    m.line_width = line_width_;
    m.has_line_suffix = !line_suffixes_.empty();
    m.must_be_flat = false;
    while (const Element* e = m.queue.pop()) {
      Fits f = fits_element(m, *e);
      if (f == Fits::kYes) return true;
      if (f == Fits::kNo) return false;
    }
    return true;
  }

  Fits fits_text(Measure& m, std::string_view text, uint32_t width, bool multiline,
                 const Args& args) {
    m.line_width += m.pending_indent * options_.indent_width;
    m.pending_indent = 0;
    bool overflow_ok = args.measure == MeasureMode::kAllLinesAllowOverflow;
    if (!multiline) {
      m.line_width += width;
    } else {
      size_t start = 0;
      while (true) {
        size_t nl = text.find('\n', start);
        std::string_view part =
            text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        m.line_width += text_width(part);
        if (nl == std::string_view::npos) break;
        if (m.must_be_flat) return Fits::kNo;
        if (args.measure == MeasureMode::kFirstLine) {
          return (m.line_width > options_.line_width && !overflow_ok) ? Fits::kNo : Fits::kYes;
        }
        m.line_width = 0;
        start = nl + 1;
      }
    }
    if (m.line_width > options_.line_width && !overflow_ok) return Fits::kNo;
    return Fits::kMaybe;
  }

  Fits fits_group(Measure& m, Op kind, uint8_t state, GroupId id, const Args& args) {
    if (m.must_be_flat && state != kGroupFlat) return Fits::kNo;
    PrintMode mode = state == kGroupFlat ? args.mode : PrintMode::kExpanded;
    m.stack.push_back({kind, args.with_mode(mode)});
    set_group_mode(id, mode);
    return Fits::kMaybe;
  }

  Fits fits_element(Measure& m, const Element& e) {
    Args args = mtop(m);
    switch (e.op) {
      case Op::kSpace:
        return fits_text(m, " ", 1, false, args);
      case Op::kText:
        return fits_text(m, doc_.text_of(e), e.c, (e.flags & kMultiline) != 0, args);
      case Op::kLine: {
        LineMode lm = static_cast<LineMode>(e.mode);
        if (args.mode == PrintMode::kFlat) {
          if (lm == LineMode::kSoftOrSpace) return fits_text(m, " ", 1, false, args);
          if (lm == LineMode::kHard || lm == LineMode::kEmpty)
            return m.must_be_flat ? Fits::kNo : Fits::kYes;
        } else {
          if (args.measure == MeasureMode::kFirstLine) return Fits::kYes;
          m.line_width = 0;
          m.pending_indent = args.level;
        }
        break;
      }
      case Op::kLineSuffixBoundary:
        if (m.has_line_suffix) return Fits::kNo;
        break;
      case Op::kExpandParent:
        if (m.must_be_flat) return Fits::kNo;
        break;
      case Op::kBestFitting: {
        const std::vector<Element>* v;
        Args a = args;
        if (args.mode == PrintMode::kFlat) {
          v = &doc_.variant(e, 0);
          a = args.with_measure(e.mode == static_cast<uint8_t>(BestFitMode::kAllLines)
                                    ? MeasureMode::kAllLines
                                    : MeasureMode::kFirstLine);
        } else {
          v = &doc_.variant(e, e.b - 1);
        }
        m.stack.push_back({Op::kStartEntry, a});
        m.queue.push(v->data() + 1, v->data() + v->size());
        break;
      }
      case Op::kInterned:
        m.queue.push(doc_.slice(e.a));
        break;
      case Op::kStartIndent:
        m.stack.push_back({Op::kStartIndent, args.indented()});
        break;
      case Op::kStartDedent: {
        Args a = args;
        a.level = e.mode ? 0 : (a.level > 0 ? a.level - 1 : 0);
        m.stack.push_back({Op::kStartDedent, a});
        break;
      }
      case Op::kStartGroup:
        return fits_group(m, Op::kStartGroup, e.mode, e.a, args);
      case Op::kStartBestFitParenthesize:
        set_group_mode(e.a, args.mode);
        m.stack.push_back({Op::kStartBestFitParenthesize, args});
        break;
      case Op::kEndBestFitParenthesize:
        if (args.mode == PrintMode::kExpanded && mtop_kind(m) == Op::kStartIndent) {
          mpop(m);
          Args unindented = mtop(m);
          mpop(m);
          m.line_width = 0;
          m.pending_indent = unindented.level;
          return fits_text(m, ")", 1, false, unindented);
        }
        mpop(m);
        break;
      case Op::kStartConditionalGroup: {
        PrintMode pm = group_mode(e.a, args.mode);
        if (pm == static_cast<PrintMode>(e.mode))
          return fits_group(m, Op::kStartConditionalGroup, e.flags, 0, args);
        m.stack.push_back({Op::kStartConditionalGroup, args});
        break;
      }
      case Op::kStartConditionalContent: {
        PrintMode pm = e.a ? group_mode(e.a, args.mode) : args.mode;
        if (pm == static_cast<PrintMode>(e.mode)) {
          m.stack.push_back({Op::kStartConditionalContent, args});
        } else {
          m.queue.skip_content(Op::kStartConditionalContent, Op::kEndConditionalContent);
        }
        break;
      }
      case Op::kStartIndentIfGroupBreaks: {
        PrintMode pm = group_mode(e.a, args.mode);
        m.stack.push_back(
            {Op::kStartIndentIfGroupBreaks, pm == PrintMode::kExpanded ? args.indented() : args});
        break;
      }
      case Op::kStartLineSuffix:
        if (e.a > 0) {
          m.line_width += e.a;
          if (m.line_width > options_.line_width) return Fits::kNo;
        }
        m.queue.skip_content(Op::kStartLineSuffix, Op::kEndLineSuffix);
        m.has_line_suffix = true;
        break;
      case Op::kStartFitsExpanded: {
        if (args.mode == PrintMode::kExpanded) {
          m.stack.push_back({Op::kStartFitsExpanded, args});
          break;
        }
        bool met = true;
        if (e.flags & kHasCondition) {
          PrintMode pm = e.a ? group_mode(e.a, args.mode) : args.mode;
          met = pm == static_cast<PrintMode>(e.mode);
        }
        if (met) {
          m.stack.push_back(
              {Op::kStartFitsExpanded, args.with_measure(MeasureMode::kAllLinesAllowOverflow)
                                           .with_mode(PrintMode::kExpanded)});
        } else {
          if (e.flags & kPropagated) return Fits::kNo;
          m.stack.push_back({Op::kStartFitsExpanded, args});
        }
        break;
      }
      case Op::kStartEntry:
        m.stack.push_back({Op::kStartEntry, args});
        break;
      case Op::kEndGroup:
      case Op::kEndConditionalGroup:
      case Op::kEndIndent:
      case Op::kEndDedent:
      case Op::kEndConditionalContent:
      case Op::kEndIndentIfGroupBreaks:
      case Op::kEndFitsExpanded:
      case Op::kEndLineSuffix:
      case Op::kEndEntry:
        mpop(m);
        break;
    }
    return Fits::kMaybe;
  }

  const Document& doc_;
  PrintOptions options_;
  std::string out_;
  std::vector<Frame> stack_;
  Queue queue_;
  std::vector<uint8_t> group_modes_;
  std::vector<LineSuffix> line_suffixes_;
  Measure measure_;
  uint32_t pending_indent_ = 0;
  uint32_t line_width_ = 0;
  size_t line_start_ = 0;
  bool measured_group_fits_ = false;
};

}  // namespace

std::string print_document(const Document& doc, const PrintOptions& options) {
  Printer printer(doc, options);
  return printer.print();
}

}  // namespace relax::syntax::format
