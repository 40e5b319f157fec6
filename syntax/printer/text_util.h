// Text helpers of the printer that TVM's output format fixes exactly: string escaping, float
// formatting, identifier sanitising and unique names.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/object.h"

namespace relax::syntax {

// A double-quoted string literal: `"` and `\` escaped, tab/CR/LF as \t \r \n, every other byte
// outside 0x20-0x7E as \xHH (upper-case hex, byte by byte).
std::string quote_string(std::string_view s);

// A Python float literal as TVM prints FloatImm values: integral values in fixed notation with
// one decimal ("1.0", "-0.0", "256.0"), others with 17 significant digits ("0.10000000000000001",
// "1.0000000000000001e-05"). Not for inf/nan (callers print those as strings).
std::string format_float(double v);
// "inf", "-inf", "nan" or "-nan" for non-finite values (to be quoted by the caller).
std::string format_nonfinite(double v);

// Unique names for variables within nested frames (a function, a loop, a block), as TVM's
// printer gives them: the hint with non-identifier characters replaced by '_', then "_1",
// "_2", ... on a collision with a name live in any enclosing frame. Names die with their frame.
class NameTable {
 public:
  NameTable();
  void push_frame();
  void pop_frame();
  // Defines `node` with a name made unique from `hint`; returns it.
  const std::string& define(const ir::Object* node, std::string_view hint);
  // The same in the frame at `index` (0 = outermost) instead of the innermost one, for names
  // that outlive the current frame (TVM declares a Relax function's symbolic vars at function
  // level wherever they are first printed).
  const std::string& define_in_frame(size_t index, const ir::Object* node, std::string_view hint);
  // The number of open frames (at least 1).
  size_t depth() const { return frames_.size(); }
  // The name of a defined node, or null.
  const std::string* find(const ir::Object* node) const;
  bool is_taken(const std::string& name) const { return taken_.count(name) > 0; }
  // Reserves a name in the current frame without a node (e.g. "cls").
  void reserve(const std::string& name);

 private:
  struct Frame {
    std::vector<const ir::Object*> nodes;
    std::vector<std::string> names;
  };
  // A name died with its frame: the hints it is a candidate of may take it again.
  void freed(const std::string& name);

  std::vector<Frame> frames_;
  std::unordered_map<const ir::Object*, std::string> names_;
  std::unordered_set<std::string> taken_;
  // Per sanitised hint, a suffix below which every candidate name (0 for the hint itself, then
  // hint_1, hint_2, ...) is taken, so that n variables with one hint are named in linear time.
  std::unordered_map<std::string, int> next_suffix_;
};

// Text with an indentation level, written line by line (TVM's printer never wraps lines).
class Writer {
 public:
  void indent() { level_ += 1; }
  void dedent() { level_ -= 1; }
  // Writes one line at the current indentation.
  void line(std::string_view text);
  void blank_line() { out_ += "\n"; }
  std::string& out() { return out_; }
  // The text without the final newline (TVM strips it).
  std::string finish();

 private:
  std::string out_;
  int level_ = 0;
};

}  // namespace relax::syntax
