// The document algebra and its printer: groups break from the outside in, hard breaks expand
// their groups, conditional content follows named groups, line suffixes wait for the line end,
// best-fitting picks the first variant that fits, fits-expanded measures content broken.
#include <catch2/catch.hpp>

#include "syntax/format/doc.h"

using namespace relax::syntax::format;

namespace {

std::string print(Document& doc, uint32_t width) {
  doc.propagate_expand();
  PrintOptions o;
  o.line_width = width;
  return print_document(doc, o);
}

// `[a, b, c]` with a soft-line list layout (a trailing comma when broken).
void list(Document& d, const std::vector<std::string>& items, GroupId id = 0) {
  d.start_group(id);
  d.text("[");
  d.start_indent();
  d.soft_line();
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) {
      d.text(",");
      d.soft_line_or_space();
    }
    d.text(items[i]);
  }
  d.start_if(PrintMode::kExpanded);
  d.text(",");
  d.end_if();
  d.end_indent();
  d.soft_line();
  d.text("]");
  d.end_group();
}

}  // namespace

TEST_CASE("a group is flat when it fits and expanded when it does not") {
  Document a;
  list(a, {"aaa", "bbb"});
  CHECK(print(a, 20) == "[aaa, bbb]");
  Document b;
  list(b, {"aaa", "bbb"});
  CHECK(print(b, 8) == "[\n    aaa,\n    bbb,\n]");
}

TEST_CASE("the outer group breaks before the inner one") {
  Document d;
  d.start_group();
  d.text("fffffff(");
  d.start_indent();
  d.soft_line();
  list(d, {"1", "2"});
  d.end_indent();
  d.soft_line();
  d.text(")");
  d.end_group();
  CHECK(print(d, 12) == "fffffff(\n    [1, 2]\n)");
}

TEST_CASE("a hard line break expands every enclosing group") {
  Document d;
  d.start_group();
  d.text("a");
  d.soft_line_or_space();
  d.text("b");
  d.hard_line();
  d.text("c");
  d.end_group();
  CHECK(print(d, 80) == "a\nb\nc");
}

TEST_CASE("consecutive line breaks collapse, empty lines do not") {
  Document d;
  d.text("a");
  d.hard_line();
  d.hard_line();
  d.text("b");
  d.empty_line();
  d.text("c");
  CHECK(print(d, 80) == "a\nb\n\nc");
}

TEST_CASE("conditional content follows the group it names") {
  Document d;
  GroupId id = d.new_group_id();
  list(d, {"xxxxxxxx", "yyyyyyyy"}, id);
  d.start_if(PrintMode::kExpanded, id);
  d.text(" # broken");
  d.end_if();
  d.start_if(PrintMode::kFlat, id);
  d.text(" # flat");
  d.end_if();
  CHECK(print(d, 12) == "[\n    xxxxxxxx,\n    yyyyyyyy,\n] # broken");
}

TEST_CASE("indent-if-group-breaks indents only when its group breaks") {
  for (uint32_t width : {80u, 10u}) {
    Document d;
    GroupId id = d.new_group_id();
    d.start_group(id);
    d.start_if(PrintMode::kExpanded, id);
    d.text("(");
    d.end_if();
    d.start_indent_if_group_breaks(id);
    d.soft_line();
    d.text("aaaa + bbbb");
    d.end_indent_if_group_breaks();
    d.soft_line();
    d.start_if(PrintMode::kExpanded, id);
    d.text(")");
    d.end_if();
    d.end_group();
    CHECK(print(d, width) == (width == 80 ? "aaaa + bbbb" : "(\n    aaaa + bbbb\n)"));
  }
}

TEST_CASE("a line suffix waits for the end of the line and its reserved width counts") {
  Document d;
  d.text("x = 1");
  d.start_line_suffix(0);
  d.text("  # note");
  d.end_line_suffix();
  d.hard_line();
  d.text("y");
  CHECK(print(d, 80) == "x = 1  # note\ny");
  // With a reserved width the group that precedes the comment breaks to make room for it.
  Document e;
  list(e, {"a", "b"});
  e.start_line_suffix(10);
  e.text("  # comment");
  e.end_line_suffix();
  CHECK(print(e, 12) == "[\n    a,\n    b,\n]  # comment");
}

TEST_CASE("best fitting takes the first variant that fits, else the last") {
  auto build = [](Document& d) {
    std::vector<uint32_t> variants;
    d.begin_variant();
    d.text("one long flat variant");
    variants.push_back(d.end_variant());
    d.begin_variant();
    d.text("short");
    variants.push_back(d.end_variant());
    d.begin_variant();
    d.text("fallback");
    variants.push_back(d.end_variant());
    d.best_fitting(variants);
  };
  Document a;
  build(a);
  CHECK(print(a, 40) == "one long flat variant");
  Document b;
  build(b);
  CHECK(print(b, 10) == "short");
  Document c;
  build(c);
  CHECK(print(c, 3) == "fallback");
}

TEST_CASE("best-fit parenthesization adds parentheses only when they make the content fit") {
  auto build = [](Document& d, const std::string& value) {
    d.text("name = ");
    GroupId id = d.new_group_id();
    d.start_best_fit_parenthesize(id);
    d.text(value);
    d.end_best_fit_parenthesize();
  };
  Document fits;
  build(fits, "value");
  CHECK(print(fits, 20) == "name = value");
  Document parenthesized;
  build(parenthesized, "a_longer_value");
  CHECK(print(parenthesized, 20) == "name = (\n    a_longer_value\n)");
  Document too_long;
  build(too_long, "a_value_too_long_even_in_parentheses");
  CHECK(print(too_long, 20) == "name = a_value_too_long_even_in_parentheses");
}

TEST_CASE("removing soft lines writes content flat") {
  Document d;
  d.push_remove_soft_lines();
  list(d, {"aaaa", "bbbb", "cccc"});
  d.pop_remove_soft_lines();
  CHECK(print(d, 5) == "[aaaa, bbbb, cccc]");
}

TEST_CASE("text with line breaks expands its groups and is printed as is") {
  Document d;
  d.start_group();
  d.text("f(");
  d.soft_line();
  d.text("\"\"\"a\nb\"\"\"");
  d.soft_line();
  d.text(")");
  d.end_group();
  CHECK(print(d, 80) == "f(\n\"\"\"a\nb\"\"\"\n)");
}

TEST_CASE("display widths count code points") {
  CHECK(text_width("abc") == 3);
  CHECK(text_width("\xc3\xa9t\xc3\xa9") == 3);  // été
  CHECK(text_width("\xe4\xb8\xad") == 2);       // a wide CJK character
}
