// The concrete syntax tree: tree-sitter's tree for a .relax text, wrapped in typed views.
// NodeKind and Field name the grammar's node types and fields (syntax/grammar.js) so C++ code
// switches on enums instead of comparing strings.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "ir/span.h"

extern "C" const TSLanguage* tree_sitter_relax(void);

namespace relax::syntax {

// The named node types of the grammar that C++ code looks at. kOther covers the rest.
enum class NodeKind : uint16_t {
  kOther,
  kError,
  kModule,
  kComment,
  kDecoratedDefinition,
  kDecorator,
  kFunctionDefinition,
  kClassDefinition,
  kTypeParameterList,
  kTypeParameter,
  kParameters,
  kTypedParameter,
  kDefaultParameter,
  kBlock,
  kExpressionStatement,
  kAssignment,
  kAugmentedAssignment,
  kReturnStatement,
  kPassStatement,
  kBreakStatement,
  kContinueStatement,
  kAssertStatement,
  kIfStatement,
  kElifClause,
  kElseClause,
  kForStatement,
  kWhileStatement,
  kWithStatement,
  kWithClause,
  kWithItem,
  kImportStatement,
  kImportFromStatement,
  kFutureImportStatement,
  kDottedName,
  kAliasedImport,
  kExpressionList,
  kPatternList,
  kCall,
  kArgumentList,
  kKeywordArgument,
  kListSplat,
  kDictionarySplat,
  kAttribute,
  kSubscript,
  kSlice,
  kBinaryOperator,
  kUnaryOperator,
  kNotOperator,
  kBooleanOperator,
  kComparisonOperator,
  kConditionalExpression,
  kLambda,
  kLambdaParameters,
  kParenthesizedExpression,
  kTuple,
  kList,
  kDictionary,
  kPair,
  kString,
  kConcatenatedString,
  kInteger,
  kFloat,
  kTrue,
  kFalse,
  kNone,
  kEllipsis,
  kIdentifier,
  kCount,
};

const char* node_kind_name(NodeKind kind);

enum class Field : uint8_t {
  kName,
  kTypeParameters,
  kParameters,
  kReturnType,
  kBody,
  kSuperclasses,
  kBound,
  kAnnotation,
  kLeft,
  kRight,
  kValue,
  kOperator,
  kCondition,
  kConsequence,
  kAlternative,
  kMessage,
  kAlias,
  kModuleName,
  kFunction,
  kArguments,
  kObject,
  kAttribute,
  kSubscript,
  kStart,
  kStop,
  kStep,
  kArgument,
  kOperators,
  kKey,
  kDefinition,
  kCount,
};

class SyntaxTree;

// A node of a SyntaxTree. Cheap to copy; valid while its tree lives.
class Node {
 public:
  Node() = default;
  Node(TSNode raw, const SyntaxTree* tree) : raw_(raw), tree_(tree) {}

  bool is_null() const { return tree_ == nullptr || ts_node_is_null(raw_); }
  explicit operator bool() const { return !is_null(); }
  NodeKind kind() const;
  const char* type() const { return ts_node_type(raw_); }
  bool is_named() const { return ts_node_is_named(raw_); }
  bool is_error() const { return kind() == NodeKind::kError; }
  bool is_missing() const { return ts_node_is_missing(raw_); }
  bool has_error() const { return ts_node_has_error(raw_); }
  bool is_extra() const { return ts_node_is_extra(raw_); }

  uint32_t start() const { return ts_node_start_byte(raw_); }
  uint32_t end() const { return ts_node_end_byte(raw_); }
  TSPoint start_point() const { return ts_node_start_point(raw_); }
  TSPoint end_point() const { return ts_node_end_point(raw_); }
  ir::Span span() const;
  std::string_view text() const;

  // The first child under `field`, or a null node.
  Node field(Field f) const;
  // Every child under `field`, in order.
  std::vector<Node> fields(Field f) const;
  // Named children (comments included), in order.
  std::vector<Node> named_children() const;
  // All children (anonymous tokens included), in order.
  std::vector<Node> children() const;
  uint32_t named_child_count() const { return ts_node_named_child_count(raw_); }
  uint32_t child_count() const { return ts_node_child_count(raw_); }
  // O(i): prefer children()/named_children() to iterate.
  Node named_child(uint32_t i) const { return Node(ts_node_named_child(raw_, i), tree_); }
  Node child(uint32_t i) const { return Node(ts_node_child(raw_, i), tree_); }
  Node parent() const { return Node(ts_node_parent(raw_), tree_); }
  Node next_sibling() const { return Node(ts_node_next_sibling(raw_), tree_); }
  Node prev_sibling() const { return Node(ts_node_prev_sibling(raw_), tree_); }
  Node next_named_sibling() const { return Node(ts_node_next_named_sibling(raw_), tree_); }
  Node prev_named_sibling() const { return Node(ts_node_prev_named_sibling(raw_), tree_); }
  // The smallest named descendant covering the byte range.
  Node descendant_for_range(uint32_t begin, uint32_t end) const;

  // The S-expression tree-sitter prints (for `relax parse --tree` and corpus tests).
  std::string sexp() const;

  TSNode raw() const { return raw_; }
  const SyntaxTree* tree() const { return tree_; }
  bool operator==(const Node& other) const { return ts_node_eq(raw_, other.raw_); }

 private:
  TSNode raw_{};
  const SyntaxTree* tree_ = nullptr;
};

// A parsed text. Owns the tree-sitter tree and a copy of the text.
class SyntaxTree {
 public:
  // Parses `text`; `file` is the SourceManager id spans will refer to (0 if none). `base` is
  // added to every span: a text embedded at that offset of the file (a string's content).
  static std::unique_ptr<SyntaxTree> parse(std::string text, uint32_t file = 0, uint32_t base = 0);
  // Re-parses after an edit, reusing the unchanged parts of `old` (for the language server):
  // `text` is the whole new text and `edit` says which bytes of the old one it replaced. The
  // file and base of `old` carry over. The result equals parse(text) when that has no syntax
  // errors (tests/syntax/reparse_test); with errors the recovery may differ: use edit().
  static std::unique_ptr<SyntaxTree> reparse(const SyntaxTree& old, std::string text,
                                             const TSInputEdit& edit);
  // The edit that replaces bytes [begin, end) of `old_text` with `replacement`, with the row and
  // column points tree-sitter wants (columns in bytes). `begin <= end <= old_text.size()`.
  static TSInputEdit input_edit(std::string_view old_text, uint32_t begin, uint32_t end,
                                std::string_view replacement);
  // Replaces bytes [begin, end) of this tree's text with `replacement` and re-parses
  // incrementally (from scratch when the result has syntax errors, whose recovery would depend
  // on the old tree); null when the range is not inside the text or the new text would not
  // fit tree-sitter's 32-bit offsets.
  std::unique_ptr<SyntaxTree> edit(uint32_t begin, uint32_t end,
                                   std::string_view replacement) const;
  ~SyntaxTree();
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;

  Node root() const { return Node(ts_tree_root_node(tree_), this); }
  const std::string& text() const { return text_; }
  uint32_t file() const { return file_; }
  uint32_t base() const { return base_; }
  TSTree* raw() const { return tree_; }

  NodeKind kind_of(TSSymbol symbol) const;
  TSFieldId field_id(Field f) const;

 private:
  SyntaxTree(TSTree* tree, std::string text, uint32_t file, uint32_t base = 0);
  TSTree* tree_;
  std::string text_;
  uint32_t file_;
  uint32_t base_;
};

// The grammar's language object; aborts if the runtime cannot load its ABI version.
const TSLanguage* relax_language();

}  // namespace relax::syntax
