// Frontend state: diagnostics, scopes, builtin table, argument binding.
#include "syntax/frontend/context.h"

#include <algorithm>

namespace relax::syntax {

std::string_view canonical_namespace(std::string_view root) {
  if (root == "R" || root == "relax") return "R";
  if (root == "T" || root == "tir" || root == "tirx" || root == "Tx") return "T";
  if (root == "I" || root == "ir") return "I";
  return "";
}

std::string canonical_path(const std::string& path) {
  static const std::pair<const char*, const char*> kPrefixes[] = {
      {"tvm.script.parser.tir.", "T."},
      {"tvm.script.parser.relax.", "R."},
      {"tvm.script.parser.ir.", "I."},
      {"tvm.script.tir.", "T."},
      {"tvm.script.tirx.", "T."},
      {"tvm.script.relax.", "R."},
      {"tvm.script.ir.", "I."},
      {"tvm.tir.", "T."},
      {"tvm.relax.", "R."},
      {"tvm.ir.", "I."},
  };
  for (const auto& [from, to] : kPrefixes) {
    if (path.starts_with(from)) return to + path.substr(std::string_view(from).size());
  }
  if (path == "tvm.script.ir_module" || path == "ir_module") return "I.ir_module";
  return path;
}

const Value* CallArgs::kwarg(std::string_view key) const {
  for (const auto& [k, v] : kwargs) {
    if (k == key) return &v;
  }
  return nullptr;
}

Frontend::Frontend(const SyntaxTree& tree, ir::DiagnosticBag& diags) : tree_(tree), diags_(diags) {
  module = ir::make<ir::IRModule>();
  scopes_.emplace_back();
  // TVM's default globals: the dialect namespaces are usable without imports.
  for (const char* name : {"R", "relax"}) define_global(name, Value::ns("R"));
  for (const char* name : {"T", "tir", "tirx", "Tx"}) define_global(name, Value::ns("T"));
  for (const char* name : {"I", "ir"}) define_global(name, Value::ns("I"));
  define_global("tvm", Value::ns("tvm"));
  define_global("range", Value::ns("range"));
  define_global("TypeVar", Value::ns("TypeVar"));
  define_global("Axis", Value::ns("Axis"));
  define_global("float", Value::ns("py.float"));
  define_global("int", Value::ns("py.int"));
  define_global("len", Value::ns("py.len"));
  // metadata["relax.expr.Constant"][i] (the builtin `metadata` picks the kind).
  define_global("metadata", Value::ns("metadata"));
}

ir::Diagnostic& Frontend::error(std::string code, ir::Span span, std::string message) {
  return diags_.error(std::move(code), span, std::move(message));
}

ir::Diagnostic& Frontend::warning(std::string code, ir::Span span, std::string message) {
  return diags_.warning(std::move(code), span, std::move(message));
}

void Frontend::push_scope() {
  scopes_.emplace_back();
}

void Frontend::pop_scope() {
  if (scopes_.size() > 1) scopes_.pop_back();
}

namespace {

// The index's kind for an object a name is bound to, or nullopt for values that are not
// symbols (aliases of expressions, struct info kept in a name, namespaces).
std::optional<SymbolKind> symbol_kind_of(const Value& value, Dialect dialect) {
  if (!value.is_object()) return std::nullopt;
  switch (value.object()->kind()) {
    case ir::ObjectKind::kVar:
      return SymbolKind::kVariable;
    case ir::ObjectKind::kDataflowVar:
      return SymbolKind::kDataflowVariable;
    case ir::ObjectKind::kGlobalVar:
      return SymbolKind::kFunction;
    case ir::ObjectKind::kTirVar:
      return dialect == Dialect::kTir ? SymbolKind::kTirVar : SymbolKind::kSymbolicVar;
    case ir::ObjectKind::kBuffer:
      return SymbolKind::kBuffer;
    default:
      return std::nullopt;
  }
}

}  // namespace

void Frontend::define(const std::string& name, Value value) {
  if (auto kind = symbol_kind_of(value, dialect)) {
    ir::Span at = value.span();
    if (!at.is_known() || at.file != file() || at.end > tree_.text().size() ||
        std::string_view(tree_.text()).substr(at.begin, at.size()) != name)
      at = ir::Span::unknown();
    if (!symbols.contains(value.object().get())) {
      const Value* previous = lookup(name);
      uint32_t id = symbols.define(*kind, name, at, value.object());
      if (previous && previous->is_object()) symbols.set_shadows(id, previous->object().get());
    }
  }
  scopes_.back().names[name] = std::move(value);
}

void Frontend::note_use(const Value& value, ir::Span at) {
  if (value.is_object()) symbols.use(value.object().get(), at);
}

void Frontend::define_global(const std::string& name, Value value) {
  scopes_.front().names[name] = std::move(value);
}

const Value* Frontend::lookup(std::string_view name) const {
  std::string key(name);
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->names.find(key);
    if (found != it->names.end()) return &found->second;
  }
  return nullptr;
}

void Frontend::register_builtin(std::string name, Builtin fn) {
  own_builtins_[std::move(name)] = std::move(fn);
}

std::vector<std::string> Frontend::builtin_names() const {
  std::vector<std::string> out;
  for (const BuiltinTable* table : {&own_builtins_, shared_builtins_})
    if (table)
      for (const auto& [name, _] : *table) out.push_back(name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const Builtin* Frontend::find_builtin(std::string_view name) const {
  std::string key(name);
  if (auto it = own_builtins_.find(key); it != own_builtins_.end()) return &it->second;
  if (!shared_builtins_) return nullptr;
  auto it = shared_builtins_->find(key);
  return it == shared_builtins_->end() ? nullptr : &it->second;
}

// --- ArgBinder -------------------------------------------------------------------------------

ArgBinder::ArgBinder(Frontend& fe, const CallArgs& call,
                     std::initializer_list<std::string_view> params)
    : call_(call) {
  bool keyword_only = false;
  bool accepts_any_keyword = false;
  std::vector<bool> required;
  std::vector<bool> positional;
  for (std::string_view p : params) {
    if (p == "*") {
      keyword_only = true;
      continue;
    }
    if (p == "**") {
      accepts_any_keyword = true;
      continue;
    }
    bool optional = p.ends_with("=");
    names_.push_back(optional ? p.substr(0, p.size() - 1) : p);
    required.push_back(!optional);
    positional.push_back(!keyword_only);
  }
  bound_.assign(names_.size(), nullptr);
  nodes_.assign(names_.size(), call.node);
  size_t next = 0;
  for (size_t i = 0; i < call.args.size(); ++i) {
    while (next < names_.size() && !positional[next]) ++next;
    if (next >= names_.size()) {
      Node at = i < call.arg_nodes.size() ? call.arg_nodes[i] : call.node;
      fe.error("E0213", at,
               "`" + call.name + "` takes at most " +
                   std::to_string(std::count(positional.begin(), positional.end(), true)) +
                   " positional arguments");
      ok_ = false;
      break;
    }
    bound_[next] = &call.args[i];
    if (i < call.arg_nodes.size()) nodes_[next] = call.arg_nodes[i];
    ++next;
  }
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    const auto& [key, value] = call.kwargs[k];
    Node at = k < call.kwarg_nodes.size() ? call.kwarg_nodes[k] : call.node;
    size_t index = names_.size();
    for (size_t p = 0; p < names_.size(); ++p) {
      if (names_[p] == key) index = p;
    }
    if (index == names_.size()) {
      if (accepts_any_keyword) {
        extra_.emplace_back(key, value);
        continue;
      }
      fe.error("E0214", at, "`" + call.name + "` got an unexpected keyword argument `" + key + "`");
      ok_ = false;
      continue;
    }
    if (bound_[index]) {
      fe.error("E0214", at, "`" + call.name + "` got multiple values for argument `" + key + "`");
      ok_ = false;
      continue;
    }
    bound_[index] = &value;
    nodes_[index] = at.kind() == NodeKind::kKeywordArgument ? at.field(Field::kValue) : at;
  }
  for (size_t p = 0; p < names_.size(); ++p) {
    if (required[p] && !bound_[p]) {
      fe.error("E0215", call.node,
               "`" + call.name + "` is missing the argument `" + std::string(names_[p]) + "`");
      ok_ = false;
    }
  }
}

const Value* ArgBinder::get(std::string_view name) const {
  for (size_t p = 0; p < names_.size(); ++p) {
    if (names_[p] == name) return bound_[p];
  }
  return nullptr;
}

Node ArgBinder::node_of(std::string_view name) const {
  for (size_t p = 0; p < names_.size(); ++p) {
    if (names_[p] == name) return nodes_[p];
  }
  return call_.node;
}

}  // namespace relax::syntax
