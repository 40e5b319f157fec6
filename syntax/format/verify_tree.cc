// The fast form of the safety check: the input's and the output's formatter trees (ast.h) walked
// side by side, equal up to what formatting may change -- the rule of the canonical tokens
// (verify.cc, docs/formatting.md) applied to the trees themselves, with no token copies.
// Ignored: ranges, grouping parentheses, whether a tuple or a generator has its own parentheses,
// literal spellings (compared by value), the empty `()` of a class, spaces in dotted names.
#include <algorithm>
#include <cstring>

#include "syntax/format/ast.h"
#include "syntax/format/literals.h"
#include "syntax/format/verify.h"

namespace relax::syntax::format {

namespace {

const char* type_name(NodeType t) {
  switch (t) {
    case NodeType::kModule:
      return "module";
    case NodeType::kExprStmt:
      return "expression statement";
    case NodeType::kAssign:
      return "assignment";
    case NodeType::kAnnAssign:
      return "annotated assignment";
    case NodeType::kAugAssign:
      return "augmented assignment";
    case NodeType::kReturn:
      return "return";
    case NodeType::kPass:
      return "pass";
    case NodeType::kBreak:
      return "break";
    case NodeType::kContinue:
      return "continue";
    case NodeType::kAssert:
      return "assert";
    case NodeType::kIf:
      return "if";
    case NodeType::kElifElse:
      return "elif/else";
    case NodeType::kFor:
      return "for";
    case NodeType::kWhile:
      return "while";
    case NodeType::kWith:
      return "with";
    case NodeType::kWithItem:
      return "with item";
    case NodeType::kFunctionDef:
      return "def";
    case NodeType::kClassDef:
      return "class";
    case NodeType::kDecorator:
      return "decorator";
    case NodeType::kParameters:
      return "parameters";
    case NodeType::kParameter:
      return "parameter";
    case NodeType::kTypeParams:
      return "type parameters";
    case NodeType::kTypeParam:
      return "type parameter";
    case NodeType::kImport:
      return "import";
    case NodeType::kImportFrom:
      return "from-import";
    case NodeType::kAlias:
      return "import name";
    case NodeType::kVerbatimStmt:
      return "statement";
    case NodeType::kName:
      return "name";
    case NodeType::kNumber:
      return "number";
    case NodeType::kString:
      return "string";
    case NodeType::kStringPart:
      return "string";
    case NodeType::kConstant:
      return "constant";
    case NodeType::kAttribute:
      return "attribute";
    case NodeType::kCall:
      return "call";
    case NodeType::kArguments:
      return "arguments";
    case NodeType::kKeyword:
      return "keyword argument";
    case NodeType::kSubscript:
      return "subscript";
    case NodeType::kSlice:
      return "slice";
    case NodeType::kBinOp:
      return "binary operator";
    case NodeType::kUnaryOp:
      return "unary operator";
    case NodeType::kBoolOp:
      return "boolean operator";
    case NodeType::kCompare:
      return "comparison";
    case NodeType::kIfExp:
      return "conditional expression";
    case NodeType::kLambda:
      return "lambda";
    case NodeType::kTuple:
      return "tuple";
    case NodeType::kList:
      return "list";
    case NodeType::kSet:
      return "set";
    case NodeType::kDict:
      return "dict";
    case NodeType::kStarred:
      return "starred";
    case NodeType::kNamedExpr:
      return "named expression";
    case NodeType::kComprehension:
      return "comprehension";
    case NodeType::kCompFor:
      return "comprehension clause";
    case NodeType::kVerbatimExpr:
      return "expression";
  }
  return "node";
}

std::string_view raw(const Ast& t, const AstNode& n) {
  return t.source().substr(n.start, n.end - n.start);
}

// What a message shows of a node: its kind and, for leaves, the start of its text.
std::string describe(const Ast& t, int32_t i) {
  if (i == kNone) return "(nothing)";
  const AstNode& n = t.node(i);
  std::string out = type_name(n.type);
  std::string_view text = n.text;
  if (n.type == NodeType::kString || n.type == NodeType::kVerbatimStmt ||
      n.type == NodeType::kVerbatimExpr || n.type == NodeType::kBinOp ||
      n.type == NodeType::kUnaryOp || n.type == NodeType::kCompare) {
    text = raw(t, n);
  }
  if (!text.empty()) {
    size_t cut = std::min<size_t>(text.find_first_of("\r\n"), 60);
    out += " ";
    out += text.substr(0, cut);
    if (cut < text.size()) out += "...";
  }
  return out;
}

// Names written with spaces or line continuations inside (`a . b` in an import) by their tokens.
bool same_tokens_text(std::string_view a, std::string_view b) {
  if (a == b) return true;
  auto strip = [](std::string_view s) {
    std::string out;
    for (char c : s) {
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\' && c != '\f')
        out.push_back(c);
    }
    return out;
  };
  return strip(a) == strip(b);
}

// A string node's value: its parts decoded and joined (implicit concatenation is layout).
std::string joined_value(const Ast& t, const AstNode& s) {
  std::string value;
  bool first = true;
  for (int32_t p : s.list) {
    std::string v = string_value(t.node(p).text);
    value += first ? v : v.substr(2);
    first = false;
  }
  return value;
}

bool docstring_parts(const Ast& t, const AstNode& s) {
  for (int32_t p : s.list) {
    if (!is_docstring_literal(t.node(p).text)) return false;
  }
  return true;
}

bool same_string(const Ast& x, const AstNode& p, const Ast& y, const AstNode& q, bool doc) {
  if (p.list.size() == q.list.size()) {
    bool identical = true;
    for (size_t i = 0; i < p.list.size() && identical; ++i)
      identical = x.node(p.list[i]).text == y.node(q.list[i]).text;
    if (identical) return true;
  }
  std::string a = joined_value(x, p), b = joined_value(y, q);
  if (doc && docstring_parts(x, p) && docstring_parts(y, q))
    return docstring_words(a) == docstring_words(b);
  return a == b;
}

// The class's argument list, none when it is empty: `class A():` is `class A:`.
int32_t class_arguments(const Ast& t, const AstNode& n) {
  if (n.a != kNone && t.node(n.a).list.empty()) return kNone;
  return n.a;
}

// Whether the node's own fields (not its children) mean the same.
bool same_fields(const Ast& x, const AstNode& p, const Ast& y, const AstNode& q, bool doc) {
  if (p.type != q.type || p.op != q.op) return false;
  switch (p.type) {
    case NodeType::kString:
      return same_string(x, p, y, q, doc);
    case NodeType::kStringPart:
      return true;  // compared by value, as a part of its string
    case NodeType::kNumber:
      return p.text == q.text || number_value(p.text) == number_value(q.text);
    case NodeType::kVerbatimStmt:
    case NodeType::kVerbatimExpr:
      return raw(x, p) == raw(y, q);
    case NodeType::kImportFrom:
    case NodeType::kAlias:
    case NodeType::kTypeParam:
      if (!same_tokens_text(p.text, q.text) || !same_tokens_text(p.text2, q.text2)) return false;
      break;
    default:
      if (p.text != q.text || p.text2 != q.text2) return false;
      break;
  }
  // Flags that are meaning (the others say how parentheses were written).
  if (p.type == NodeType::kImportFrom || p.type == NodeType::kCompFor ||
      p.type == NodeType::kParameters) {
    if (p.flag != q.flag) return false;
  }
  return std::ranges::equal(p.ops, q.ops);
}

struct Pending {
  int32_t x, y;
  int32_t parent;      // in the input tree, for differences in what is present
  bool doc;            // at a docstring's place
  bool sizes = false;  // x and y have lists of different sizes: report it (after the rest)
};

// A sufficient condition for equality that reads both node arrays in order, which is several
// times faster than walking the trees: when both were built the same way from texts with the
// same structure, node i of one is node i of the other, with the same child ids. (By induction
// from the root, node 0: equal fields and equal child ids make equal trees.) Docstrings whose
// text changed and an emptied `()` of a class fail it; the walk then decides.
bool same_in_order(const Ast& in, const Ast& out) {
  if (in.size() != out.size()) return false;
  auto same_ids = [](const IdList& u, const IdList& v) {
    return u.size() == v.size() && std::equal(u.begin(), u.end(), v.begin());
  };
  for (size_t k = 0; k < in.size(); ++k) {
    const AstNode& p = in.node(static_cast<int32_t>(k));
    const AstNode& q = out.node(static_cast<int32_t>(k));
    if (p.a != q.a || p.b != q.b || p.c != q.c || !same_fields(in, p, out, q, false) ||
        !same_ids(p.list, q.list) || !same_ids(p.list2, q.list2)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<TreeDifference> tree_difference(const Ast& in, const Ast& out) {
  if (same_in_order(in, out)) return std::nullopt;
  std::vector<Pending> stack{{in.root(), out.root(), kNone, false}};
  // The first extra or missing element of two nodes' lists.
  auto extra_or_missing = [&](const AstNode& p, const AstNode& q, int32_t x) {
    const IdList& a = p.list.size() != q.list.size() ? p.list : p.list2;
    const IdList& b = p.list.size() != q.list.size() ? q.list : q.list2;
    size_t k = std::min(a.size(), b.size());
    return Pending{k < a.size() ? a[k] : kNone, k < b.size() ? b[k] : kNone, x, false};
  };
  auto difference = [&](const Pending& at) {
    uint32_t offset = at.x != kNone        ? in.node(at.x).start
                      : at.parent != kNone ? in.node(at.parent).start
                                           : 0;
    return TreeDifference{offset, describe(in, at.x), describe(out, at.y)};
  };
  // Children are pushed last first, so the first difference found is the first in the file.
  while (!stack.empty()) {
    Pending at = stack.back();
    stack.pop_back();
    if (at.sizes) return difference(extra_or_missing(in.node(at.x), out.node(at.y), at.x));
    if ((at.x == kNone) != (at.y == kNone)) return difference(at);
    if (at.x == kNone) continue;
    const AstNode& p = in.node(at.x);
    const AstNode& q = out.node(at.y);
    if (!same_fields(in, p, out, q, at.doc)) return difference(at);
    if (p.type == NodeType::kString) continue;  // its parts are its value
    if (p.list.size() != q.list.size() || p.list2.size() != q.list2.size()) {
      // Reported after the elements both have (a statement missing from a block is found in
      // the block, not where the class around it starts).
      stack.push_back({at.x, at.y, at.parent, false, true});
    }
    auto one = [&](int32_t u, int32_t v) { stack.push_back({u, v, at.x, false}); };
    auto list = [&](const IdList& u, const IdList& v, bool body) {
      for (size_t i = std::min(u.size(), v.size()); i-- > 0;) {
        // A docstring is the first statement of a module, class or function body.
        bool doc = body && i == 0 && in.node(u[0]).type == NodeType::kExprStmt;
        stack.push_back({u[i], v[i], at.x, doc});
      }
    };
    switch (p.type) {
      case NodeType::kFunctionDef:  // decorators, type parameters, parameters, returns, body
        list(p.list, q.list, true);
        one(p.b, q.b);
        one(p.a, q.a);
        one(p.c, q.c);
        list(p.list2, q.list2, false);
        break;
      case NodeType::kClassDef:
        list(p.list, q.list, true);
        one(class_arguments(in, p), class_arguments(out, q));
        one(p.c, q.c);
        list(p.list2, q.list2, false);
        break;
      case NodeType::kModule:
        list(p.list, q.list, true);
        break;
      case NodeType::kWith:  // items, body
        list(p.list, q.list, false);
        list(p.list2, q.list2, false);
        break;
      case NodeType::kAssign:  // targets, value
        one(p.a, q.a);
        list(p.list, q.list, false);
        break;
      case NodeType::kExprStmt:
        stack.push_back({p.a, q.a, at.x, at.doc});
        break;
      default:  // a, b, c, then the lists (if: test, body, elif/else; for: target, iter, ...)
        list(p.list2, q.list2, false);
        list(p.list, q.list, false);
        one(p.c, q.c);
        one(p.b, q.b);
        one(p.a, q.a);
        break;
    }
  }
  return std::nullopt;
}

std::optional<TreeDifference> comment_difference(const Ast& in, const Ast& out) {
  auto pieces = [](const Ast& t) {
    std::vector<CanonicalToken> all;
    all.reserve(t.comments().size());
    for (const SourceComment& c : t.comments())
      comment_pieces(t.source().substr(c.start, c.end - c.start), c.start, all);
    return all;
  };
  std::vector<CanonicalToken> a = pieces(in), b = pieces(out);
  long i = first_difference(a, b);
  if (i < 0) return std::nullopt;
  size_t k = static_cast<size_t>(i);
  uint32_t offset = k < a.size() ? a[k].offset : (a.empty() ? 0 : a.back().offset);
  return TreeDifference{offset, k < a.size() ? a[k].text : "(end)",
                        k < b.size() ? b[k].text : "(end)"};
}

}  // namespace relax::syntax::format
