// Expression layouts: parentheses handling (kept, dropped, or added only when a split needs
// them), calls and subscripts split inside their own brackets, binary chains split before the
// lowest-precedence operators, collections one element per line with a trailing comma when
// they break, magic trailing commas, and comments inside all of them.
#include <algorithm>
#include <cctype>

#include "syntax/format/formatter.h"
#include "syntax/format/literals.h"
#include "syntax/format/trivia.h"

namespace relax::syntax::format {

namespace {

enum class Chain : uint8_t { kDefault, kFluent, kNonFluent };

// Operator precedence as ruff ranks it for splitting (higher splits first).
enum class Prec : uint8_t {
  kNone,
  kAttribute,
  kExponential,
  kBitwiseInversion,
  kMultiplicative,
  kAdditive,
  kShift,
  kBitwiseAnd,
  kBitwiseXor,
  kBitwiseOr,
  kComparator,
  kBooleanOperation,
  kConditional,
};

Prec binary_prec(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
      return Prec::kAdditive;
    case BinaryOp::kMul:
    case BinaryOp::kMatMul:
    case BinaryOp::kDiv:
    case BinaryOp::kMod:
    case BinaryOp::kFloorDiv:
      return Prec::kMultiplicative;
    case BinaryOp::kPow:
      return Prec::kExponential;
    case BinaryOp::kLShift:
    case BinaryOp::kRShift:
      return Prec::kShift;
    case BinaryOp::kBitOr:
      return Prec::kBitwiseOr;
    case BinaryOp::kBitXor:
      return Prec::kBitwiseXor;
    case BinaryOp::kBitAnd:
      return Prec::kBitwiseAnd;
  }
  return Prec::kNone;
}

const char* binary_text(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kMatMul:
      return "@";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kFloorDiv:
      return "//";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kPow:
      return "**";
    case BinaryOp::kLShift:
      return "<<";
    case BinaryOp::kRShift:
      return ">>";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kBitXor:
      return "^";
    case BinaryOp::kBitAnd:
      return "&";
  }
  return "?";
}

const char* cmp_text(CmpOp op) {
  switch (op) {
    case CmpOp::kEq:
      return "==";
    case CmpOp::kNotEq:
      return "!=";
    case CmpOp::kLt:
      return "<";
    case CmpOp::kLtE:
      return "<=";
    case CmpOp::kGt:
      return ">";
    case CmpOp::kGtE:
      return ">=";
    case CmpOp::kIs:
      return "is";
    case CmpOp::kIsNot:
      return "is not";
    case CmpOp::kIn:
      return "in";
    case CmpOp::kNotIn:
      return "not in";
  }
  return "?";
}

}  // namespace

static bool starts_with_keyword(std::string_view text, std::string_view word) {
  if (!text.starts_with(word)) return false;
  if (text.size() == word.size()) return true;
  char c = text[word.size()];
  return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_');
}

// ---- the generic expression entry ----

void Formatter::expr(int32_t e, Parens p) {
  const AstNode& node = n(e);
  bool paren = p == Parens::kPreserve ? node.parens > 0 : p == Parens::kAlways;
  // Verbatim expressions keep the parentheses they were written with. (`yield` and `await`
  // follow their own rules, in needs_parentheses, unless their text spans lines: `await  # c` and
  // the operand on the next line is only valid inside the parentheses.)
  if (node.type == NodeType::kVerbatimExpr && node.parens > 0 &&
      ((!starts_with_keyword(node.text, "yield") && !starts_with_keyword(node.text, "await")) ||
       node.text.find_first_of("\r\n") != std::string_view::npos)) {
    paren = true;
  }
  if (paren) {
    if (!comments_.has_leading(e) && !comments_.has_trailing(e)) {
      parenthesized(
          "(", [&] { expr_node(e); }, ")");
    } else {
      expr_with_parentheses_comments(e);
    }
    return;
  }
  if (level_ == Level::kTopLevel || level_ == Level::kCompound) {
    with_level(Level::kExpression, 0, [&] { expr_node(e); });
  } else {
    expr_node(e);
  }
}

void Formatter::expr_node(int32_t e) {
  leading_comments(comments_.leading(e));
  expr_fields(e);
  trailing_comments(comments_.trailing(e));
}

void Formatter::expr_with_parentheses_comments(int32_t e) {
  const AstNode& node = n(e);
  std::span<const uint32_t> leading = comments_.leading(e);
  std::span<const uint32_t> trailing = comments_.trailing(e);
  size_t leading_split = 0, trailing_split = trailing.size();
  if (node.parens > 0) {
    while (leading_split < leading.size() &&
           comments_.comment(leading[leading_split]).start < node.outer_start) {
      ++leading_split;
    }
    trailing_split = 0;
    while (trailing_split < trailing.size() &&
           comments_.comment(trailing[trailing_split]).start < node.outer_end) {
      ++trailing_split;
    }
  }
  std::span<const uint32_t> leading_outer = leading.subspan(0, leading_split);
  std::span<const uint32_t> leading_inner = leading.subspan(leading_split);
  std::span<const uint32_t> trailing_inner = trailing.subspan(0, trailing_split);
  std::span<const uint32_t> trailing_outer = trailing.subspan(trailing_split);
  std::span<const uint32_t> paren_comment;
  if (!leading_inner.empty() && !comments_.comment(leading_inner.front()).own_line) {
    paren_comment = leading_inner.subspan(0, 1);
    leading_inner = leading_inner.subspan(1);
  } else {
    leading_inner = leading;
  }
  leading_comments(leading_outer);
  parenthesized(
      "(",
      [&] {
        leading_comments(leading_inner);
        expr_fields(e);
        trailing_comments(trailing_inner);
      },
      ")", paren_comment);
  trailing_comments(trailing_outer);
}

// ---- parentheses decisions ----

NeedsParens Formatter::needs_parentheses(int32_t e, int32_t parent) const {
  const AstNode& node = n(e);
  switch (node.type) {
    case NodeType::kName:
    case NodeType::kNumber:
    case NodeType::kConstant:
      return NeedsParens::kBestFit;
    case NodeType::kString:
      if (node.list.size() > 1) return NeedsParens::kMultiline;
      if (n(node.list[0]).flag) return NeedsParens::kNever;
      return NeedsParens::kBestFit;
    case NodeType::kAttribute:
      if (is_fluent(e)) return NeedsParens::kMultiline;
      if (comments_.has_dangling(e)) return NeedsParens::kAlways;
      if (n(node.a).parens > 0) return NeedsParens::kNever;
      return needs_parentheses(node.a, e);
    case NodeType::kCall:
      if (is_fluent(e)) return NeedsParens::kMultiline;
      if (comments_.has_dangling(e)) return NeedsParens::kAlways;
      if (n(node.a).parens > 0) return NeedsParens::kNever;
      return needs_parentheses(node.a, e);
    case NodeType::kSubscript: {
      if (is_fluent(e)) return NeedsParens::kMultiline;
      if (n(node.a).parens > 0) return NeedsParens::kNever;
      NeedsParens v = needs_parentheses(node.a, e);
      if (v == NeedsParens::kBestFit && parent != kNone &&
          n(parent).type == NodeType::kFunctionDef && n(parent).b == e) {
        const AstNode& params = n(n(parent).a);
        if (params.list.empty() && !comments_.has(n(parent).a)) return NeedsParens::kMultiline;
        return NeedsParens::kNever;
      }
      return v;
    }
    case NodeType::kBinOp: {
      const AstNode& left = n(node.a);
      if (left.type == NodeType::kString && left.list.size() == 1 && n(left.list[0]).flag &&
          has_parentheses(node.b) != 0 && !comments_.has_dangling(e) && !comments_.has(node.a) &&
          !comments_.has(left.list[0]) && !comments_.has(node.b)) {
        return NeedsParens::kNever;
      }
      return NeedsParens::kMultiline;
    }
    case NodeType::kCompare:
    case NodeType::kBoolOp:
    case NodeType::kIfExp:
    case NodeType::kLambda:
    case NodeType::kSlice:
    case NodeType::kStarred:
      return NeedsParens::kMultiline;
    case NodeType::kUnaryOp:
      if (n(node.a).parens > 0) {
        // `not` / own-line comment / `(operand)`: the comment needs a line of its own.
        for (uint32_t c : comments_.leading(node.a)) {
          if (comments_.comment(c).start < n(node.a).outer_start) return NeedsParens::kAlways;
        }
        return NeedsParens::kNever;
      }
      if (comments_.has(node.a)) return NeedsParens::kAlways;
      return needs_parentheses(node.a, e);
    case NodeType::kNamedExpr:
      return NeedsParens::kAlways;
    case NodeType::kVerbatimExpr:
      // `yield` needs no parentheses as the value of an assignment and keeps them elsewhere;
      // `await x` is as free as its operand.
      // `await` or `yield` over several lines (a comment after the keyword) keeps its own
      // parentheses (in expr), or needs some.
      if ((starts_with_keyword(node.text, "yield") || starts_with_keyword(node.text, "await")) &&
          node.text.find_first_of("\r\n") != std::string_view::npos)
        return node.parens > 0 ? NeedsParens::kNever : NeedsParens::kAlways;
      if (starts_with_keyword(node.text, "yield")) {
        bool assigned = parent != kNone && (n(parent).type == NodeType::kAssign ||
                                            n(parent).type == NodeType::kAnnAssign ||
                                            n(parent).type == NodeType::kAugAssign);
        return assigned ? NeedsParens::kNever : NeedsParens::kAlways;
      }
      if (starts_with_keyword(node.text, "await")) return NeedsParens::kBestFit;
      return NeedsParens::kNever;
    default:
      return NeedsParens::kNever;
  }
}

int Formatter::has_own_parentheses(int32_t e) const {
  const AstNode& node = n(e);
  switch (node.type) {
    case NodeType::kSubscript:
      return 2;
    case NodeType::kList:
    case NodeType::kSet:
    case NodeType::kDict:
      return (!node.list.empty() || comments_.has_dangling(e)) ? 2 : 1;
    case NodeType::kTuple:
      if (!node.flag) return 0;
      return (!node.list.empty() || comments_.has_dangling(e)) ? 2 : 1;
    case NodeType::kCall:
      return (!n(node.b).list.empty() || comments_.has_dangling(e)) ? 2 : 1;
    case NodeType::kComprehension:
      return node.flag ? 0 : 2;
    default:
      return 0;
  }
}

int Formatter::has_parentheses(int32_t e) const {
  int own = has_own_parentheses(e);
  if (own == 2) return 2;
  if (n(e).parens > 0) return 2;
  return own;
}

bool Formatter::is_fluent(int32_t e) const {
  int count = 0;
  bool root_parenthesized = false;
  int32_t cur = e;
  while (true) {
    const AstNode& node = n(cur);
    if (node.type == NodeType::kAttribute) {
      const AstNode& value = n(node.a);
      if (value.parens > 0) {
        root_parenthesized = true;
        break;
      }
      if (value.type == NodeType::kCall || value.type == NodeType::kSubscript) ++count;
      cur = node.a;
    } else if (node.type == NodeType::kCall || node.type == NodeType::kSubscript) {
      if (n(node.a).parens > 0) break;
      cur = node.a;
    } else {
      break;
    }
  }
  return count + (root_parenthesized ? 1 : 0) >= 2;
}

bool Formatter::can_omit_optional_parentheses(int32_t e) const {
  struct Visitor {
    const Formatter& f;
    Prec max_prec = Prec::kNone;
    uint32_t max_count = 0;
    bool any_parenthesized = false;
    int32_t last = kNone;
    int32_t first = kNone;
    bool first_set = false;  // first is a token (not an expression) when set and first == kNone

    void update(Prec p, uint32_t count = 1) {
      if (max_prec < p) {
        max_prec = p;
        max_count = count;
      } else if (max_prec == p) {
        max_count += count;
      }
    }
    void set_first_token() {
      if (!first_set) {
        first_set = true;
        first = kNone;
      }
    }
    void visit(int32_t e) {
      last = e;
      if (f.n(e).parens > 0) {
        any_parenthesized = true;
      } else {
        sub(e);
      }
      if (!first_set) {
        first_set = true;
        first = e;
      }
    }
    void sub(int32_t e) {
      const AstNode& node = f.n(e);
      switch (node.type) {
        case NodeType::kDict:
        case NodeType::kList:
        case NodeType::kSet:
        case NodeType::kComprehension:
          any_parenthesized = true;
          return;
        case NodeType::kTuple:
          if (node.flag) {
            any_parenthesized = true;
            return;
          }
          for (int32_t c : node.list) visit(c);
          return;
        case NodeType::kBoolOp:
          update(Prec::kBooleanOperation,
                 static_cast<uint32_t>(node.list.size() > 0 ? node.list.size() - 1 : 0));
          for (int32_t c : node.list) visit(c);
          return;
        case NodeType::kBinOp:
          update(binary_prec(static_cast<BinaryOp>(node.op)));
          visit(node.a);
          visit(node.b);
          return;
        case NodeType::kIfExp:
          update(Prec::kConditional, 2);
          visit(node.a);
          visit(node.b);
          visit(node.c);
          return;
        case NodeType::kCompare:
          update(Prec::kComparator, static_cast<uint32_t>(node.ops.size()));
          for (int32_t c : node.list) visit(c);
          return;
        case NodeType::kCall:
          any_parenthesized = true;
          visit(node.a);
          last = e;
          return;
        case NodeType::kSubscript:
          any_parenthesized = true;
          visit(node.a);
          last = e;
          return;
        case NodeType::kAttribute:
          visit(node.a);
          if (f.has_parentheses(node.a) != 0) update(Prec::kAttribute);
          last = e;
          return;
        case NodeType::kNamedExpr:
          visit(node.a);
          visit(node.b);
          return;
        case NodeType::kUnaryOp:
          if (static_cast<UnaryOp>(node.op) == UnaryOp::kInvert) update(Prec::kBitwiseInversion);
          set_first_token();
          visit(node.a);
          return;
        case NodeType::kLambda:
          set_first_token();
          if (node.a != kNone) {
            for (int32_t p : f.n(node.a).list) {
              const AstNode& param = f.n(p);
              if (param.a != kNone) visit(param.a);
              if (param.b != kNone) visit(param.b);
            }
          }
          visit(node.b);
          return;
        case NodeType::kStarred:
          set_first_token();
          visit(node.a);
          return;
        case NodeType::kVerbatimExpr:
          set_first_token();
          return;
        default:
          return;
      }
    }
  };
  Visitor v{*this};
  v.sub(e);
  if (!v.any_parenthesized) return false;
  if (v.max_count > 1) return false;
  if (v.max_prec == Prec::kNone) return true;
  if (v.max_prec == Prec::kAttribute) return true;
  auto is_parenthesized = [&](int32_t x) {
    return n(x).type != NodeType::kSubscript && has_parentheses(x) == 2;
  };
  if (v.last != kNone && is_parenthesized(v.last)) return true;
  if (v.first != kNone && is_parenthesized(v.first)) return true;
  return false;
}

bool Formatter::is_splittable(int32_t e) const {
  const AstNode& node = n(e);
  switch (node.type) {
    case NodeType::kNamedExpr:
    case NodeType::kName:
    case NodeType::kNumber:
    case NodeType::kConstant:
    case NodeType::kSlice:
      return false;
    case NodeType::kCompare:
    case NodeType::kBinOp:
    case NodeType::kBoolOp:
    case NodeType::kIfExp:
    case NodeType::kSubscript:
      return true;
    case NodeType::kTuple:
    case NodeType::kDict:
    case NodeType::kSet:
    case NodeType::kList:
      return !node.list.empty();
    case NodeType::kUnaryOp:
      return is_splittable(node.a);
    case NodeType::kCall:
      return !n(node.b).list.empty() || n(node.a).parens > 0;
    case NodeType::kString:
      return node.list.size() > 1;
    case NodeType::kLambda:
    case NodeType::kStarred:
    case NodeType::kAttribute: {
      int32_t inner = node.type == NodeType::kLambda ? node.b : node.a;
      return n(inner).parens > 0 || is_splittable(inner);
    }
    default:
      return true;
  }
}

void Formatter::maybe_parenthesize(int32_t e, int32_t parent, Parenthesize p) {
  const AstNode& node = n(e);
  if (p == Parenthesize::kOptional && node.parens > 0) {
    expr(e, Parens::kAlways);
    return;
  }
  if (comments_.has_leading(e) || comments_.has_trailing_own_line(e)) {
    expr(e, Parens::kAlways);
    return;
  }
  NeedsParens needs = needs_parentheses(e, parent);
  if (needs != NeedsParens::kAlways && is_parenthesized_level()) {
    if (p == Parenthesize::kIfBreaksParenthesizedNested) {
      parenthesize_if_expands([&] { expr(e, Parens::kNever); }, true);
    } else {
      expr(e, Parens::kNever);
    }
    return;
  }
  switch (needs) {
    case NeedsParens::kMultiline:
      if (p == Parenthesize::kIfRequired) {
        expr(e, Parens::kNever);
      } else if (can_omit_optional_parentheses(e)) {
        optional_parentheses([&] { expr(e, Parens::kNever); });
      } else {
        parenthesize_if_expands([&] { expr(e, Parens::kNever); });
      }
      return;
    case NeedsParens::kBestFit:
      if (p == Parenthesize::kIfBreaksParenthesized ||
          p == Parenthesize::kIfBreaksParenthesizedNested) {
        if (can_omit_optional_parentheses(e)) {
          optional_parentheses([&] { expr(e, Parens::kNever); });
        } else {
          parenthesize_if_expands([&] { expr(e, Parens::kNever); });
        }
      } else if (p == Parenthesize::kOptional || p == Parenthesize::kIfRequired) {
        expr(e, Parens::kNever);
      } else if (comments_.has_trailing(e)) {
        expr(e, Parens::kAlways);
      } else {
        GroupId id = doc_.new_group_id();
        with_level(Level::kExpression, id,
                   [&] { best_fit_parenthesize([&] { expr(e, Parens::kNever); }, id); });
      }
      return;
    case NeedsParens::kNever:
      expr(e, Parens::kNever);
      return;
    case NeedsParens::kAlways:
      expr(e, Parens::kAlways);
      return;
  }
}

// ---- commas ----

bool Formatter::trailing_comma(uint32_t last_end, uint32_t sequence_end) const {
  return first_token_is(source_, last_end, sequence_end, Tok::kComma, true);
}

bool Formatter::magic_trailing_comma(uint32_t last_end, uint32_t sequence_end) const {
  return trailing_comma(last_end, sequence_end);
}

void Formatter::comma_separated(IdList items, uint32_t sequence_end, bool one_or_more,
                                const std::function<void(int32_t)>& each) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) {
      token(",");
      doc_.soft_line_or_space();
    }
    each(items[i]);
  }
  if (items.empty()) return;
  bool magic = magic_trailing_comma(n(items.back()).end, sequence_end);
  if (magic || one_or_more || items.size() > 1) if_breaks([&] { token(","); });
  if (magic) doc_.expand_parent();
}

// ---- node layouts ----

void Formatter::expr_fields(int32_t e) {
  const AstNode& node = n(e);
  switch (node.type) {
    case NodeType::kName:
      token(node.text);
      break;
    case NodeType::kNumber:
      number(e);
      break;
    case NodeType::kConstant:
      token(node.text);
      break;
    case NodeType::kString:
      string(e);
      break;
    case NodeType::kAttribute:
      attribute(e, 0);
      break;
    case NodeType::kCall:
      call(e, 0);
      break;
    case NodeType::kSubscript:
      subscript(e, 0);
      break;
    case NodeType::kSlice:
      slice(e);
      break;
    case NodeType::kBinOp:
    case NodeType::kBoolOp:
    case NodeType::kCompare:
      binary_like(e);
      break;
    case NodeType::kUnaryOp:
      unary(e);
      break;
    case NodeType::kIfExp:
      if_exp(e);
      break;
    case NodeType::kLambda:
      lambda(e);
      break;
    case NodeType::kTuple:
      tuple(e, 0);
      break;
    case NodeType::kList:
      sequence(e, "[", "]");
      break;
    case NodeType::kSet:
      sequence(e, "{", "}");
      break;
    case NodeType::kDict:
      dict(e);
      break;
    case NodeType::kStarred:
      starred(e);
      break;
    case NodeType::kNamedExpr:
      named_expr(e);
      break;
    case NodeType::kComprehension:
      comprehension(e);
      break;
    default:
      verbatim_text(node.start, node.end);
      break;
  }
}

void Formatter::verbatim_text(uint32_t start, uint32_t end) {
  std::string_view text = source_.substr(start, end - start);
  // Comments inside are part of the text.
  for (uint32_t i = 0; i < comments_.size(); ++i) {
    const SourceComment& c = comments_.comment(i);
    if (c.start >= start && c.end <= end) comments_.mark_formatted(i);
  }
  std::string t(text);
  // Normalize line endings inside.
  std::string out;
  out.reserve(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\r') {
      out.push_back('\n');
      if (i + 1 < t.size() && t[i + 1] == '\n') ++i;
    } else {
      out.push_back(t[i]);
    }
  }
  doc_.text(out);
}

void Formatter::number(int32_t e) {
  doc_.text(normalize_number(n(e).text));
}

bool Formatter::implicit_flat_possible(int32_t e) const {
  const AstNode& node = n(e);
  if (node.type != NodeType::kString || node.list.size() < 2) return false;
  for (int32_t part : node.list) {
    StringParts p = split_string(n(part).text);
    if (p.triple() || p.raw || n(part).flag) return false;
    if (comments_.has_leading(part) || comments_.has_trailing(part)) return false;
    // f-strings and t-strings are left as they are.
    for (char ch : p.prefix) {
      if (ch == 'f' || ch == 'F' || ch == 't' || ch == 'T') return false;
    }
  }
  return true;
}

void Formatter::implicit_flat(int32_t e) {
  const AstNode& node = n(e);
  std::vector<StringParts> parts;
  for (int32_t part : node.list) parts.push_back(split_string(n(part).text));
  char quote = merged_quote(parts);
  std::string out = parts.front().bytes ? "b" : "";
  out.push_back(quote);
  for (const StringParts& p : parts) out += normalize_body(p, quote);
  out.push_back(quote);
  doc_.text(out);
}

void Formatter::implicit_expanded(int32_t e, bool multipart) {
  const AstNode& node = n(e);
  if (multipart) {
    for (size_t i = 0; i + 1 < node.list.size(); ++i) {
      if (contains_line_break(source_, n(node.list[i]).end, n(node.list[i + 1]).start)) {
        doc_.expand_parent();
        break;
      }
    }
  }
  for (size_t i = 0; i < node.list.size(); ++i) {
    int32_t part = node.list[i];
    if (i > 0) in_parens_only_soft_line_or_space();
    leading_comments(comments_.leading(part));
    string_part(n(part).text);
    trailing_comments(comments_.trailing(part));
  }
}

void Formatter::string(int32_t e) {
  const AstNode& node = n(e);
  if (node.list.size() == 1) {
    string_part(n(node.list[0]).text);
    return;
  }
  bool flat = implicit_flat_possible(e);
  // Outside parentheses an implicit concatenation is on one line anyway: join it.
  if (!is_parenthesized_level() && flat) {
    implicit_flat(e);
    return;
  }
  in_parens_only_group([&] {
    if (flat) {
      if_fits([&] { implicit_flat(e); });
      if_breaks([&] { implicit_expanded(e, false); });
    } else {
      implicit_expanded(e, true);
    }
  });
}

void Formatter::string_part(std::string_view literal, bool) {
  doc_.text(normalize_string(literal));
}

void Formatter::chain_element(int32_t e, int chain) {
  const AstNode& node = n(e);
  switch (node.type) {
    case NodeType::kAttribute:
      leading_comments(comments_.leading(e));
      attribute(e, chain);
      trailing_comments(comments_.trailing(e));
      break;
    case NodeType::kCall:
      leading_comments(comments_.leading(e));
      call(e, chain);
      trailing_comments(comments_.trailing(e));
      break;
    case NodeType::kSubscript:
      leading_comments(comments_.leading(e));
      subscript(e, chain);
      trailing_comments(comments_.trailing(e));
      break;
    default:
      expr(e, Parens::kNever);
      break;
  }
}

namespace {

bool is_chain_type(NodeType t) {
  return t == NodeType::kAttribute || t == NodeType::kCall || t == NodeType::kSubscript;
}

}  // namespace

// `fluent` is true when an enclosing chain element decided on the fluent layout; the root of a
// chain decides for itself, only inside parentheses.
int Formatter::resolve_chain(int32_t e, int chain) const {
  if (chain != 0) return chain;
  return is_parenthesized_level() && is_fluent(e) ? 1 : 2;
}

void Formatter::attribute(int32_t e, int chain) {
  const AstNode& node = n(e);
  int resolved = resolve_chain(e, chain);
  bool root = chain == 0;
  bool chain_fluent = resolved == 1;
  auto inner = [&] {
    const AstNode& value = n(node.a);
    bool base_ten = false;
    if (value.type == NodeType::kNumber) {
      std::string_view t = value.text;
      bool prefixed =
          t.size() >= 2 && t[0] == '0' &&
          (t[1] == 'x' || t[1] == 'X' || t[1] == 'o' || t[1] == 'O' || t[1] == 'b' || t[1] == 'B');
      bool complex = !t.empty() && (t.back() == 'j' || t.back() == 'J');
      base_ten = !prefixed && !complex;
    }
    bool parenthesize_value = base_ten || value.parens > 0;
    if (chain_fluent) {
      if (parenthesize_value) {
        expr(node.a, Parens::kAlways);
      } else if (is_chain_type(value.type)) {
        chain_element(node.a, 1);
      } else {
        expr(node.a, Parens::kNever);
      }
    } else if (parenthesize_value) {
      expr(node.a, Parens::kAlways);
    } else {
      expr(node.a, Parens::kNever);
    }
    // A parenthesized value with an end-of-line comment after its `)` forces a break.
    bool comment_after_paren = false;
    if (value.parens > 0) {
      for (uint32_t c : comments_.trailing(node.a)) {
        const SourceComment& sc = comments_.comment(c);
        if (!sc.own_line && sc.start > value.outer_end) comment_after_paren = true;
      }
    }
    if (comment_after_paren) {
      doc_.hard_line();
    } else if (chain_fluent && (parenthesize_value || value.type == NodeType::kCall ||
                                value.type == NodeType::kSubscript)) {
      doc_.soft_line();
    }
    std::span<const uint32_t> dangling = comments_.dangling(e);
    if (dangling.empty()) {
      token(".");
    } else {
      uint32_t dot = find_token(source_, value.outer_end, node.end, Tok::kDot);
      size_t split = 0;
      while (split < dangling.size() && comments_.comment(dangling[split]).start < dot) ++split;
      dangling_comments(dangling.subspan(0, split));
      token(".");
      dangling_comments(dangling.subspan(split));
    }
    token(node.text);
  };
  if (root && chain_fluent) {
    group([&] { inner(); });
  } else {
    inner();
  }
}

void Formatter::call(int32_t e, int chain) {
  const AstNode& node = n(e);
  int resolved = resolve_chain(e, chain);
  bool root = chain == 0;
  bool chain_fluent = resolved == 1;
  auto inner = [&] {
    const AstNode& func = n(node.a);
    if (func.parens > 0) {
      expr(node.a, Parens::kAlways);
    } else if (is_chain_type(func.type)) {
      chain_element(node.a, resolved);
    } else {
      expr(node.a, Parens::kNever);
    }
    dangling_comments(comments_.dangling(e));
    arguments(node.b);
  };
  if (root && chain_fluent) {
    group([&] { inner(); });
  } else {
    inner();
  }
}

void Formatter::arguments(int32_t a) {
  const AstNode& args = n(a);
  leading_comments(comments_.leading(a));
  std::span<const uint32_t> dangling = comments_.dangling(a);
  if (args.list.empty()) {
    empty_parenthesized("(", dangling, ")");
    trailing_comments(comments_.trailing(a));
    return;
  }
  auto all = [&] {
    comma_separated(args.list, args.end, false, [&](int32_t item) {
      const AstNode& it = n(item);
      if (it.type == NodeType::kKeyword) {
        keyword(item);
      } else if (args.list.size() == 1) {
        expr(item, it.parens > 0 ? Parens::kAlways : Parens::kNever);
      } else {
        expr(item);
      }
    });
  };
  // A lone multi-line string that starts on the line of `(` hugs the parentheses.
  bool hug = false;
  if (args.list.size() == 1) {
    int32_t arg = args.list[0];
    const AstNode& it = n(arg);
    int32_t value = arg;
    bool ok = true;
    if (it.type == NodeType::kKeyword) {
      ok = it.text.empty() && !comments_.has(arg);
      value = it.a;
    }
    const AstNode& v = n(value);
    if (ok && v.type == NodeType::kString && v.list.size() == 1 && n(v.list[0]).flag &&
        !comments_.has_leading(value) && !comments_.has_trailing(value) &&
        !magic_trailing_comma(v.end, args.end)) {
      std::string_view between = source_.substr(args.start + 1, v.start - args.start - 1);
      while (!between.empty() &&
             (between.back() == ' ' || between.back() == '\t' || between.back() == '\f')) {
        between.remove_suffix(1);
      }
      hug = between.empty() || (between.back() != '\n' && between.back() != '\r');
    }
  }
  parenthesized(
      "(", [&] { group([&] { all(); }); }, ")", dangling, hug);
  trailing_comments(comments_.trailing(a));
}

void Formatter::keyword(int32_t k) {
  const AstNode& kw = n(k);
  leading_comments(comments_.leading(k));
  if (kw.text.empty()) {
    token("**");
  } else {
    token(kw.text);
    token("=");
  }
  expr(kw.a);
  trailing_comments(comments_.trailing(k));
}

void Formatter::subscript(int32_t e, int chain) {
  const AstNode& node = n(e);
  int resolved = resolve_chain(e, chain);
  bool root = chain == 0;
  bool chain_fluent = resolved == 1;
  auto inner = [&] {
    const AstNode& value = n(node.a);
    if (value.parens > 0) {
      expr(node.a, Parens::kAlways);
    } else if (is_chain_type(value.type)) {
      chain_element(node.a, resolved);
    } else {
      expr(node.a, Parens::kNever);
    }
    parenthesized(
        "[",
        [&] {
          if (n(node.b).type == NodeType::kTuple) {
            leading_comments(comments_.leading(node.b));
            if (n(node.b).parens > 0) {
              expr(node.b);
            } else {
              tuple(node.b, 1);
            }
            trailing_comments(comments_.trailing(node.b));
          } else {
            expr(node.b);
          }
        },
        "]", comments_.dangling(e));
  };
  if (root && chain_fluent) {
    group([&] { inner(); });
  } else {
    inner();
  }
}

void Formatter::slice(int32_t e) {
  const AstNode& node = n(e);
  auto simple = [&](int32_t x) {
    while (x != kNone && n(x).type == NodeType::kUnaryOp &&
           static_cast<UnaryOp>(n(x).op) != UnaryOp::kNot)
      x = n(x).a;
    if (x == kNone) return true;
    NodeType t = n(x).type;
    return t == NodeType::kName || t == NodeType::kNumber || t == NodeType::kConstant ||
           t == NodeType::kString;
  };
  bool all_simple = simple(node.a) && simple(node.b) && simple(node.c);
  // Find the colons.
  uint32_t after_lower = node.a != kNone ? n(node.a).end : node.start;
  Tokenizer tz(source_, after_lower, node.end);
  Token t = tz.next_non_trivia();
  while (t.kind == Tok::kRParen) t = tz.next_non_trivia();
  uint32_t first_colon = t.start;
  uint32_t after_upper = node.b != kNone ? n(node.b).end : t.end;
  Tokenizer tz2(source_, after_upper, node.end);
  Token t2 = tz2.next_non_trivia();
  while (t2.kind == Tok::kRParen) t2 = tz2.next_non_trivia();
  bool second = t2.kind == Tok::kColon;
  uint32_t second_colon = t2.start;
  std::span<const uint32_t> dangling = comments_.dangling(e);
  size_t s1 = 0;
  while (s1 < dangling.size() && comments_.comment(dangling[s1]).start < first_colon) ++s1;
  size_t s2 = s1;
  if (second) {
    while (s2 < dangling.size() && comments_.comment(dangling[s2]).start < second_colon) ++s2;
  } else {
    s2 = dangling.size();
  }
  auto leading_spacing = [&](int32_t x) {
    std::span<const uint32_t> lc = comments_.leading(x);
    if (lc.empty()) return;
    if (comments_.comment(lc.front()).own_line) {
      doc_.hard_line();
    } else {
      space();
      space();
    }
  };
  if (node.a != kNone) {
    expr(node.a);
    doc_.line_suffix_boundary();
  } else {
    dangling_comments(dangling.subspan(0, s1));
  }
  if (!all_simple && node.a != kNone) space();
  token(":");
  if (!all_simple && node.b != kNone) space();
  if (node.b != kNone) {
    leading_spacing(node.b);
    expr(node.b);
    doc_.line_suffix_boundary();
  } else {
    std::span<const uint32_t> du = dangling.subspan(s1, s2 - s1);
    if (!du.empty() && comments_.comment(du.front()).own_line) doc_.hard_line();
    dangling_comments(du);
  }
  if (second) {
    if (!all_simple && (node.b != kNone || node.c == kNone)) space();
    token(":");
    if (!all_simple && node.c != kNone) space();
    if (node.c != kNone) {
      leading_spacing(node.c);
      expr(node.c);
    } else if (s2 < dangling.size()) {
      doc_.hard_line();
      dangling_comments(dangling.subspan(s2));
    }
  }
}

// Binary expressions, comparisons and boolean operations are flattened into one operand /
// operator sequence; a sequence splits before all its lowest-precedence operators at once and
// keeps higher-precedence runs together in their own groups.
namespace {

struct Part {
  bool is_operator;
  int32_t expr;   // operand
  int32_t owner;  // the binary node an operator belongs to (for its dangling comments)
  std::string_view op_text;
  Prec prec;
  bool is_pow;
  std::span<const uint32_t> op_comments;
  // Comments of the outermost binary expression that starts (leading) or ends (trailing) here.
  std::span<const uint32_t> leading;
  std::span<const uint32_t> trailing;
  int kind;  // 0 left, 1 middle, 2 right
};

}  // namespace

void Formatter::binary_like(int32_t root) {
  std::vector<Part> parts;
  std::function<void(int32_t, int, std::span<const uint32_t>, std::span<const uint32_t>)> rec;
  auto push_operand = [&](int32_t x, int kind, std::span<const uint32_t> leading,
                          std::span<const uint32_t> trailing) {
    Part p{};
    p.is_operator = false;
    p.expr = x;
    p.kind = kind;
    p.leading = leading;
    p.trailing = trailing;
    parts.push_back(p);
  };
  auto push_operator = [&](std::string_view text, Prec prec, bool is_pow, int32_t owner,
                           std::span<const uint32_t> cs) {
    Part p{};
    p.is_operator = true;
    p.op_text = text;
    p.prec = prec;
    p.is_pow = is_pow;
    p.owner = owner;
    p.op_comments = cs;
    parts.push_back(p);
  };
  // Expands a node in place when it is an unparenthesized binary-like expression.
  std::function<void(int32_t, std::span<const uint32_t>, std::span<const uint32_t>)> expand =
      [&](int32_t x, std::span<const uint32_t> leading, std::span<const uint32_t> trailing) {
        const AstNode& node = n(x);
        if (node.type == NodeType::kBinOp) {
          rec(node.a, 0, leading, {});
          push_operator(binary_text(static_cast<BinaryOp>(node.op)),
                        binary_prec(static_cast<BinaryOp>(node.op)),
                        static_cast<BinaryOp>(node.op) == BinaryOp::kPow, x, comments_.dangling(x));
          rec(node.b, 2, {}, trailing);
        } else if (node.type == NodeType::kCompare) {
          for (size_t i = 0; i < node.list.size(); ++i) {
            if (i > 0) {
              push_operator(cmp_text(static_cast<CmpOp>(node.ops[i - 1])), Prec::kComparator, false,
                            x, {});
            }
            int kind = i == 0 ? 0 : i + 1 == node.list.size() ? 2 : 1;
            rec(node.list[i], kind, kind == 0 ? leading : std::span<const uint32_t>{},
                kind == 2 ? trailing : std::span<const uint32_t>{});
          }
        } else {
          for (size_t i = 0; i < node.list.size(); ++i) {
            if (i > 0)
              push_operator(node.op == 1 ? "or" : "and", Prec::kBooleanOperation, false, x, {});
            int kind = i == 0 ? 0 : i + 1 == node.list.size() ? 2 : 1;
            rec(node.list[i], kind, kind == 0 ? leading : std::span<const uint32_t>{},
                kind == 2 ? trailing : std::span<const uint32_t>{});
          }
        }
      };
  rec = [&](int32_t x, int kind, std::span<const uint32_t> leading,
            std::span<const uint32_t> trailing) {
    const AstNode& node = n(x);
    bool binary = node.type == NodeType::kBinOp || node.type == NodeType::kCompare ||
                  node.type == NodeType::kBoolOp;
    if (binary && node.parens == 0) {
      std::span<const uint32_t> l = kind == 0 ? leading : comments_.leading(x);
      std::span<const uint32_t> t = kind == 2 ? trailing : comments_.trailing(x);
      if (kind == 0 && leading.empty()) l = comments_.leading(x);
      if (kind == 2 && trailing.empty()) t = comments_.trailing(x);
      // Comments of this inner expression are handled by the flattened parts.
      expand(x, l, t);
      return;
    }
    push_operand(x, kind, leading, trailing);
  };
  expand(root, {}, {});

  // Operand formatting: parenthesized operands keep their parentheses.
  auto operand = [&](const Part& p) {
    const AstNode& x = n(p.expr);
    if (x.parens > 0) {
      std::span<const uint32_t> leading = comments_.leading(p.expr);
      std::span<const uint32_t> trailing = comments_.trailing(p.expr);
      size_t lend = 0;
      for (size_t i = 0; i < leading.size(); ++i) {
        if (!comments_.formatted(leading[i]) &&
            first_token_is(source_, comments_.comment(leading[i]).end, x.start, Tok::kLParen)) {
          lend = i + 1;
        }
      }
      size_t tstart = trailing.size();
      for (size_t i = 0; i < trailing.size(); ++i) {
        if (!comments_.formatted(trailing[i]) &&
            first_token_is(source_, x.end, comments_.comment(trailing[i]).start, Tok::kRParen)) {
          tstart = i;
          break;
        }
      }
      std::span<const uint32_t> after = trailing.subspan(tstart);
      for (uint32_t c : after) comments_.mark_formatted(c);
      if (lend > 0) leading_comments(leading.subspan(0, lend));
      expr(p.expr, Parens::kAlways);
      for (uint32_t c : after) comments_.mark_unformatted(c);
      if (!after.empty()) trailing_comments(after);
    } else {
      expr(p.expr, Parens::kNever);
    }
  };
  auto has_unparenthesized_leading = [&](const Part& p) {
    if (p.kind == 0) return !p.leading.empty();
    std::span<const uint32_t> leading = comments_.leading(p.expr);
    if (n(p.expr).parens > 0) {
      for (uint32_t c : leading) {
        if (!comments_.formatted(c) &&
            first_token_is(source_, comments_.comment(c).end, n(p.expr).start, Tok::kLParen)) {
          return true;
        }
      }
      return false;
    }
    return !leading.empty();
  };
  auto simple_pow_operand = [&](int32_t x) {
    while (true) {
      const AstNode& node = n(x);
      switch (node.type) {
        case NodeType::kNumber:
        case NodeType::kConstant:
        case NodeType::kName:
          return true;
        case NodeType::kUnaryOp:
          if (static_cast<UnaryOp>(node.op) == UnaryOp::kNot) return false;
          x = node.a;
          continue;
        case NodeType::kAttribute:
          x = node.a;
          continue;
        default:
          return false;
      }
    }
  };

  std::function<void(size_t, size_t)> format_slice = [&](size_t begin, size_t end) {
    if (end - begin == 1) {
      operand(parts[begin]);
      return;
    }
    Prec lowest = Prec::kNone;
    for (size_t i = begin + 1; i < end; i += 2) lowest = std::max(lowest, parts[i].prec);
    size_t last_operator = 0;
    bool have_last = false;
    for (size_t i = begin + 1; i < end; i += 2) {
      const Part& op = parts[i];
      if (op.prec != lowest) continue;
      size_t left_begin = have_last ? last_operator + 1 : begin;
      size_t left_end = i;
      const Part& left_last = parts[left_end - 1];
      const Part& right_first = parts[i + 1];
      bool is_pow = op.is_pow && simple_pow_operand(left_last.expr) &&
                    simple_pow_operand(right_first.expr) && n(left_last.expr).parens == 0 &&
                    n(right_first.expr).parens == 0;
      if (parts[left_begin].kind == 0 && !parts[left_begin].leading.empty())
        leading_comments(parts[left_begin].leading);
      if (left_end - left_begin == 1) {
        operand(parts[left_begin]);
      } else {
        in_parens_only_group([&] { format_slice(left_begin, left_end); });
      }
      if (left_last.kind == 2 && !left_last.trailing.empty()) trailing_comments(left_last.trailing);
      if (is_pow) {
        in_parens_only_soft_line();
      } else {
        in_parens_only_soft_line_or_space();
      }
      token(op.op_text);
      trailing_comments(op.op_comments);
      if (!op.op_comments.empty() || has_unparenthesized_leading(right_first)) {
        doc_.hard_line();
      } else if (is_pow) {
        in_parens_only_if_breaks([&] { space(); });
      } else {
        space();
      }
      last_operator = i;
      have_last = true;
    }
    size_t right_begin = last_operator + 1;
    if (parts[right_begin].kind == 0 && !parts[right_begin].leading.empty())
      leading_comments(parts[right_begin].leading);
    if (end - right_begin == 1) {
      operand(parts[right_begin]);
    } else {
      in_parens_only_group([&] { format_slice(right_begin, end); });
    }
  };
  in_parens_only_group([&] { format_slice(0, parts.size()); });
}

void Formatter::unary(int32_t e) {
  const AstNode& node = n(e);
  UnaryOp op = static_cast<UnaryOp>(node.op);
  token(op == UnaryOp::kInvert ? "~"
        : op == UnaryOp::kNot  ? "not"
        : op == UnaryOp::kPlus ? "+"
                               : "-");
  trailing_comments(comments_.dangling(e));
  // A comment on its own line before the operand (or before its opening parenthesis) starts a
  // new line after the operator.
  bool comment_before_operand = false;
  for (uint32_t c : comments_.leading(node.a)) {
    comment_before_operand |=
        n(node.a).parens == 0 || comments_.comment(c).start < n(node.a).outer_start;
  }
  if (comment_before_operand) {
    doc_.hard_line();
  } else if (op == UnaryOp::kNot) {
    space();
  }
  const AstNode& operand = n(node.a);
  if (operand.type == NodeType::kBinOp && static_cast<BinaryOp>(operand.op) == BinaryOp::kPow) {
    expr(node.a, Parens::kAlways);
  } else {
    expr(node.a);
  }
}

void Formatter::if_exp(int32_t e) {
  const AstNode& node = n(e);
  in_parens_only_group([&] {
    expr(node.a);
    in_parens_only_soft_line_or_space();
    token("if");
    space();
    expr(node.b);
    in_parens_only_soft_line_or_space();
    token("else");
    space();
    expr(node.c);
  });
}

// Lambdas in ruff's 2026 style: the parameters stay on one line (unless comments sit among
// them) and a body that does not fit gets its own parentheses.
void Formatter::lambda(int32_t e) {
  const AstNode& node = n(e);
  std::span<const uint32_t> dangling = comments_.dangling(e);
  token("lambda");
  if (node.a != kNone && !n(node.a).list.empty()) {
    size_t split = 0;
    while (split < dangling.size() && comments_.comment(dangling[split]).end < n(node.a).start)
      ++split;
    if (split > 0) {
      dangling_comments(dangling.subspan(0, split));
    } else if (comments_.has_leading(node.a)) {
      doc_.hard_line();
    } else {
      space();
    }
    bool params_have_comments = false;
    for (uint32_t i = 0; i < comments_.size(); ++i) {
      const SourceComment& c = comments_.comment(i);
      if (c.start >= n(node.a).start && c.end <= n(node.a).end) params_have_comments = true;
    }
    if (comments_.has(node.a)) params_have_comments = true;
    if (!params_have_comments) doc_.push_remove_soft_lines();
    parameters(node.a);
    if (!params_have_comments) doc_.pop_remove_soft_lines();
    token(":");
    if (dangling.size() == split) {
      space();
    } else {
      dangling_comments(dangling.subspan(split));
    }
  } else {
    token(":");
    if (dangling.empty()) {
      space();
    } else {
      dangling_comments(dangling);
    }
  }
  int32_t body = node.b;
  const AstNode& b = n(body);
  if (comments_.has_leading(body) || comments_.has_trailing_own_line(body)) {
    expr(body, Parens::kAlways);
  } else if (b.type == NodeType::kCall || b.type == NodeType::kSubscript) {
    if (is_fluent(body)) {
      parenthesize_if_expands([&] { expr(body, Parens::kNever); });
    } else {
      doc_.begin_slice();
      expr(body, Parens::kNever);
      uint32_t formatted = doc_.end_slice();
      if (doc_.will_break(formatted)) doc_.expand_parent();
      std::vector<uint32_t> variants;
      doc_.begin_variant();
      doc_.interned(formatted);
      variants.push_back(doc_.end_variant());
      doc_.begin_variant();
      group([&] { doc_.interned(formatted); }, 0, true);
      variants.push_back(doc_.end_variant());
      doc_.begin_variant();
      token("(");
      block_indent([&] { doc_.interned(formatted); });
      token(")");
      variants.push_back(doc_.end_variant());
      doc_.best_fitting(variants);
    }
  } else if (has_own_parentheses(body) != 0) {
    expr(body);
  } else {
    parenthesize_if_expands([&] { expr(body, Parens::kNever); });
  }
}

// mode: 0 default, 1 preserve (subscripts), 2 optional parentheses (return), 3 never-preserve (for)
void Formatter::tuple(int32_t e, int mode) {
  const AstNode& node = n(e);
  std::span<const uint32_t> dangling = comments_.dangling(e);
  if (node.list.empty()) {
    empty_parenthesized("(", dangling, ")");
    return;
  }
  if (node.list.size() == 1) {
    int32_t single = node.list[0];
    if (mode == 1 && !node.flag) {
      expr(single);
      if (trailing_comma(n(single).end, node.end)) token(",");
      return;
    }
    parenthesized(
        "(",
        [&] {
          expr(single);
          token(",");
        },
        ")", dangling);
    return;
  }
  auto seq = [&] { comma_separated(node.list, node.end, false, [&](int32_t x) { expr(x); }); };
  if (node.flag && !(mode == 3 && dangling.empty())) {
    parenthesized("(", seq, ")", dangling);
    return;
  }
  switch (mode) {
    case 1:
      group(seq);
      break;
    case 3:
      optional_parentheses(seq);
      break;
    case 2:
      if (node.list.size() == 2) {
        optional_parentheses(seq);
      } else {
        parenthesize_if_expands(seq);
      }
      break;
    default:
      parenthesize_if_expands(seq);
      break;
  }
}

void Formatter::comprehension(int32_t e) {
  const AstNode& node = n(e);
  ComprehensionKind kind = static_cast<ComprehensionKind>(node.op);
  auto content = [&] {
    if (kind == ComprehensionKind::kDict) {
      group([&] { expr(node.a); });
      token(":");
      space();
      expr(node.b);
    } else {
      group([&] { expr(node.a); });
    }
    for (int32_t clause : node.list) {
      doc_.soft_line_or_space();
      comp_for(clause);
    }
  };
  if (node.flag) {
    // The lone argument of a call: the call's parentheses are the generator's.
    content();
    return;
  }
  std::string_view open = kind == ComprehensionKind::kList        ? "["
                          : kind == ComprehensionKind::kGenerator ? "("
                                                                  : "{";
  std::string_view close = kind == ComprehensionKind::kList        ? "]"
                           : kind == ComprehensionKind::kGenerator ? ")"
                                                                   : "}";
  parenthesized(
      open, [&] { group(content); }, close, comments_.dangling(e));
}

void Formatter::comp_for(int32_t c) {
  const AstNode& node = n(c);
  if (node.flag) {
    token("async");
    space();
  }
  token("for");
  space();
  const AstNode& target = n(node.a);
  if (target.type == NodeType::kTuple && !target.flag && target.list.size() > 1 &&
      target.parens == 0 && !comments_.has(node.a)) {
    // `for a, b in ...`: the names stay on one line, without parentheses.
    for (size_t i = 0; i < target.list.size(); ++i) {
      if (i > 0) {
        token(",");
        space();
      }
      expr(target.list[i]);
    }
  } else {
    expr(node.a);
  }
  space();
  token("in");
  space();
  expr(node.b);
  for (int32_t cond : node.list) {
    doc_.soft_line_or_space();
    token("if");
    space();
    expr(cond);
  }
}

void Formatter::sequence(int32_t e, std::string_view open, std::string_view close) {
  const AstNode& node = n(e);
  std::span<const uint32_t> dangling = comments_.dangling(e);
  if (node.list.empty()) {
    empty_parenthesized(open, dangling, close);
    return;
  }
  parenthesized(
      open, [&] { comma_separated(node.list, node.end, false, [&](int32_t x) { expr(x); }); },
      close, dangling);
}

void Formatter::dict(int32_t e) {
  const AstNode& node = n(e);
  std::span<const uint32_t> dangling = comments_.dangling(e);
  if (node.list.empty()) {
    empty_parenthesized("{", dangling, "}");
    return;
  }
  // The first dangling comment may sit after `{`; the rest are around a key's colon.
  size_t open_end = 0;
  if (!dangling.empty() && !comments_.comment(dangling[0]).own_line) {
    Tokenizer tz(source_, node.start, comments_.comment(dangling[0]).start);
    tz.next_non_trivia();
    if (tz.next_non_trivia().kind == Tok::kEnd) open_end = 1;
  }
  std::span<const uint32_t> open_comments = dangling.subspan(0, open_end);
  std::span<const uint32_t> kv_comments = dangling.subspan(open_end);
  // Entries: indices into node.list of the value of each pair.
  std::vector<int32_t> values;
  for (size_t i = 0; i + 1 < node.list.size(); i += 2) values.push_back(node.list[i + 1]);
  parenthesized(
      "{",
      [&] {
        size_t pair = 0;
        comma_separated(values, node.end, false, [&](int32_t value) {
          int32_t key = node.list[pair * 2];
          ++pair;
          if (key != kNone) {
            group([&] {
              expr(key);
              token(":");
              // Comments between this key and its value.
              std::vector<uint32_t> mine;
              for (uint32_t c : kv_comments) {
                const SourceComment& sc = comments_.comment(c);
                if (sc.start > n(key).end && sc.end < n(value).start) mine.push_back(c);
              }
              if (mine.empty()) {
                space();
              } else {
                dangling_comments(mine);
              }
              expr(value);
            });
          } else {
            group([&] {
              token("**");
              expr(value);
            });
          }
        });
      },
      "}", open_comments);
}

void Formatter::starred(int32_t e) {
  const AstNode& node = n(e);
  token(node.op == 2 ? "**" : "*");
  dangling_comments(comments_.dangling(e));
  expr(node.a);
}

void Formatter::named_expr(int32_t e) {
  const AstNode& node = n(e);
  group([&] {
    expr(node.a);
    space();
    token(":=");
    space();
    expr(node.b);
  });
}

}  // namespace relax::syntax::format
