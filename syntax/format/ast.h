// The formatter's view of a parsed file: a compact Python-shaped syntax tree built from the CST,
// with the facts layout decisions need (how many parentheses wrap an expression, whether a tuple
// has its own, exact token ranges without trivia) and the comments of the file. Nodes refer to
// source byte offsets; text comes from the source, never from the IR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "syntax/cst.h"

namespace relax::syntax::format {

enum class NodeType : uint8_t {
  // Statements and statement parts.
  kModule,
  kExprStmt,   // a = value
  kAssign,     // list = targets..., a = value
  kAnnAssign,  // a = target, b = annotation, c = value (optional)
  kAugAssign,  // a = target, b = value, text = operator
  kReturn,     // a = value (optional)
  kPass,
  kBreak,
  kContinue,
  kAssert,       // a = test, b = message (optional)
  kIf,           // a = test, list = body, list2 = elif/else clauses
  kElifElse,     // a = test (optional, else when absent), list = body
  kFor,          // a = target, b = iter, list = body, list2 = else body
  kWhile,        // a = test, list = body, list2 = else body
  kWith,         // list2 = items, list = body
  kWithItem,     // a = context expression, b = alias (optional)
  kFunctionDef,  // list2 = decorators, a = parameters, b = return annotation, c = type params, list
                 // = body
  kClassDef,     // list2 = decorators, a = arguments (optional), c = type params, list = body
  kDecorator,    // a = expression
  kParameters,   // list = parameters (including `*` and `/` markers)
  kParameter,    // op = ParamKind, text = name, a = annotation, b = default
  kTypeParams,   // list = type parameters
  kTypeParam,    // text = name, a = bound
  kImport,       // list = aliases
  kImportFrom,   // text = module, list = aliases (empty: wildcard, flag)
  kAlias,        // text = name, text2 = alias
  kVerbatimStmt,  // kept as written (unsupported or suppressed statements)
  // Expressions.
  kName,
  kNumber,
  kString,  // list = parts (kStringPart); one part unless implicitly concatenated
  kStringPart,
  kConstant,       // True, False, None, ...
  kAttribute,      // a = value, text = attribute name
  kCall,           // a = function, b = arguments
  kArguments,      // list = arguments and keywords in source order
  kKeyword,        // text = name (empty for **value), a = value
  kSubscript,      // a = value, b = slice
  kSlice,          // a = lower, b = upper, c = step (each optional)
  kBinOp,          // a = left, b = right, op = BinaryOp
  kUnaryOp,        // a = operand, op = UnaryOp
  kBoolOp,         // list = values, op = 0 and / 1 or
  kCompare,        // list = operands (left first), ops = comparison operators
  kIfExp,          // a = body, b = test, c = orelse
  kLambda,         // a = parameters (optional), b = body
  kTuple,          // list = elements, flag = has its own parentheses
  kList,           // list = elements
  kSet,            // list = elements
  kDict,           // list = key/value pairs as consecutive entries (key -1 for **value)
  kStarred,        // a = value, op = 1 for `*`, 2 for `**`
  kNamedExpr,      // a = target, b = value
  kComprehension,  // op = ComprehensionKind, a = element (key), b = value (dict), list = kCompFor;
                   // flag = a generator that shares the parentheses of a call: `f(x for x in y)`
  kCompFor,        // a = target, b = iterable, list = `if` conditions, flag = async
  kVerbatimExpr,   // kept as written (await, yield, comprehensions with comments)
};

enum class BinaryOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kMatMul,
  kDiv,
  kFloorDiv,
  kMod,
  kPow,
  kLShift,
  kRShift,
  kBitOr,
  kBitXor,
  kBitAnd
};
enum class UnaryOp : uint8_t { kInvert, kNot, kPlus, kMinus };
enum class ComprehensionKind : uint8_t { kList, kSet, kDict, kGenerator };
enum class ParamKind : uint8_t { kPlain, kStar, kDoubleStar, kBareStar, kSlash };

constexpr int32_t kNone = -1;

// A list of node ids in the tree's arena (see Ast::store). It never owns its ids: building one
// from a temporary vector does not compile.
class IdList {
 public:
  IdList() = default;
  IdList(const int32_t* data, size_t size) : data_(data), size_(static_cast<uint32_t>(size)) {}
  IdList(const std::vector<int32_t>& v) : data_(v.data()), size_(static_cast<uint32_t>(v.size())) {}
  IdList(std::vector<int32_t>&&) = delete;
  const int32_t* begin() const { return data_; }
  const int32_t* end() const { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int32_t front() const { return data_[0]; }
  int32_t back() const { return data_[size_ - 1]; }
  int32_t operator[](size_t i) const { return data_[i]; }

 private:
  const int32_t* data_ = nullptr;
  uint32_t size_ = 0;
};

struct AstNode {
  NodeType type;
  uint8_t op = 0;
  uint8_t parens = 0;  // parentheses around an expression in the source
  bool flag = false;
  uint32_t start = 0, end = 0;  // the node itself (a parenthesized tuple includes its own)
  uint32_t outer_start = 0, outer_end = 0;  // including the outermost surrounding parentheses
  int32_t parent = kNone;
  int32_t a = kNone, b = kNone, c = kNone;
  IdList list;
  IdList list2;
  std::span<const uint8_t> ops;  // comparison operators (CmpOp)
  std::string_view text;         // names, operators, literal text
  std::string_view text2;
};

enum class CmpOp : uint8_t { kEq, kNotEq, kLt, kLtE, kGt, kGtE, kIs, kIsNot, kIn, kNotIn };

struct SourceComment {
  uint32_t start = 0, end = 0;  // `#` to the end of the line (no newline)
  bool own_line = false;        // only whitespace before it on its line
};

class Ast {
 public:
  // Builds the tree. The tree must be free of syntax errors.
  explicit Ast(const SyntaxTree& tree);
  // Builds the tree with the formatter's own parser (syntax/format/parser.h), without
  // tree-sitter; nullptr when the text uses something that parser leaves to tree-sitter (or is
  // not valid), or nests deeper than ir::kFormatNesting (then `*too_deep` is set: the parser
  // stops before it recurses further, and tree-sitter's CST is as deep).
  static std::unique_ptr<Ast> parse(std::string_view source, bool* too_deep = nullptr);

  std::string_view source() const { return source_; }
  const AstNode& node(int32_t i) const { return nodes_[static_cast<size_t>(i)]; }
  AstNode& node(int32_t i) { return nodes_[static_cast<size_t>(i)]; }
  int32_t root() const { return 0; }
  size_t size() const { return nodes_.size(); }
  const std::vector<SourceComment>& comments() const { return comments_; }

  bool is_statement(int32_t i) const {
    return node(i).type <= NodeType::kVerbatimStmt && node(i).type != NodeType::kModule &&
           !is_statement_part(i);
  }
  bool is_statement_part(int32_t i) const;
  bool is_expression(int32_t i) const { return node(i).type >= NodeType::kName; }
  // The children in source order (what comment placement walks).
  void children(int32_t i, std::vector<int32_t>& out) const;

  // The statements of a body-like node (module, def, class, if, elif/else, for, while, with).
  IdList body(int32_t i) const { return node(i).list; }
  // The last statement of the last body of a compound statement, or kNone.
  int32_t last_child_in_body(int32_t i) const;
  // The depth of the deepest node (the module is at depth 0).
  size_t max_depth() const { return max_depth_; }

 private:
  int32_t add(NodeType type, uint32_t start, uint32_t end);
  // Copies a list into the arena; the span stays valid for the tree's lifetime.
  IdList store(const std::vector<int32_t>& ids);
  std::span<const uint8_t> store(const std::vector<uint8_t>& bytes);
  template <typename T>
  T* allocate(size_t count);
  int32_t statement(syntax::Node cst);
  void block_into(syntax::Node block, std::vector<int32_t>& out);
  int32_t expression(syntax::Node cst);
  int32_t expression_or_list(syntax::Node cst);
  int32_t parameters(syntax::Node cst, bool lambda);
  int32_t parameter(syntax::Node cst);
  int32_t arguments(syntax::Node cst);
  int32_t comprehension(syntax::Node cst);
  int32_t string(syntax::Node cst);
  int32_t compound_body_end(int32_t stmt);
  void set_parents(int32_t i);
  void collect_comments(syntax::Node n);

  friend class Parser;
  explicit Ast(std::string_view source) : tree_(nullptr), source_(source) {}

  const SyntaxTree* tree_;
  std::string_view source_;
  std::vector<AstNode> nodes_;
  std::vector<SourceComment> comments_;
  uint32_t max_depth_ = 0;
  // The arena: chunks of 64 KiB (bigger lists get their own chunk).
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  size_t chunk_used_ = 0, chunk_size_ = 0;
};

}  // namespace relax::syntax::format
