// Builds the formatter's tree from the CST. Parenthesized expressions become flags on the inner
// expression (ruff's AST has no node for grouping parentheses), `a and b and c` becomes one
// n-ary node, chained assignments one statement with several targets. Constructs the formatter
// does not lay out (comprehensions, await, yield, del, raise, try, ...) become verbatim nodes.
#include "syntax/format/ast.h"

#include <algorithm>
#include <cstring>

namespace relax::syntax::format {

namespace {

bool is(const syntax::Node& n, const char* type) {
  return std::strcmp(n.type(), type) == 0;
}

// Named children without comments.
std::vector<syntax::Node> kids(const syntax::Node& n) {
  std::vector<syntax::Node> out;
  for (const syntax::Node& c : n.children()) {
    if (c.is_named() && c.kind() != NodeKind::kComment) out.push_back(c);
  }
  return out;
}

BinaryOp binary_op(std::string_view s) {
  if (s == "+") return BinaryOp::kAdd;
  if (s == "-") return BinaryOp::kSub;
  if (s == "*") return BinaryOp::kMul;
  if (s == "@") return BinaryOp::kMatMul;
  if (s == "/") return BinaryOp::kDiv;
  if (s == "//") return BinaryOp::kFloorDiv;
  if (s == "%") return BinaryOp::kMod;
  if (s == "**") return BinaryOp::kPow;
  if (s == "<<") return BinaryOp::kLShift;
  if (s == ">>") return BinaryOp::kRShift;
  if (s == "|") return BinaryOp::kBitOr;
  if (s == "^") return BinaryOp::kBitXor;
  return BinaryOp::kBitAnd;
}

CmpOp cmp_op(std::string_view s) {
  if (s == "==") return CmpOp::kEq;
  if (s == "!=" || s == "<>") return CmpOp::kNotEq;
  if (s == "<") return CmpOp::kLt;
  if (s == "<=") return CmpOp::kLtE;
  if (s == ">") return CmpOp::kGt;
  if (s == ">=") return CmpOp::kGtE;
  if (s == "in") return CmpOp::kIn;
  if (s == "is") return CmpOp::kIs;
  // "is not" and "not in" are single tokens, possibly with more than one space inside.
  if (s.substr(0, 2) == "is") return CmpOp::kIsNot;
  return CmpOp::kNotIn;
}

}  // namespace

Ast::Ast(const SyntaxTree& tree) : tree_(&tree), source_(tree.text()) {
  nodes_.reserve(tree.text().size() / 3 + 16);
  syntax::Node root = tree.root();
  int32_t module = add(NodeType::kModule, 0, static_cast<uint32_t>(source_.size()));
  std::vector<int32_t> body;
  block_into(root, body);
  node(module).list = store(body);
  set_parents(module);
  collect_comments(root);
}

int32_t Ast::add(NodeType type, uint32_t start, uint32_t end) {
  AstNode& n = nodes_.emplace_back();
  n.type = type;
  n.start = n.outer_start = start;
  n.end = n.outer_end = end;
  return static_cast<int32_t>(nodes_.size() - 1);
}

template <typename T>
T* Ast::allocate(size_t count) {
  constexpr size_t kChunk = 64 * 1024;
  size_t bytes = count * sizeof(T);
  size_t at = (chunk_used_ + alignof(T) - 1) & ~(alignof(T) - 1);
  if (chunks_.empty() || at + bytes > chunk_size_) {
    size_t size = std::max(kChunk, bytes);
    chunks_.push_back(std::make_unique<std::byte[]>(size));
    chunk_size_ = size;
    at = 0;
  }
  chunk_used_ = at + bytes;
  return reinterpret_cast<T*>(chunks_.back().get() + at);
}

IdList Ast::store(const std::vector<int32_t>& ids) {
  if (ids.empty()) return {};
  int32_t* p = allocate<int32_t>(ids.size());
  std::copy(ids.begin(), ids.end(), p);
  return IdList(p, ids.size());
}

std::span<const uint8_t> Ast::store(const std::vector<uint8_t>& bytes) {
  if (bytes.empty()) return {};
  uint8_t* p = allocate<uint8_t>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), p);
  return std::span<const uint8_t>(p, bytes.size());
}

bool Ast::is_statement_part(int32_t i) const {
  switch (node(i).type) {
    case NodeType::kElifElse:
    case NodeType::kWithItem:
    case NodeType::kDecorator:
    case NodeType::kParameters:
    case NodeType::kParameter:
    case NodeType::kTypeParams:
    case NodeType::kTypeParam:
    case NodeType::kAlias:
      return true;
    default:
      return false;
  }
}

void Ast::block_into(syntax::Node block, std::vector<int32_t>& out) {
  for (const syntax::Node& c : block.children()) {
    if (!c.is_named() || c.kind() == NodeKind::kComment) continue;
    out.push_back(statement(c));
  }
}

int32_t Ast::compound_body_end(int32_t stmt) {
  const AstNode& n = node(stmt);
  int32_t last = kNone;
  if (!n.list2.empty() &&
      (n.type == NodeType::kIf || n.type == NodeType::kFor || n.type == NodeType::kWhile)) {
    if (n.type == NodeType::kIf) return node(n.list2.back()).end;
    last = n.list2.back();
  } else if (!n.list.empty()) {
    last = n.list.back();
  }
  return last == kNone ? n.end : node(last).end;
}

int32_t Ast::statement(syntax::Node cst) {
  uint32_t start = cst.start(), end = cst.end();
  switch (cst.kind()) {
    case NodeKind::kExpressionStatement: {
      std::vector<syntax::Node> k = kids(cst);
      int32_t value = k.size() == 1 ? expression_or_list(k[0]) : kNone;
      if (value == kNone) return add(NodeType::kVerbatimStmt, start, end);
      int32_t s = add(NodeType::kExprStmt, start, end);
      node(s).a = value;
      return s;
    }
    case NodeKind::kAssignment: {
      syntax::Node annotation = cst.field(Field::kAnnotation);
      syntax::Node right = cst.field(Field::kRight);
      if (annotation) {
        int32_t target = expression_or_list(cst.field(Field::kLeft));
        int32_t ann = expression(annotation);
        int32_t value = right ? expression_or_list(right) : kNone;
        int32_t s = add(NodeType::kAnnAssign, start, end);
        node(s).a = target;
        node(s).b = ann;
        node(s).c = value;
        return s;
      }
      std::vector<int32_t> targets;
      targets.push_back(expression_or_list(cst.field(Field::kLeft)));
      while (right && right.kind() == NodeKind::kAssignment && !right.field(Field::kAnnotation)) {
        targets.push_back(expression_or_list(right.field(Field::kLeft)));
        right = right.field(Field::kRight);
      }
      if (!right) return add(NodeType::kVerbatimStmt, start, end);
      int32_t value = expression_or_list(right);
      int32_t s = add(NodeType::kAssign, start, end);
      node(s).list = store(targets);
      node(s).a = value;
      return s;
    }
    case NodeKind::kAugmentedAssignment: {
      int32_t target = expression_or_list(cst.field(Field::kLeft));
      int32_t value = expression_or_list(cst.field(Field::kRight));
      int32_t s = add(NodeType::kAugAssign, start, end);
      node(s).a = target;
      node(s).b = value;
      node(s).text = cst.field(Field::kOperator).text();
      return s;
    }
    case NodeKind::kReturnStatement: {
      syntax::Node v = cst.field(Field::kValue);
      int32_t value = v ? expression_or_list(v) : kNone;
      int32_t s = add(NodeType::kReturn, start, end);
      node(s).a = value;
      return s;
    }
    case NodeKind::kPassStatement:
      return add(NodeType::kPass, start, end);
    case NodeKind::kBreakStatement:
      return add(NodeType::kBreak, start, end);
    case NodeKind::kContinueStatement:
      return add(NodeType::kContinue, start, end);
    case NodeKind::kAssertStatement: {
      int32_t test = expression(cst.field(Field::kCondition));
      syntax::Node m = cst.field(Field::kMessage);
      int32_t msg = m ? expression(m) : kNone;
      int32_t s = add(NodeType::kAssert, start, end);
      node(s).a = test;
      node(s).b = msg;
      return s;
    }
    case NodeKind::kIfStatement: {
      int32_t test = expression(cst.field(Field::kCondition));
      std::vector<int32_t> body;
      block_into(cst.field(Field::kConsequence), body);
      std::vector<int32_t> clauses;
      for (syntax::Node alt : cst.fields(Field::kAlternative)) {
        int32_t clause = add(NodeType::kElifElse, alt.start(), alt.end());
        if (alt.kind() == NodeKind::kElifClause) {
          int32_t t = expression(alt.field(Field::kCondition));
          node(clause).a = t;
          std::vector<int32_t> b;
          block_into(alt.field(Field::kConsequence), b);
          node(clause).list = store(b);
        } else {
          std::vector<int32_t> b;
          block_into(alt.field(Field::kBody), b);
          node(clause).list = store(b);
        }
        node(clause).end = node(clause).outer_end = compound_body_end(clause);
        clauses.push_back(clause);
      }
      int32_t s = add(NodeType::kIf, start, end);
      node(s).a = test;
      node(s).list = store(body);
      node(s).list2 = store(clauses);
      node(s).end = node(s).outer_end = compound_body_end(s);
      return s;
    }
    case NodeKind::kForStatement:
    case NodeKind::kWhileStatement: {
      bool is_for = cst.kind() == NodeKind::kForStatement;
      int32_t a = is_for ? expression_or_list(cst.field(Field::kLeft))
                         : expression(cst.field(Field::kCondition));
      int32_t b = is_for ? expression_or_list(cst.field(Field::kRight)) : kNone;
      std::vector<int32_t> body, orelse;
      block_into(cst.field(Field::kBody), body);
      if (syntax::Node alt = cst.field(Field::kAlternative))
        block_into(alt.field(Field::kBody), orelse);
      int32_t s = add(is_for ? NodeType::kFor : NodeType::kWhile, start, end);
      node(s).a = a;
      node(s).b = b;
      node(s).list = store(body);
      node(s).list2 = store(orelse);
      node(s).end = node(s).outer_end = compound_body_end(s);
      return s;
    }
    case NodeKind::kWithStatement: {
      std::vector<int32_t> items;
      for (syntax::Node c : kids(cst)) {
        if (c.kind() != NodeKind::kWithItem) continue;
        int32_t value = expression(c.field(Field::kValue));
        syntax::Node alias = c.field(Field::kAlias);
        int32_t target = alias ? expression_or_list(alias) : kNone;
        int32_t item = add(NodeType::kWithItem, c.start(), c.end());
        node(item).a = value;
        node(item).b = target;
        items.push_back(item);
      }
      std::vector<int32_t> body;
      block_into(cst.field(Field::kBody), body);
      int32_t s = add(NodeType::kWith, start, end);
      node(s).list2 = store(items);
      node(s).list = store(body);
      node(s).end = node(s).outer_end = compound_body_end(s);
      return s;
    }
    case NodeKind::kDecoratedDefinition: {
      std::vector<int32_t> decorators;
      for (syntax::Node c : kids(cst)) {
        if (c.kind() != NodeKind::kDecorator) continue;
        syntax::Node v = c.field(Field::kValue);
        int32_t expr = expression(v);
        int32_t d = add(NodeType::kDecorator, c.start(), v.end());
        node(d).a = expr;
        decorators.push_back(d);
      }
      int32_t def = statement(cst.field(Field::kDefinition));
      node(def).start = node(def).outer_start = start;
      node(def).list2 = store(decorators);
      return def;
    }
    case NodeKind::kFunctionDefinition: {
      int32_t tparams = kNone;
      if (syntax::Node tp = cst.field(Field::kTypeParameters)) {
        tparams = add(NodeType::kTypeParams, tp.start(), tp.end());
        std::vector<int32_t> ps;
        for (syntax::Node p : kids(tp)) {
          int32_t t = add(NodeType::kTypeParam, p.start(), p.end());
          syntax::Node name = p.field(Field::kName);
          node(t).text = name ? source_.substr(p.start(), name.end() - p.start()) : p.text();
          if (syntax::Node bound = p.field(Field::kBound)) {
            int32_t bb = expression(bound);
            node(t).a = bb;
          }
          ps.push_back(t);
        }
        node(tparams).list = store(ps);
      }
      int32_t params = parameters(cst.field(Field::kParameters), false);
      syntax::Node rt = cst.field(Field::kReturnType);
      int32_t returns = rt ? expression(rt) : kNone;
      std::vector<int32_t> body;
      block_into(cst.field(Field::kBody), body);
      int32_t s = add(NodeType::kFunctionDef, start, end);
      node(s).text = cst.field(Field::kName).text();
      node(s).a = params;
      node(s).b = returns;
      node(s).c = tparams;
      node(s).list = store(body);
      node(s).end = node(s).outer_end = compound_body_end(s);
      return s;
    }
    case NodeKind::kClassDefinition: {
      int32_t tparams = kNone;
      if (syntax::Node tp = cst.field(Field::kTypeParameters)) {
        tparams = add(NodeType::kTypeParams, tp.start(), tp.end());
        std::vector<int32_t> ps;
        for (syntax::Node p : kids(tp)) {
          int32_t t = add(NodeType::kTypeParam, p.start(), p.end());
          syntax::Node name = p.field(Field::kName);
          node(t).text = name ? source_.substr(p.start(), name.end() - p.start()) : p.text();
          if (syntax::Node bound = p.field(Field::kBound)) {
            int32_t bb = expression(bound);
            node(t).a = bb;
          }
          ps.push_back(t);
        }
        node(tparams).list = store(ps);
      }
      syntax::Node sc = cst.field(Field::kSuperclasses);
      int32_t args = sc ? arguments(sc) : kNone;
      std::vector<int32_t> body;
      block_into(cst.field(Field::kBody), body);
      int32_t s = add(NodeType::kClassDef, start, end);
      node(s).text = cst.field(Field::kName).text();
      node(s).a = args;
      node(s).c = tparams;
      node(s).list = store(body);
      node(s).end = node(s).outer_end = compound_body_end(s);
      return s;
    }
    case NodeKind::kImportStatement:
    case NodeKind::kImportFromStatement:
    case NodeKind::kFutureImportStatement: {
      bool from = cst.kind() != NodeKind::kImportStatement;
      std::vector<int32_t> aliases;
      bool wildcard = false;
      for (syntax::Node c : cst.fields(Field::kName)) {
        int32_t al = add(NodeType::kAlias, c.start(), c.end());
        if (c.kind() == NodeKind::kAliasedImport) {
          node(al).text = c.field(Field::kName).text();
          node(al).text2 = c.field(Field::kAlias).text();
        } else {
          node(al).text = c.text();
        }
        aliases.push_back(al);
      }
      for (syntax::Node c : kids(cst)) {
        if (is(c, "wildcard_import")) wildcard = true;
      }
      int32_t s = add(from ? NodeType::kImportFrom : NodeType::kImport, start, end);
      if (cst.kind() == NodeKind::kFutureImportStatement) {
        node(s).text = "__future__";
      } else if (from) {
        node(s).text = cst.field(Field::kModuleName).text();
      }
      node(s).list = store(aliases);
      node(s).flag = wildcard;
      return s;
    }
    default:
      if (std::strcmp(cst.type(), "unsupported_compound_statement") == 0) {
        // `async def`, `async for`, `async with`: the statement, with `async` in front.
        std::vector<syntax::Node> inner = kids(cst);
        if (inner.size() == 1 && source_.substr(start, inner[0].start() - start) == "async " &&
            (inner[0].kind() == NodeKind::kFunctionDefinition ||
             inner[0].kind() == NodeKind::kForStatement ||
             inner[0].kind() == NodeKind::kWithStatement)) {
          int32_t s = statement(inner[0]);
          node(s).start = node(s).outer_start = start;
          node(s).text2 = "async";
          return s;
        }
      }
      return add(NodeType::kVerbatimStmt, start, end);
  }
}

int32_t Ast::expression_or_list(syntax::Node cst) {
  return expression(cst);
}

int32_t Ast::string(syntax::Node cst) {
  int32_t s = add(NodeType::kString, cst.start(), cst.end());
  std::vector<int32_t> parts;
  auto add_part = [&](syntax::Node p) {
    int32_t part = add(NodeType::kStringPart, p.start(), p.end());
    node(part).text = p.text();
    node(part).flag = p.text().find('\n') != std::string_view::npos;
    parts.push_back(part);
  };
  if (cst.kind() == NodeKind::kConcatenatedString) {
    for (syntax::Node p : kids(cst)) add_part(p);
  } else {
    add_part(cst);
  }
  node(s).list = store(parts);
  return s;
}

int32_t Ast::arguments(syntax::Node cst) {
  std::vector<int32_t> items;
  for (syntax::Node c : kids(cst)) {
    if (c.kind() == NodeKind::kKeywordArgument) {
      int32_t value = expression(c.field(Field::kValue));
      int32_t k = add(NodeType::kKeyword, c.start(), c.end());
      node(k).text = c.field(Field::kName).text();
      node(k).a = value;
      items.push_back(k);
    } else if (c.kind() == NodeKind::kDictionarySplat) {
      std::vector<syntax::Node> inner = kids(c);
      int32_t value = inner.empty() ? kNone : expression(inner[0]);
      int32_t k = add(NodeType::kKeyword, c.start(), c.end());
      node(k).a = value;
      items.push_back(k);
    } else {
      items.push_back(expression(c));
    }
  }
  int32_t a = add(NodeType::kArguments, cst.start(), cst.end());
  node(a).list = store(items);
  return a;
}

int32_t Ast::parameter(syntax::Node c) {
  int32_t p = add(NodeType::kParameter, c.start(), c.end());
  const char* t = c.type();
  if (c.kind() == NodeKind::kIdentifier) {
    node(p).text = c.text();
  } else if (c.kind() == NodeKind::kTypedParameter || c.kind() == NodeKind::kDefaultParameter ||
             is(c, "typed_default_parameter")) {
    syntax::Node name = c.field(Field::kName);
    node(p).text = name ? name.text() : std::string_view();
    if (syntax::Node ann = c.field(Field::kAnnotation)) {
      int32_t a = expression(ann);
      node(p).a = a;
    }
    if (syntax::Node v = c.field(Field::kValue)) {
      int32_t b = expression(v);
      node(p).b = b;
    }
    // A typed parameter without `name` wraps a splat pattern: `*args: int`.
    if (!name) {
      std::vector<syntax::Node> k = kids(c);
      if (!k.empty()) {
        syntax::Node inner = k[0];
        node(p).op = static_cast<uint8_t>(
            is(inner, "dictionary_splat_pattern") ? ParamKind::kDoubleStar : ParamKind::kStar);
        std::vector<syntax::Node> ik = kids(inner);
        if (!ik.empty()) node(p).text = ik[0].text();
      }
    }
  } else if (std::strcmp(t, "list_splat_pattern") == 0 ||
             std::strcmp(t, "dictionary_splat_pattern") == 0) {
    node(p).op = static_cast<uint8_t>(t[0] == 'l' ? ParamKind::kStar : ParamKind::kDoubleStar);
    std::vector<syntax::Node> k = kids(c);
    if (!k.empty()) node(p).text = k[0].text();
  } else if (std::strcmp(t, "keyword_separator") == 0) {
    node(p).op = static_cast<uint8_t>(ParamKind::kBareStar);
  } else if (std::strcmp(t, "positional_separator") == 0) {
    node(p).op = static_cast<uint8_t>(ParamKind::kSlash);
  } else {
    node(p).text = c.text();
  }
  return p;
}

int32_t Ast::parameters(syntax::Node cst, bool lambda) {
  std::vector<int32_t> ps;
  for (syntax::Node c : kids(cst)) ps.push_back(parameter(c));
  int32_t p = add(NodeType::kParameters, cst.start(), cst.end());
  node(p).list = store(ps);
  node(p).flag = lambda;
  return p;
}

int32_t Ast::expression(syntax::Node cst) {
  uint32_t start = cst.start(), end = cst.end();
  switch (cst.kind()) {
    case NodeKind::kIdentifier: {
      int32_t n = add(NodeType::kName, start, end);
      node(n).text = cst.text();
      return n;
    }
    case NodeKind::kInteger:
    case NodeKind::kFloat: {
      int32_t n = add(NodeType::kNumber, start, end);
      node(n).text = cst.text();
      return n;
    }
    case NodeKind::kTrue:
    case NodeKind::kFalse:
    case NodeKind::kNone:
    case NodeKind::kEllipsis: {
      int32_t n = add(NodeType::kConstant, start, end);
      node(n).text = cst.text();
      return n;
    }
    case NodeKind::kString:
    case NodeKind::kConcatenatedString:
      return string(cst);
    case NodeKind::kAttribute: {
      int32_t value = expression(cst.field(Field::kObject));
      int32_t n = add(NodeType::kAttribute, start, end);
      node(n).a = value;
      node(n).text = cst.field(Field::kAttribute).text();
      return n;
    }
    case NodeKind::kCall: {
      syntax::Node args = cst.field(Field::kArguments);
      if (args && is(args, "unsupported_comprehension") && source_[args.start()] == '(') {
        // `f(x for x in y)`: the generator shares the call's parentheses.
        int32_t func = expression(cst.field(Field::kFunction));
        int32_t gen = comprehension(args);
        if (node(gen).type == NodeType::kComprehension) node(gen).flag = true;
        int32_t arguments_node = add(NodeType::kArguments, args.start(), args.end());
        node(arguments_node).list = store(std::vector<int32_t>{gen});
        int32_t n = add(NodeType::kCall, start, end);
        node(n).a = func;
        node(n).b = arguments_node;
        return n;
      }
      if (!args || args.kind() != NodeKind::kArgumentList) break;
      int32_t func = expression(cst.field(Field::kFunction));
      int32_t arguments_node = arguments(args);
      int32_t n = add(NodeType::kCall, start, end);
      node(n).a = func;
      node(n).b = arguments_node;
      return n;
    }
    case NodeKind::kSubscript: {
      int32_t value = expression(cst.field(Field::kValue));
      std::vector<syntax::Node> subs = cst.fields(Field::kSubscript);
      // A trailing comma makes the subscript a tuple: `A[i,]`.
      bool trailing_comma = false;
      uint32_t last_end = subs.empty() ? start : subs.back().end();
      uint32_t tuple_end = last_end;
      for (const syntax::Node& c : cst.children()) {
        if (!c.is_named() && c.start() >= last_end && c.text() == ",") {
          trailing_comma = true;
          tuple_end = c.end();
        }
      }
      int32_t slice;
      if (subs.size() == 1 && !trailing_comma) {
        slice = expression(subs[0]);
      } else {
        std::vector<int32_t> elts;
        for (syntax::Node s : subs) elts.push_back(expression(s));
        slice = add(NodeType::kTuple, subs.empty() ? start : subs.front().start(), tuple_end);
        node(slice).list = store(elts);
        node(slice).flag = false;
      }
      int32_t n = add(NodeType::kSubscript, start, end);
      node(n).a = value;
      node(n).b = slice;
      return n;
    }
    case NodeKind::kSlice: {
      int32_t lo = kNone, hi = kNone, st = kNone;
      if (syntax::Node s = cst.field(Field::kStart)) lo = expression(s);
      if (syntax::Node s = cst.field(Field::kStop)) hi = expression(s);
      if (syntax::Node s = cst.field(Field::kStep)) st = expression(s);
      int32_t n = add(NodeType::kSlice, start, end);
      node(n).a = lo;
      node(n).b = hi;
      node(n).c = st;
      return n;
    }
    case NodeKind::kBinaryOperator: {
      int32_t l = expression(cst.field(Field::kLeft));
      int32_t r = expression(cst.field(Field::kRight));
      int32_t n = add(NodeType::kBinOp, start, end);
      node(n).a = l;
      node(n).b = r;
      node(n).op = static_cast<uint8_t>(binary_op(cst.field(Field::kOperator).text()));
      return n;
    }
    case NodeKind::kUnaryOperator:
    case NodeKind::kNotOperator: {
      int32_t operand = expression(cst.field(Field::kArgument));
      int32_t n = add(NodeType::kUnaryOp, start, end);
      node(n).a = operand;
      UnaryOp op = UnaryOp::kNot;
      if (cst.kind() == NodeKind::kUnaryOperator) {
        std::string_view s = cst.field(Field::kOperator).text();
        op = s == "-" ? UnaryOp::kMinus : s == "+" ? UnaryOp::kPlus : UnaryOp::kInvert;
      }
      node(n).op = static_cast<uint8_t>(op);
      return n;
    }
    case NodeKind::kBooleanOperator: {
      std::string_view op_text = cst.field(Field::kOperator).text();
      uint8_t op = op_text == "or" ? 1 : 0;
      std::vector<int32_t> values;
      syntax::Node left = cst.field(Field::kLeft);
      int32_t l = expression(left);
      if (left.kind() == NodeKind::kBooleanOperator && node(l).type == NodeType::kBoolOp &&
          node(l).op == op && node(l).parens == 0) {
        values.assign(node(l).list.begin(), node(l).list.end());
      } else {
        values.push_back(l);
      }
      values.push_back(expression(cst.field(Field::kRight)));
      int32_t n = add(NodeType::kBoolOp, start, end);
      node(n).list = store(values);
      node(n).op = op;
      return n;
    }
    case NodeKind::kComparisonOperator: {
      std::vector<int32_t> operands;
      std::vector<uint8_t> ops;
      std::string_view previous;  // the operator token just before, if any
      for (const syntax::Node& c : cst.children()) {
        if (c.kind() == NodeKind::kComment) continue;
        if (c.is_named()) {
          operands.push_back(expression(c));
          previous = {};
          continue;
        }
        // `is not` and `not in` may come as two tokens.
        std::string_view t = c.text();
        if (previous == "is" && t == "not") {
          ops.back() = static_cast<uint8_t>(CmpOp::kIsNot);
        } else if (previous == "not" && t == "in") {
          ops.back() = static_cast<uint8_t>(CmpOp::kNotIn);
        } else {
          ops.push_back(static_cast<uint8_t>(cmp_op(t)));
        }
        previous = t;
      }
      int32_t n = add(NodeType::kCompare, start, end);
      node(n).list = store(operands);
      node(n).ops = store(ops);
      return n;
    }
    case NodeKind::kConditionalExpression: {
      int32_t body = expression(cst.field(Field::kBody));
      int32_t test = expression(cst.field(Field::kCondition));
      int32_t orelse = expression(cst.field(Field::kAlternative));
      int32_t n = add(NodeType::kIfExp, start, end);
      node(n).a = body;
      node(n).b = test;
      node(n).c = orelse;
      return n;
    }
    case NodeKind::kLambda: {
      syntax::Node ps = cst.field(Field::kParameters);
      int32_t params = ps ? parameters(ps, true) : kNone;
      int32_t body = expression(cst.field(Field::kBody));
      int32_t n = add(NodeType::kLambda, start, end);
      node(n).a = params;
      node(n).b = body;
      return n;
    }
    case NodeKind::kParenthesizedExpression: {
      std::vector<syntax::Node> k = kids(cst);
      if (k.size() != 1) break;
      int32_t inner = expression(k[0]);
      AstNode& in = node(inner);
      if (in.parens < 255) ++in.parens;
      in.outer_start = start;
      in.outer_end = end;
      return inner;
    }
    case NodeKind::kTuple:
    case NodeKind::kExpressionList:
    case NodeKind::kPatternList:
    case NodeKind::kList:
    case NodeKind::kDictionary:
      break;
    default:
      break;
  }
  const char* t = cst.type();
  NodeKind kind = cst.kind();
  if (is(cst, "tuple_pattern")) {
    // `(x)` as a target is a parenthesized name, not a one-element tuple (that needs a comma).
    std::vector<syntax::Node> k = kids(cst);
    bool comma = false;
    for (const syntax::Node& c : cst.children()) {
      if (!c.is_named() && c.text() == ",") comma = true;
    }
    if (k.size() == 1 && !comma) {
      int32_t inner = expression(k[0]);
      AstNode& in = node(inner);
      if (in.parens < 255) ++in.parens;
      in.outer_start = start;
      in.outer_end = end;
      return inner;
    }
  }
  bool tuple = kind == NodeKind::kTuple || is(cst, "tuple_pattern");
  bool bare = kind == NodeKind::kExpressionList || kind == NodeKind::kPatternList;
  bool list = kind == NodeKind::kList || is(cst, "list_pattern");
  bool set = is(cst, "set");
  if (tuple || bare || list || set) {
    std::vector<int32_t> elts;
    for (syntax::Node c : kids(cst)) elts.push_back(expression(c));
    int32_t n = add(tuple || bare ? NodeType::kTuple
                    : list        ? NodeType::kList
                                  : NodeType::kSet,
                    start, end);
    node(n).list = store(elts);
    node(n).flag = tuple;
    return n;
  }
  if (kind == NodeKind::kDictionary) {
    std::vector<int32_t> items;
    for (syntax::Node c : kids(cst)) {
      if (c.kind() == NodeKind::kPair) {
        items.push_back(expression(c.field(Field::kKey)));
        items.push_back(expression(c.field(Field::kValue)));
      } else if (c.kind() == NodeKind::kDictionarySplat) {
        std::vector<syntax::Node> inner = kids(c);
        if (inner.size() != 1) return add(NodeType::kVerbatimExpr, start, end);
        items.push_back(kNone);
        items.push_back(expression(inner[0]));
      } else {
        return add(NodeType::kVerbatimExpr, start, end);
      }
    }
    int32_t n = add(NodeType::kDict, start, end);
    node(n).list = store(items);
    return n;
  }
  if (kind == NodeKind::kListSplat || std::strcmp(t, "list_splat_pattern") == 0 ||
      kind == NodeKind::kDictionarySplat) {
    std::vector<syntax::Node> inner = kids(cst);
    if (inner.size() == 1) {
      int32_t value = expression(inner[0]);
      int32_t n = add(NodeType::kStarred, start, end);
      node(n).a = value;
      node(n).op = kind == NodeKind::kDictionarySplat ? 2 : 1;
      return n;
    }
  }
  if (std::strcmp(t, "unsupported_comprehension") == 0) return comprehension(cst);
  if (std::strcmp(t, "unsupported_expression") == 0) {
    syntax::Node name = cst.field(Field::kName);
    syntax::Node value = cst.field(Field::kValue);
    if (name && value) {
      int32_t target = expression(name);
      int32_t v = expression(value);
      int32_t n = add(NodeType::kNamedExpr, start, end);
      node(n).a = target;
      node(n).b = v;
      return n;
    }
  }
  int32_t n = add(NodeType::kVerbatimExpr, start, end);
  node(n).text = cst.text();
  return n;
}

int32_t Ast::comprehension(syntax::Node cst) {
  uint32_t start = cst.start(), end = cst.end();
  auto verbatim = [&] {
    int32_t v = add(NodeType::kVerbatimExpr, start, end);
    node(v).text = cst.text();
    return v;
  };
  // Comments inside a comprehension keep it as written.
  std::vector<syntax::Node> stack{cst};
  while (!stack.empty()) {
    syntax::Node n = stack.back();
    stack.pop_back();
    for (const syntax::Node& c : n.children()) {
      if (c.kind() == NodeKind::kComment) return verbatim();
      if (c.child_count() > 0) stack.push_back(c);
    }
  }
  char open = source_[start];
  syntax::Node body = cst.field(Field::kBody);
  if (!body) return verbatim();
  ComprehensionKind kind = open == '['                      ? ComprehensionKind::kList
                           : open == '('                    ? ComprehensionKind::kGenerator
                           : body.kind() == NodeKind::kPair ? ComprehensionKind::kDict
                                                            : ComprehensionKind::kSet;
  int32_t elt = kNone, value = kNone;
  if (kind == ComprehensionKind::kDict) {
    elt = expression(body.field(Field::kKey));
    value = expression(body.field(Field::kValue));
  } else {
    elt = expression(body);
  }
  std::vector<int32_t> clauses;
  std::vector<std::vector<int32_t>> conditions;
  for (syntax::Node c : kids(cst)) {
    if (c == body) continue;
    if (is(c, "for_in_clause")) {
      syntax::Node left = c.field(Field::kLeft), right = c.field(Field::kRight);
      if (!left || !right) return verbatim();
      // (Python 2's `for x in a, b` is kept as written.)
      for (const syntax::Node& k : c.children()) {
        if (!k.is_named() && k.text() == ",") {
          if (k.start() > right.start()) return verbatim();
        }
      }
      int32_t target = expression(left);
      int32_t iter = expression(right);
      int32_t f = add(NodeType::kCompFor, c.start(), c.end());
      node(f).a = target;
      node(f).b = iter;
      node(f).flag = source_.substr(c.start(), 5) == "async";
      clauses.push_back(f);
      conditions.emplace_back();
    } else if (is(c, "if_clause")) {
      std::vector<syntax::Node> k = kids(c);
      if (k.size() != 1 || clauses.empty()) return verbatim();
      int32_t cond = expression(k[0]);
      conditions.back().push_back(cond);
      node(clauses.back()).end = node(clauses.back()).outer_end = c.end();
    } else {
      return verbatim();
    }
  }
  if (clauses.empty()) return verbatim();
  for (size_t i = 0; i < clauses.size(); ++i) node(clauses[i]).list = store(conditions[i]);
  int32_t n = add(NodeType::kComprehension, start, end);
  node(n).op = static_cast<uint8_t>(kind);
  node(n).a = elt;
  node(n).b = value;
  node(n).list = store(clauses);
  return n;
}

void Ast::children(int32_t i, std::vector<int32_t>& out) const {
  out.clear();
  const AstNode& n = node(i);
  auto push = [&](int32_t c) {
    if (c != kNone) out.push_back(c);
  };
  switch (n.type) {
    case NodeType::kModule:
    case NodeType::kTypeParams:
    case NodeType::kImport:
    case NodeType::kImportFrom:
    case NodeType::kParameters:
    case NodeType::kArguments:
    case NodeType::kTuple:
    case NodeType::kList:
    case NodeType::kSet:
    case NodeType::kBoolOp:
    case NodeType::kCompare:
    case NodeType::kString:
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kDict:
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kAssign:
      for (int32_t c : n.list) push(c);
      push(n.a);
      break;
    case NodeType::kIf:
      push(n.a);
      for (int32_t c : n.list) push(c);
      for (int32_t c : n.list2) push(c);
      break;
    case NodeType::kElifElse:
      push(n.a);
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kFor:
    case NodeType::kWhile:
      push(n.a);
      push(n.b);
      for (int32_t c : n.list) push(c);
      for (int32_t c : n.list2) push(c);
      break;
    case NodeType::kWith:
      for (int32_t c : n.list2) push(c);
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kFunctionDef:
      for (int32_t c : n.list2) push(c);
      push(n.c);
      push(n.a);
      push(n.b);
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kClassDef:
      for (int32_t c : n.list2) push(c);
      push(n.c);
      push(n.a);
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kIfExp:
      push(n.a);
      push(n.b);
      push(n.c);
      break;
    case NodeType::kComprehension:
      push(n.a);
      push(n.b);
      for (int32_t c : n.list) push(c);
      break;
    case NodeType::kCompFor:
      push(n.a);
      push(n.b);
      for (int32_t c : n.list) push(c);
      break;
    default:
      push(n.a);
      push(n.b);
      push(n.c);
      break;
  }
}

int32_t Ast::last_child_in_body(int32_t i) const {
  const AstNode& n = node(i);
  switch (n.type) {
    case NodeType::kIf:
      if (!n.list2.empty()) return last_child_in_body(n.list2.back());
      return n.list.empty() ? kNone : n.list.back();
    case NodeType::kFor:
    case NodeType::kWhile:
      if (!n.list2.empty()) return n.list2.back();
      return n.list.empty() ? kNone : n.list.back();
    case NodeType::kElifElse:
    case NodeType::kWith:
    case NodeType::kFunctionDef:
    case NodeType::kClassDef:
      return n.list.empty() ? kNone : n.list.back();
    default:
      return kNone;
  }
}

void Ast::set_parents(int32_t root) {
  std::vector<std::pair<int32_t, uint32_t>> stack{{root, 0}};
  std::vector<int32_t> kids_buf;
  while (!stack.empty()) {
    auto [i, depth] = stack.back();
    stack.pop_back();
    if (depth > max_depth_) max_depth_ = depth;
    children(i, kids_buf);
    for (int32_t c : kids_buf) {
      node(c).parent = i;
      stack.push_back({c, depth + 1});
    }
  }
}

void Ast::collect_comments(syntax::Node root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root.raw());
  bool more = true;
  while (more) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    syntax::Node node_view(n, tree_);
    if (node_view.kind() == NodeKind::kComment) {
      SourceComment c;
      c.start = node_view.start();
      c.end = node_view.end();
      // Trailing whitespace is not part of the comment token, but make sure of it.
      while (c.end > c.start && (source_[c.end - 1] == ' ' || source_[c.end - 1] == '\t' ||
                                 source_[c.end - 1] == '\r')) {
        --c.end;
      }
      uint32_t p = c.start;
      bool own = true;
      while (p > 0) {
        char ch = source_[p - 1];
        if (ch == '\n') break;
        if (ch != ' ' && ch != '\t' && ch != '\f' && ch != '\r') {
          own = false;
          break;
        }
        --p;
      }
      c.own_line = own;
      comments_.push_back(c);
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (true) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace relax::syntax::format
