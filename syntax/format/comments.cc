// Comment placement, after ruff's rules: find the enclosing node and its children just before
// and after the comment, apply the special cases (parentheses, bodies and their indentation,
// brackets, operators, keywords, decorators), and otherwise attach end-of-line comments to the
// preceding node and own-line comments to the following one.
#include "syntax/format/comments.h"

#include <algorithm>

#include "syntax/format/trivia.h"

namespace relax::syntax::format {

namespace {

enum Kind { kLeading = 0, kDangling = 1, kTrailing = 2 };

struct Decorated {
  uint32_t index;
  uint32_t start, end;
  bool own_line;
  int32_t enclosing;
  int32_t preceding = kNone;
  int32_t following = kNone;
};

struct Placement {
  bool done = false;
  int32_t node = kNone;
  int kind = kLeading;
};

Placement leading(int32_t n) {
  return {true, n, kLeading};
}
Placement trailing(int32_t n) {
  return {true, n, kTrailing};
}
Placement dangling(int32_t n) {
  return {true, n, kDangling};
}
constexpr Placement kDefault{};

class Placer {
 public:
  Placer(const Ast& ast) : ast_(ast), src_(ast.source()) {}

  Placement place(Decorated& c) {
    Placement p = parenthesized(c);
    if (!p.done) p = end_of_line_around_body(c);
    if (!p.done) p = own_line_around_body(c);
    if (!p.done) p = enclosed(c);
    if (!p.done) p = default_placement(c);
    return p;
  }

  void decorate(Decorated& c) {
    int32_t node = ast_.root();
    while (true) {
      ast_.children(node, kids_);
      int32_t inner = kNone;
      c.preceding = c.following = kNone;
      for (int32_t k : kids_) {
        const AstNode& n = ast_.node(k);
        if (n.start <= c.start && c.end <= n.end) {
          inner = k;
          break;
        }
        if (n.end <= c.start) c.preceding = k;
        if (n.start >= c.end && c.following == kNone) c.following = k;
      }
      if (inner == kNone) break;
      node = inner;
    }
    c.enclosing = node;
  }

 private:
  const AstNode& n(int32_t i) const { return ast_.node(i); }

  Placement default_placement(const Decorated& c) {
    if (!c.own_line) {
      if (c.preceding != kNone) return trailing(c.preceding);
      if (c.following != kNone) return leading(c.following);
      return dangling(c.enclosing);
    }
    if (c.following != kNone) return leading(c.following);
    if (c.preceding != kNone) return trailing(c.preceding);
    return dangling(c.enclosing);
  }

  bool is_first_in_body(int32_t stmt, int32_t parent) const {
    const AstNode& p = n(parent);
    switch (p.type) {
      case NodeType::kFor:
      case NodeType::kWhile:
        return (!p.list.empty() && p.list.front() == stmt) ||
               (!p.list2.empty() && p.list2.front() == stmt);
      case NodeType::kIf:
      case NodeType::kElifElse:
      case NodeType::kWith:
      case NodeType::kFunctionDef:
      case NodeType::kClassDef:
        return !p.list.empty() && p.list.front() == stmt;
      default:
        return false;
    }
  }

  bool is_first_in_alternate_body(int32_t stmt, int32_t parent) const {
    const AstNode& p = n(parent);
    switch (p.type) {
      case NodeType::kFor:
      case NodeType::kWhile:
        return !p.list2.empty() && p.list2.front() == stmt;
      case NodeType::kIf:
        return !p.list2.empty() && p.list2.front() == stmt;
      default:
        return false;
    }
  }

  Placement parenthesized(const Decorated& c) {
    if (c.preceding == kNone || c.following == kNone) return kDefault;
    // Stop at tokens that can start a header after a decorator or alias (`as`, `def`, `class`).
    auto scan = [&](uint32_t start, uint32_t end, Tok want) {
      Tokenizer tz(src_, start, end);
      for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
        if (t.kind == Tok::kWord) {
          std::string_view w = src_.substr(t.start, t.end - t.start);
          if (w == "as" || w == "def" || w == "class") return false;
        }
        if (t.kind == want) return true;
      }
      return false;
    };
    if (scan(n(c.preceding).end, c.start, Tok::kLParen)) return leading(c.following);
    if (scan(c.end, n(c.following).start, Tok::kRParen)) return trailing(c.preceding);
    return kDefault;
  }

  Placement end_of_line_around_body(const Decorated& c) {
    if (c.own_line) return kDefault;
    if (c.following != kNone && is_first_in_body(c.following, c.enclosing)) {
      Tokenizer tz(src_, c.end, n(c.following).start);
      if (tz.next_non_trivia().kind == Tok::kEnd) return dangling(c.enclosing);
    }
    if (c.preceding != kNone) {
      int32_t last = ast_.last_child_in_body(c.preceding);
      if (last != kNone) {
        int32_t innermost = last;
        while (true) {
          int32_t next = ast_.last_child_in_body(innermost);
          if (next == kNone) break;
          innermost = next;
        }
        return trailing(innermost);
      }
    }
    return kDefault;
  }

  int32_t comment_indentation_after(int32_t preceding, const Decorated& c) {
    int32_t result = -1;
    Tokenizer tz(src_, n(preceding).end, c.end);
    for (Token t = tz.next(); t.kind != Tok::kEnd; t = tz.next()) {
      if (t.kind != Tok::kComment) continue;
      int32_t ind = indentation_at(src_, t.start);
      if (ind < 0) continue;
      if (result < 0 || ind < result) result = ind;
    }
    return result < 0 ? 0 : result;
  }

  int32_t indentation_of(int32_t node) const {
    int32_t ind = indentation_at(src_, n(node).start);
    return ind < 0 ? 0 : ind;
  }

  Placement own_line_around_body(const Decorated& c) {
    if (!c.own_line || c.preceding == kNone) return kDefault;
    if (Tokenizer(src_, n(c.preceding).end, c.start).next_non_trivia().kind != Tok::kEnd)
      return kDefault;
    Placement p = between_branches(c);
    if (!p.done) p = after_branch(c);
    if (!p.done) p = between_statements(c);
    return p;
  }

  Placement between_branches(const Decorated& c) {
    if (c.following == kNone || !is_first_in_alternate_body(c.following, c.enclosing))
      return kDefault;
    int32_t comment_indent = comment_indentation_after(c.preceding, c);
    int32_t preceding_indent = indentation_of(c.preceding);
    if (comment_indent > preceding_indent) return kDefault;
    bool preceding_is_branch = n(c.preceding).type == NodeType::kElifElse;
    bool following_is_branch = n(c.following).type == NodeType::kElifElse;
    if (comment_indent == preceding_indent) {
      return preceding_is_branch ? dangling(c.enclosing) : trailing(c.preceding);
    }
    return following_is_branch ? leading(c.following) : dangling(c.enclosing);
  }

  Placement after_branch(const Decorated& c) {
    int32_t last = ast_.last_child_in_body(c.preceding);
    if (last == kNone) return kDefault;
    int32_t comment_indent = comment_indentation_after(c.preceding, c);
    int32_t preceding_indent = indentation_at(src_, n(c.preceding).start);
    if (preceding_indent < 0) preceding_indent = 0;
    if (comment_indent == preceding_indent) return kDefault;
    int32_t parent = kNone;
    int32_t child = last;
    while (true) {
      int32_t child_indent = indentation_of(child);
      if (comment_indent < child_indent) {
        return parent != kNone ? trailing(parent) : kDefault;
      }
      if (comment_indent == child_indent) return trailing(child);
      int32_t nested = ast_.last_child_in_body(child);
      if (nested == kNone) return trailing(child);
      parent = child;
      child = nested;
    }
  }

  Placement between_statements(const Decorated& c) {
    if (c.preceding == kNone || c.following == kNone) return kDefault;
    if (!ast_.is_statement(c.preceding) || !ast_.is_statement(c.following)) return kDefault;
    if (!c.own_line) return kDefault;
    if (max_empty_lines(src_.substr(c.end, n(c.following).start - c.end)) == 0)
      return leading(c.following);
    return trailing(c.preceding);
  }

  Placement bracketed_end_of_line(const Decorated& c) {
    if (c.own_line) return kDefault;
    Tokenizer tz(src_, n(c.enclosing).start, c.start);
    Token open = tz.next_non_trivia();
    if (open.kind == Tok::kEnd) return kDefault;
    if (tz.next_non_trivia().kind == Tok::kEnd) return dangling(c.enclosing);
    return kDefault;
  }

  Placement enclosed(const Decorated& c) {
    const AstNode& e = n(c.enclosing);
    switch (e.type) {
      case NodeType::kParameters:
        if (!e.flag) return bracketed_end_of_line(c);
        return kDefault;
      case NodeType::kParameter: {
        if (e.a != kNone) {
          uint32_t colon = find_token(src_, e.start, n(e.a).start, Tok::kColon);
          if (c.start < colon) return leading(c.enclosing);
          return kDefault;
        }
        // The name is not a node: comments before it lead the parameter.
        return kDefault;
      }
      case NodeType::kArguments:
      case NodeType::kTypeParams:
        return bracketed_end_of_line(c);
      case NodeType::kAttribute:
        return attribute(c);
      case NodeType::kBinOp:
        return binary(c);
      case NodeType::kBoolOp:
      case NodeType::kCompare:
        return binary_like(c);
      case NodeType::kKeyword:
        return keyword(c);
      case NodeType::kUnaryOp: {
        uint32_t operand_start = n(e.a).outer_start;
        Tokenizer tz(src_, e.start, n(e.a).start);
        tz.next_non_trivia();  // the operator
        uint32_t up_to = n(e.a).start;
        for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
          if (t.kind == Tok::kLParen) {
            up_to = t.start;
            break;
          }
        }
        (void)operand_start;
        // `not  # comment` (before the operand or its parenthesis): printed after the operator.
        if (c.end < up_to && !c.own_line) return dangling(c.enclosing);
        return kDefault;
      }
      case NodeType::kLambda:
        return lambda(c);
      case NodeType::kDict: {
        Placement p = dict_unpacking(c);
        if (!p.done) p = bracketed_end_of_line(c);
        if (!p.done) p = key_value(c);
        return p;
      }
      case NodeType::kIfExp:
        return if_exp(c);
      case NodeType::kSlice:
        return slice(c, c.enclosing);
      case NodeType::kStarred:
        if (c.following != kNone && !any_token(src_, e.start, c.start, Tok::kLParen))
          return leading(c.enclosing);
        return kDefault;
      case NodeType::kSubscript: {
        if (n(e.b).type == NodeType::kSlice) return slice(c, e.b);
        if (!c.own_line && n(e.a).end < c.start) {
          Tokenizer tz(src_, n(e.a).end, c.start);
          bool found = false;
          for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
            if (t.kind == Tok::kLBracket) {
              found = true;
              break;
            }
          }
          if (!found) return kDefault;
          if (tz.next_non_trivia().kind == Tok::kEnd) return dangling(c.enclosing);
        }
        return kDefault;
      }
      case NodeType::kModule: {
        if (c.preceding == kNone && c.following == kNone) {
          if (!e.list.empty()) return trailing(e.list.back());
          return leading(c.enclosing);
        }
        if (c.own_line && c.preceding != kNone && c.following != kNone &&
            (n(c.following).type == NodeType::kFunctionDef ||
             n(c.following).type == NodeType::kClassDef)) {
          if (max_empty_lines(src_.substr(c.end, n(c.following).start - c.end)) == 0)
            return leading(c.following);
          return trailing(c.preceding);
        }
        return kDefault;
      }
      case NodeType::kWithItem: {
        if (c.preceding == kNone || c.following == kNone) return kDefault;
        uint32_t as = find_word(src_, n(c.preceding).end, n(c.following).start, "as");
        if (c.end < as) return trailing(c.preceding);
        if (!c.own_line) return dangling(c.enclosing);
        return leading(c.following);
      }
      case NodeType::kFunctionDef: {
        bool after_decorator = c.preceding != kNone && n(c.preceding).type == NodeType::kDecorator;
        bool before_params =
            c.following != kNone && (n(c.following).type == NodeType::kParameters ||
                                     n(c.following).type == NodeType::kTypeParams);
        if (c.own_line && after_decorator && before_params) return dangling(c.enclosing);
        return kDefault;
      }
      case NodeType::kClassDef: {
        if (c.own_line && !e.list2.empty() && n(e.list2.back()).end < c.start) {
          uint32_t name = find_word(src_, n(e.list2.back()).end, e.end, "class");
          if (c.start < name) return dangling(c.enclosing);
        }
        return kDefault;
      }
      case NodeType::kImportFrom:
        if (!c.own_line && !e.list.empty() && e.start < c.start &&
            c.start < n(e.list.front()).start) {
          return dangling(c.enclosing);
        }
        return kDefault;
      case NodeType::kWith:
        if (!c.own_line && !e.list2.empty() && e.start < c.start &&
            c.start < n(e.list2.front()).start) {
          return dangling(c.enclosing);
        }
        return kDefault;
      case NodeType::kCall:
        if (c.own_line && c.preceding != kNone && c.following != kNone &&
            n(c.preceding).end < c.start && c.end < n(c.following).start) {
          return dangling(c.enclosing);
        }
        return kDefault;
      case NodeType::kList:
      case NodeType::kSet:
        return bracketed_end_of_line(c);
      case NodeType::kTuple:
        if (e.flag) return bracketed_end_of_line(c);
        return kDefault;
      case NodeType::kReturn:
      case NodeType::kAssign:
      case NodeType::kAnnAssign:
      case NodeType::kAugAssign:
        return implicit_concatenated_trailing(c);
      default:
        return kDefault;
    }
  }

  Placement implicit_concatenated_trailing(const Decorated& c) {
    if (c.own_line || c.preceding == kNone) return kDefault;
    const AstNode& e = n(c.enclosing);
    int32_t value = e.type == NodeType::kAugAssign   ? e.b
                    : e.type == NodeType::kAnnAssign ? e.c
                                                     : e.a;
    if (e.type != NodeType::kReturn && value != c.preceding) return kDefault;
    const AstNode& p = n(c.preceding);
    if (p.type != NodeType::kString || p.list.size() < 2) return kDefault;
    int32_t last = p.list.back(), second = p.list[p.list.size() - 2];
    if (contains_line_break(src_, n(second).end, n(last).start) && p.parens > 0) {
      if (!any_token(src_, n(last).end, c.start, Tok::kRParen)) return trailing(last);
    }
    return kDefault;
  }

  Placement attribute(const Decorated& c) {
    const AstNode& e = n(c.enclosing);
    if (c.preceding == kNone) return leading(e.a);
    // Closing parentheses of the value.
    Tokenizer tz(src_, n(e.a).end, e.end);
    uint32_t last_rparen = 0;
    bool any = false;
    for (Token t = tz.next_non_trivia(); t.kind == Tok::kRParen; t = tz.next_non_trivia()) {
      last_rparen = t.start;
      any = true;
    }
    if (any && c.start < last_rparen) return trailing(e.a);
    if (!c.own_line) {
      uint32_t dot = find_token(src_, n(e.a).end, e.end, Tok::kDot);
      if (c.end < dot) return trailing(e.a);
    }
    return dangling(c.enclosing);
  }

  uint32_t operator_offset(uint32_t from, uint32_t to) {
    Tokenizer tz(src_, from, to);
    Token t = tz.next_non_trivia();
    while (t.kind == Tok::kRParen) t = tz.next_non_trivia();
    return t.start;
  }

  Placement binary(const Decorated& c) {
    if (c.preceding == kNone || c.following == kNone) return kDefault;
    const AstNode& e = n(c.enclosing);
    uint32_t op = operator_offset(n(e.a).end, n(e.b).start);
    if (c.end < op) return trailing(e.a);
    if (!c.own_line) {
      if (contains_line_break(src_, n(e.a).end, op) &&
          contains_line_break(src_, op, n(e.b).start)) {
        return dangling(c.enclosing);
      }
    }
    return kDefault;
  }

  Placement binary_like(const Decorated& c) {
    if (c.preceding == kNone || c.following == kNone) return kDefault;
    uint32_t op = operator_offset(n(c.preceding).end, n(c.following).start);
    if (c.end < op) return trailing(c.preceding);
    return kDefault;
  }

  Placement keyword(const Decorated& c) {
    const AstNode& e = n(c.enclosing);
    // The name is not a node; the value starts after `=` (or `**`).
    uint32_t start = e.start;
    if (!e.text.empty()) start = e.start + static_cast<uint32_t>(e.text.size());
    if (any_token(src_, start, c.start, Tok::kLParen)) return kDefault;
    return leading(c.enclosing);
  }

  Placement dict_unpacking(const Decorated& c) {
    if (c.following == kNone) return kDefault;
    uint32_t from = c.preceding != kNone ? n(c.preceding).end : n(c.enclosing).start;
    Tokenizer tz(src_, from, c.start);
    Token t = tz.next_non_trivia();
    while (t.kind == Tok::kRParen) t = tz.next_non_trivia();
    for (; t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
      if (t.kind == Tok::kDoubleStar) return leading(c.following);
    }
    return kDefault;
  }

  Placement key_value(const Decorated& c) {
    if (c.following == kNone || c.preceding == kNone) return kDefault;
    if (any_token(src_, n(c.preceding).end, n(c.following).start, Tok::kColon))
      return dangling(c.enclosing);
    return kDefault;
  }

  Placement if_exp(const Decorated& c) {
    if (c.own_line) return kDefault;
    const AstNode& e = n(c.enclosing);
    uint32_t if_tok = find_word(src_, n(e.a).end, n(e.b).start, "if");
    if (if_tok < c.start && c.start < n(e.b).start) return leading(e.b);
    uint32_t else_tok = find_word(src_, n(e.b).end, n(e.c).start, "else");
    if (else_tok < c.start && c.start < n(e.c).start) return leading(e.c);
    return kDefault;
  }

  Placement lambda(const Decorated& c) {
    const AstNode& e = n(c.enclosing);
    if (e.a != kNone) {
      if (c.start < n(e.a).start) return dangling(c.enclosing);
      if (n(e.a).end < c.start && c.start < n(e.b).start) {
        if (any_token(src_, n(e.a).end, c.start, Tok::kLParen)) return kDefault;
        return dangling(c.enclosing);
      }
    } else if (c.start < n(e.b).start) {
      if (any_token(src_, e.start, c.start, Tok::kLParen)) return kDefault;
      return dangling(c.enclosing);
    }
    return kDefault;
  }

  Placement slice(const Decorated& c, int32_t slice_node) {
    // `x[  # comment` stays after the bracket.
    uint32_t p = c.start;
    while (p > 0) {
      char ch = src_[p - 1];
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') {
        --p;
        continue;
      }
      break;
    }
    bool after_lbracket = p > 0 && src_[p - 1] == '[';
    if (!c.own_line && after_lbracket && n(c.enclosing).type == NodeType::kSubscript)
      return dangling(c.enclosing);
    const AstNode& s = n(slice_node);
    // Which section (lower, upper, step) the comment is in: count the colons before it.
    Tokenizer tz(src_, s.start, c.start);
    int colons = 0;
    int depth = 0;
    for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
      if (t.kind == Tok::kLParen || t.kind == Tok::kLBracket || t.kind == Tok::kLBrace) ++depth;
      if (t.kind == Tok::kRParen || t.kind == Tok::kRBracket || t.kind == Tok::kRBrace) --depth;
      if (t.kind == Tok::kColon && depth == 0) ++colons;
    }
    int32_t target = colons == 0 ? s.a : colons == 1 ? s.b : s.c;
    if (target != kNone) {
      if (c.start < n(target).start) return leading(target);
      return trailing(target);
    }
    return dangling(slice_node);
  }

  const Ast& ast_;
  std::string_view src_;
  std::vector<int32_t> kids_;
};

}  // namespace

Comments::Comments(const Ast& ast) : ast_(ast), formatted_(ast.comments().size(), 0) {
  if (ast.comments().empty()) return;
  Placer placer(ast);
  for (uint32_t i = 0; i < ast.comments().size(); ++i) {
    const SourceComment& sc = ast.comments()[i];
    Decorated d;
    d.index = i;
    d.start = sc.start;
    d.end = sc.end;
    d.own_line = sc.own_line;
    placer.decorate(d);
    Placement p = placer.place(d);
    attach(p.node, p.kind, i);
    if (p.kind == 1 && ast.node(p.node).type == NodeType::kUnaryOp) ++floating_;
  }
}

bool Comments::has_trailing_own_line(int32_t node) const {
  for (uint32_t i : trailing(node)) {
    if (comment(i).own_line) return true;
  }
  return false;
}

bool Comments::has_trailing_end_of_line(int32_t node) const {
  for (uint32_t i : trailing(node)) {
    if (!comment(i).own_line) return true;
  }
  return false;
}

}  // namespace relax::syntax::format
