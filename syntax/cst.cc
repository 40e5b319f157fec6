// Tree-sitter wrappers: symbol and field tables resolved once, parsing, node helpers.
#include "syntax/cst.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace relax::syntax {

namespace {

struct KindName {
  NodeKind kind;
  const char* name;
};

constexpr KindName kKindNames[] = {
    {NodeKind::kError, "ERROR"},
    {NodeKind::kModule, "module"},
    {NodeKind::kComment, "comment"},
    {NodeKind::kDecoratedDefinition, "decorated_definition"},
    {NodeKind::kDecorator, "decorator"},
    {NodeKind::kFunctionDefinition, "function_definition"},
    {NodeKind::kClassDefinition, "class_definition"},
    {NodeKind::kTypeParameterList, "type_parameter_list"},
    {NodeKind::kTypeParameter, "type_parameter"},
    {NodeKind::kParameters, "parameters"},
    {NodeKind::kTypedParameter, "typed_parameter"},
    {NodeKind::kDefaultParameter, "default_parameter"},
    {NodeKind::kBlock, "block"},
    {NodeKind::kExpressionStatement, "expression_statement"},
    {NodeKind::kAssignment, "assignment"},
    {NodeKind::kAugmentedAssignment, "augmented_assignment"},
    {NodeKind::kReturnStatement, "return_statement"},
    {NodeKind::kPassStatement, "pass_statement"},
    {NodeKind::kBreakStatement, "break_statement"},
    {NodeKind::kContinueStatement, "continue_statement"},
    {NodeKind::kAssertStatement, "assert_statement"},
    {NodeKind::kIfStatement, "if_statement"},
    {NodeKind::kElifClause, "elif_clause"},
    {NodeKind::kElseClause, "else_clause"},
    {NodeKind::kForStatement, "for_statement"},
    {NodeKind::kWhileStatement, "while_statement"},
    {NodeKind::kWithStatement, "with_statement"},
    {NodeKind::kWithClause, "with_clause"},
    {NodeKind::kWithItem, "with_item"},
    {NodeKind::kImportStatement, "import_statement"},
    {NodeKind::kImportFromStatement, "import_from_statement"},
    {NodeKind::kFutureImportStatement, "future_import_statement"},
    {NodeKind::kDottedName, "dotted_name"},
    {NodeKind::kAliasedImport, "aliased_import"},
    {NodeKind::kExpressionList, "expression_list"},
    {NodeKind::kPatternList, "pattern_list"},
    {NodeKind::kCall, "call"},
    {NodeKind::kArgumentList, "argument_list"},
    {NodeKind::kKeywordArgument, "keyword_argument"},
    {NodeKind::kListSplat, "list_splat"},
    {NodeKind::kDictionarySplat, "dictionary_splat"},
    {NodeKind::kAttribute, "attribute"},
    {NodeKind::kSubscript, "subscript"},
    {NodeKind::kSlice, "slice"},
    {NodeKind::kBinaryOperator, "binary_operator"},
    {NodeKind::kUnaryOperator, "unary_operator"},
    {NodeKind::kNotOperator, "not_operator"},
    {NodeKind::kBooleanOperator, "boolean_operator"},
    {NodeKind::kComparisonOperator, "comparison_operator"},
    {NodeKind::kConditionalExpression, "conditional_expression"},
    {NodeKind::kLambda, "lambda"},
    {NodeKind::kLambdaParameters, "lambda_parameters"},
    {NodeKind::kParenthesizedExpression, "parenthesized_expression"},
    {NodeKind::kTuple, "tuple"},
    {NodeKind::kList, "list"},
    {NodeKind::kDictionary, "dictionary"},
    {NodeKind::kPair, "pair"},
    {NodeKind::kString, "string"},
    {NodeKind::kConcatenatedString, "concatenated_string"},
    {NodeKind::kInteger, "integer"},
    {NodeKind::kFloat, "float"},
    {NodeKind::kTrue, "true"},
    {NodeKind::kFalse, "false"},
    {NodeKind::kNone, "none"},
    {NodeKind::kEllipsis, "ellipsis"},
    {NodeKind::kIdentifier, "identifier"},
};

constexpr const char* kFieldNames[] = {
    "name",         "type_parameters", "parameters",  "return_type", "body",
    "superclasses", "bound",           "annotation",  "left",        "right",
    "value",        "operator",        "condition",   "consequence", "alternative",
    "message",      "alias",           "module_name", "function",    "arguments",
    "object",       "attribute",       "subscript",   "start",       "stop",
    "step",         "argument",        "operators",   "key",         "definition",
};
static_assert(sizeof(kFieldNames) / sizeof(kFieldNames[0]) == static_cast<size_t>(Field::kCount));

// Symbol -> NodeKind and Field -> field id tables for the relax grammar, built once.
struct LanguageTables {
  std::vector<NodeKind> kinds;
  std::array<TSFieldId, static_cast<size_t>(Field::kCount)> fields{};

  LanguageTables() {
    const TSLanguage* lang = relax_language();
    uint32_t count = ts_language_symbol_count(lang);
    kinds.assign(count + 1, NodeKind::kOther);
    for (uint32_t sym = 0; sym < count; ++sym) {
      if (ts_language_symbol_type(lang, static_cast<TSSymbol>(sym)) != TSSymbolTypeRegular)
        continue;
      const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(sym));
      for (const KindName& kn : kKindNames) {
        if (std::strcmp(kn.name, name) == 0) kinds[sym] = kn.kind;
      }
    }
    for (size_t f = 0; f < fields.size(); ++f) {
      fields[f] = ts_language_field_id_for_name(lang, kFieldNames[f],
                                                static_cast<uint32_t>(std::strlen(kFieldNames[f])));
    }
  }
};

const LanguageTables& tables() {
  static const LanguageTables* t = new LanguageTables();
  return *t;
}

}  // namespace

const TSLanguage* relax_language() {
  static const TSLanguage* lang = [] {
    const TSLanguage* l = tree_sitter_relax();
    uint32_t version = ts_language_version(l);
    if (version < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION ||
        version > TREE_SITTER_LANGUAGE_VERSION) {
      std::fprintf(stderr,
                   "relax: the grammar's ABI %u is not supported by this tree-sitter runtime\n",
                   version);
      std::abort();
    }
    return l;
  }();
  return lang;
}

const char* node_kind_name(NodeKind kind) {
  for (const KindName& kn : kKindNames) {
    if (kn.kind == kind) return kn.name;
  }
  return "other";
}

NodeKind SyntaxTree::kind_of(TSSymbol symbol) const {
  const auto& kinds = tables().kinds;
  // ERROR nodes carry the builtin error symbol (65535).
  if (symbol == static_cast<TSSymbol>(-1)) return NodeKind::kError;
  return symbol < kinds.size() ? kinds[symbol] : NodeKind::kOther;
}

TSFieldId SyntaxTree::field_id(Field f) const {
  return tables().fields[static_cast<size_t>(f)];
}

NodeKind Node::kind() const {
  if (is_null()) return NodeKind::kOther;
  if (ts_node_symbol(raw_) == static_cast<TSSymbol>(-1)) return NodeKind::kError;
  return tree_->kind_of(ts_node_symbol(raw_));
}

ir::Span Node::span() const {
  if (is_null()) return ir::Span::unknown();
  return ir::Span{tree_->file(), tree_->base() + start(), tree_->base() + end()};
}

std::string_view Node::text() const {
  if (is_null()) return {};
  const std::string& t = tree_->text();
  uint32_t b = std::min<uint32_t>(start(), t.size());
  uint32_t e = std::min<uint32_t>(std::max(end(), b), t.size());
  return std::string_view(t).substr(b, e - b);
}

Node Node::field(Field f) const {
  if (is_null()) return Node();
  TSFieldId id = tree_->field_id(f);
  if (id == 0) return Node();
  TSNode child = ts_node_child_by_field_id(raw_, id);
  if (ts_node_is_null(child)) return Node();
  return Node(child, tree_);
}

std::vector<Node> Node::fields(Field f) const {
  std::vector<Node> out;
  if (is_null()) return out;
  TSFieldId id = tree_->field_id(f);
  if (id == 0) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(raw_);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      if (ts_tree_cursor_current_field_id(&cursor) == id) {
        out.emplace_back(ts_tree_cursor_current_node(&cursor), tree_);
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

std::vector<Node> Node::named_children() const {
  std::vector<Node> out;
  if (is_null()) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(raw_);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(n)) out.emplace_back(n, tree_);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

std::vector<Node> Node::children() const {
  std::vector<Node> out;
  if (is_null()) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(raw_);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      out.emplace_back(ts_tree_cursor_current_node(&cursor), tree_);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

Node Node::descendant_for_range(uint32_t begin, uint32_t end) const {
  if (is_null()) return Node();
  return Node(ts_node_named_descendant_for_byte_range(raw_, begin, end), tree_);
}

std::string Node::sexp() const {
  if (is_null()) return "";
  char* s = ts_node_string(raw_);
  std::string out(s);
  std::free(s);
  return out;
}

SyntaxTree::SyntaxTree(TSTree* tree, std::string text, uint32_t file, uint32_t base)
    : tree_(tree), text_(std::move(text)), file_(file), base_(base) {}

SyntaxTree::~SyntaxTree() {
  ts_tree_delete(tree_);
}

std::unique_ptr<SyntaxTree> SyntaxTree::parse(std::string text, uint32_t file, uint32_t base) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, relax_language());
  TSTree* tree =
      ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(parser);
  return std::unique_ptr<SyntaxTree>(new SyntaxTree(tree, std::move(text), file, base));
}

std::unique_ptr<SyntaxTree> SyntaxTree::reparse(const SyntaxTree& old, std::string text,
                                                const TSInputEdit& edit) {
  TSTree* edited = ts_tree_copy(old.tree_);
  ts_tree_edit(edited, &edit);
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, relax_language());
  TSTree* tree =
      ts_parser_parse_string(parser, edited, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(parser);
  ts_tree_delete(edited);
  return std::unique_ptr<SyntaxTree>(new SyntaxTree(tree, std::move(text), old.file_, old.base_));
}

namespace {

// The row and byte column of `offset` in `text`, counting on from `from` at `offset_from`.
TSPoint point_at(std::string_view text, uint32_t offset, TSPoint from = {0, 0},
                 uint32_t offset_from = 0) {
  TSPoint p = from;
  for (uint32_t i = offset_from; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace

TSInputEdit SyntaxTree::input_edit(std::string_view old_text, uint32_t begin, uint32_t end,
                                   std::string_view replacement) {
  TSInputEdit e{};
  e.start_byte = begin;
  e.old_end_byte = end;
  e.new_end_byte = begin + static_cast<uint32_t>(replacement.size());
  e.start_point = point_at(old_text, begin);
  e.old_end_point = point_at(old_text, end, e.start_point, begin);
  e.new_end_point =
      point_at(replacement, static_cast<uint32_t>(replacement.size()), e.start_point, 0);
  return e;
}

std::unique_ptr<SyntaxTree> SyntaxTree::edit(uint32_t begin, uint32_t end,
                                             std::string_view replacement) const {
  if (begin > end || end > text_.size()) return nullptr;
  // Tree-sitter addresses bytes with 32 bits.
  if (text_.size() - (end - begin) + replacement.size() > UINT32_MAX) return nullptr;
  TSInputEdit e = input_edit(text_, begin, end, replacement);
  std::string text;
  text.reserve(text_.size() - (end - begin) + replacement.size());
  text.append(text_, 0, begin).append(replacement).append(text_, end, std::string::npos);
  auto tree = reparse(*this, text, e);
  // Tree-sitter's error recovery depends on the old tree it reuses: on a text with syntax errors
  // an incremental parse may recover differently from a fresh one (tests/syntax/reparse_test
  // found such cases). Which errors a user sees must not depend on how they typed, so a
  // result with errors is parsed again from scratch.
  if (tree->root().has_error()) return parse(std::move(text), file_, base_);
  return tree;
}

}  // namespace relax::syntax
