// The module level of the front end: imports, the `@I.ir_module` class or top-level functions,
// module attributes and global infos, extern functions. It declares every function before it
// parses any body (so `cls.f` works in any order), then hands each definition to the Relax or
// TIR parser, and keeps the functions that parsed.
#include <algorithm>
#include <sstream>
#include <unordered_set>

#include "ir/source.h"
#include "syntax/frontend.h"
#include "syntax/frontend/context.h"
#include "syntax/frontend/prim_builtins.h"
#include "syntax/frontend/relax_parser.h"
#include "syntax/frontend/tir_parser.h"
#include "syntax/metadata.h"

namespace relax::syntax {

using ir::make;
using ir::Ref;

namespace {

enum class DefKind { kUnknown, kRelax, kTir, kModule };

struct PendingFunction {
  Node decorated;
  Node def;
  DefKind kind;
  Ref<ir::GlobalVar> gvar;
};

class ModuleParser {
 public:
  explicit ModuleParser(Frontend& fe) : fe_(fe) {}

  FrontendResult run(Node root) {
    for (Node stmt : root.named_children()) {
      // When error recovery made the whole module one ERROR, its children are fragments (a
      // decorator, a name, a condition), not statements: only whole definitions and imports
      // among them are read; the syntax error itself is reported on the root.
      if (root.is_error() && stmt.kind() != NodeKind::kDecoratedDefinition &&
          stmt.kind() != NodeKind::kImportStatement &&
          stmt.kind() != NodeKind::kImportFromStatement)
        continue;
      top_level(stmt);
    }
    declare_and_parse();
    report_missing_metadata();
    FrontendResult result;
    result.module = fe_.module;
    result.is_module_class = saw_class_;
    result.failed_functions = failed_;
    return result;
  }

 private:
  // The canonical decorator name of a definition: "R.function", "T.prim_func", "I.ir_module".
  DefKind classify(Node decorated, Node& def) {
    def = decorated.field(Field::kDefinition);
    DefKind kind = DefKind::kUnknown;
    for (Node child : decorated.named_children()) {
      if (child.kind() != NodeKind::kDecorator) continue;
      Node expr;
      for (Node c : child.named_children()) {
        if (c.kind() != NodeKind::kComment) expr = c;
      }
      if (expr.kind() == NodeKind::kCall) expr = expr.field(Field::kFunction);
      Value v = fe_.eval(expr);
      if (v.is_error()) return DefKind::kUnknown;
      std::string name = v.is_namespace() ? canonical_path(v.as_string()) : "";
      // Only the last decorator decides the dialect (as in TVM).
      if (name == "R.function")
        kind = DefKind::kRelax;
      else if (name == "T.prim_func")
        kind = DefKind::kTir;
      else if (name == "I.ir_module")
        kind = DefKind::kModule;
      else {
        fe_.error("E0231", child,
                  "unsupported decorator `" + std::string(expr.text()) +
                      "`: expected @R.function, @T.prim_func or @I.ir_module");
        return DefKind::kUnknown;
      }
    }
    return kind;
  }

  void top_level(Node stmt) {
    switch (stmt.kind()) {
      case NodeKind::kComment:
        return;
      case NodeKind::kImportStatement:
      case NodeKind::kImportFromStatement:
      case NodeKind::kFutureImportStatement:
        import(stmt);
        return;
      default:
        break;
    }
    // Reported as a syntax error. A definition with an error inside is still visited: its
    // members are declared and checked (and dropped afterwards), so all errors are reported.
    if (stmt.has_error() && stmt.kind() != NodeKind::kDecoratedDefinition) return;
    switch (stmt.kind()) {
      case NodeKind::kExpressionStatement:
        if (is_docstring(stmt)) return;
        fe_.error("E0232", stmt, "unsupported statement at module level");
        return;
      case NodeKind::kAssignment:
        module_assignment(stmt, /*in_class=*/false);
        return;
      case NodeKind::kDecoratedDefinition: {
        Node def;
        DefKind kind = classify(stmt, def);
        if (kind == DefKind::kUnknown) return;
        if (kind == DefKind::kModule) {
          if (def.kind() != NodeKind::kClassDefinition) {
            fe_.error("E0233", stmt, "@I.ir_module decorates a class");
            return;
          }
          module_class(stmt, def);
          return;
        }
        if (def.kind() != NodeKind::kFunctionDefinition) {
          fe_.error("E0233", stmt, "@R.function and @T.prim_func decorate a function definition");
          return;
        }
        if (saw_class_) {
          fe_.error("E0234", stmt,
                    "a file holds one @I.ir_module class or top-level functions, not both");
          return;
        }
        saw_function_ = true;
        pending_.push_back({stmt, def, kind, nullptr});
        return;
      }
      case NodeKind::kFunctionDefinition:
        fe_.error("E0235", stmt.field(Field::kName),
                  "function `" + std::string(stmt.field(Field::kName).text()) +
                      "` needs a @R.function or @T.prim_func decorator");
        return;
      case NodeKind::kClassDefinition:
        fe_.error("E0235", stmt.field(Field::kName),
                  "class `" + std::string(stmt.field(Field::kName).text()) +
                      "` needs the @I.ir_module decorator");
        return;
      case NodeKind::kPassStatement:
        return;
      default:
        fe_.error("E0232", stmt, "unsupported statement at module level");
    }
  }

  static bool is_docstring(Node stmt) {
    Node e = stmt.named_child(0);
    return stmt.named_child_count() == 1 &&
           (e.kind() == NodeKind::kString || e.kind() == NodeKind::kConcatenatedString);
  }

  // `from tvm.script import tir as T`, `import tvm`, `from tvm import relax`.
  void import(Node stmt) {
    if (stmt.kind() == NodeKind::kFutureImportStatement) return;
    std::string from;
    if (stmt.kind() == NodeKind::kImportFromStatement)
      from = std::string(stmt.field(Field::kModuleName).text());
    for (Node name_node : stmt.fields(Field::kName)) {
      std::string name, alias;
      if (name_node.kind() == NodeKind::kAliasedImport) {
        name = std::string(name_node.field(Field::kName).text());
        alias = std::string(name_node.field(Field::kAlias).text());
      } else {
        name = std::string(name_node.text());
      }
      std::string full = from.empty() ? name : from + "." + name;
      std::string bound = alias.empty() ? name.substr(0, name.find('.')) : alias;
      if (alias.empty() && from.empty()) {
        // `import tvm.script` binds `tvm`.
        fe_.define_global(bound, Value::ns(bound));
        continue;
      }
      std::string last = full.substr(full.rfind('.') + 1);
      std::string_view ns = canonical_namespace(last);
      if (!ns.empty())
        fe_.define_global(bound, Value::ns(std::string(ns)));
      else if (last == "TypeVar" || last == "Axis")
        fe_.define_global(bound, Value::ns(last));  // typing.TypeVar, tvm.tirx.layout.Axis
      else if (last == "ir_module")
        fe_.define_global(bound, Value::ns("I.ir_module"));
      else
        fe_.define_global(bound, Value::ns(canonical_path(full)));
    }
  }

  // Module-level and class-level assignments: metadata, TypeVars, extern functions.
  void module_assignment(Node stmt, bool in_class) {
    Node left = stmt.field(Field::kLeft);
    Node right = stmt.field(Field::kRight);
    if (left.kind() != NodeKind::kIdentifier || right.is_null()) {
      fe_.error("E0232", stmt, "unsupported assignment at module level");
      return;
    }
    std::string name(left.text());
    if (name == "metadata" && !in_class) {
      metadata_section(stmt, right);
      return;
    }
    Value v = fe_.eval(right);
    if (v.is_error()) return;
    if (v.is_type_var()) {
      if (v.as_string() != name) {
        fe_.error(
            "E0236", right,
            "the TypeVar's name \"" + v.as_string() + "\" must match the variable `" + name + "`");
      }
      fe_.define_global(name, v);
      return;
    }
    if (in_class) {
      if (auto ext = v.as<ir::ExternFunc>()) {
        externs_.push_back({name, ext, stmt});
        return;
      }
    }
    fe_.error("E0232", stmt, "unsupported assignment at module level");
  }

  // `metadata = tvm.ir.load_json("""...""")`: the payloads of `metadata[...]` constants, as TVM
  // prints them with show_meta (syntax/metadata.h). Any other value is not interpreted.
  void metadata_section(Node stmt, Node right) {
    Node arg;
    size_t args = 0;
    if (right.kind() == NodeKind::kCall &&
        right.field(Field::kFunction).text() == "tvm.ir.load_json") {
      for (Node a : right.field(Field::kArguments).named_children()) {
        if (a.kind() == NodeKind::kComment) continue;
        arg = a;
        ++args;
      }
    }
    if (args != 1 ||
        (arg.kind() != NodeKind::kString && arg.kind() != NodeKind::kConcatenatedString)) {
      fe_.warning("W0201", stmt.span(),
                  "the metadata section is not interpreted (it is not "
                  "`tvm.ir.load_json(\"\"\"...\"\"\")`); constants that refer to it are opaque");
      return;
    }
    if (fe_.metadata != Frontend::Metadata::kNone) {
      fe_.error("E0246", stmt, "a second metadata section");
      return;
    }
    fe_.metadata = Frontend::Metadata::kBroken;
    Value text = fe_.eval(arg);
    if (text.is_error()) return;
    std::string error;
    if (!parse_metadata_json(text.as_string(), fe_.metadata_constants, error)) {
      fe_.error("E0246", arg, "cannot read the metadata section: " + error);
      return;
    }
    fe_.metadata = Frontend::Metadata::kRead;
  }

  // References to a metadata section the file does not have (TVM prints `metadata[...]` without
  // the section unless show_meta=True): those constants have no value, so the module cannot be
  // built. One error at the first reference, the others as labels.
  void report_missing_metadata() {
    const auto& refs = fe_.opaque_metadata_refs;
    if (refs.empty()) return;
    auto& d = fe_.error("E0248", refs[0],
                        "this constant has no value: the file has no metadata section that relax "
                        "reads");
    constexpr size_t kMaxLabels = 16;
    for (size_t i = 1; i < refs.size() && i <= kMaxLabels; ++i) d.label(refs[i], "no value either");
    if (refs.size() > 1)
      d.note(std::to_string(refs.size()) + " references to the metadata section in all");
    d.note(
        "TVM writes the section only with show_meta=True; `relax print` and `relax opt` write "
        "it unless --no-show-meta is given");
  }

  void module_class(Node decorated, Node cls) {
    if (saw_class_) {
      fe_.error("E0234", decorated, "a file holds one @I.ir_module class");
      return;
    }
    if (saw_function_) {
      fe_.error("E0234", decorated,
                "a file holds one @I.ir_module class or top-level functions, not both");
      return;
    }
    saw_class_ = true;
    fe_.in_module_class = true;
    std::string name(cls.field(Field::kName).text());
    fe_.module->name = name;
    fe_.module_name = name;
    fe_.symbols.define(SymbolKind::kModule, name, cls.field(Field::kName).span(), nullptr);
    fe_.symbols.set_extent_of_last(decorated.span());
    fe_.define_global(name, Value::module_ref());
    if (Node supers = cls.field(Field::kSuperclasses)) {
      fe_.error("E0237", supers, "an IRModule class takes no base classes");
    }
    Node body = cls.field(Field::kBody);
    for (Node stmt : body.named_children()) {
      if (stmt.kind() == NodeKind::kComment) continue;
      if (stmt.has_error() && stmt.kind() != NodeKind::kDecoratedDefinition) continue;
      switch (stmt.kind()) {
        case NodeKind::kPassStatement:
          break;
        case NodeKind::kDecoratedDefinition: {
          Node def;
          DefKind kind = classify(stmt, def);
          if (kind == DefKind::kUnknown) break;
          if (kind == DefKind::kModule || def.kind() != NodeKind::kFunctionDefinition) {
            fe_.error("E0233", stmt,
                      "a module class holds @R.function and @T.prim_func definitions");
            break;
          }
          pending_.push_back({stmt, def, kind, nullptr});
          break;
        }
        case NodeKind::kFunctionDefinition:
          fe_.error("E0235", stmt.field(Field::kName),
                    "function `" + std::string(stmt.field(Field::kName).text()) +
                        "` needs a @R.function or @T.prim_func decorator");
          break;
        case NodeKind::kAssignment:
          module_assignment(stmt, true);
          break;
        case NodeKind::kExpressionStatement: {
          if (is_docstring(stmt)) break;
          Value v = fe_.eval(stmt.named_child(0));
          if (!v.is_error() && !v.is_none())
            fe_.error("E0232", stmt, "unsupported statement in a module class");
          break;
        }
        default:
          fe_.error("E0232", stmt, "unsupported statement in a module class");
      }
    }
  }

  void declare_and_parse() {
    std::unordered_set<std::string> names;
    for (const auto& ext : externs_) names.insert(ext.name);
    for (PendingFunction& p : pending_) {
      std::string name(p.def.field(Field::kName).text());
      if (!names.insert(name).second) {
        fe_.error("E0238", p.def.field(Field::kName),
                  "`" + name + "` is defined more than once in the module");
        p.kind = DefKind::kUnknown;
        continue;
      }
      p.gvar = make<ir::GlobalVar>(name);
      p.gvar->span = p.def.field(Field::kName).span();
      fe_.module->add(p.gvar, nullptr);
      // Indexed before any body is built, so calls in earlier functions resolve; a function
      // that fails to build keeps its symbol (an outline never loses it).
      fe_.symbols.define(SymbolKind::kFunction, name, p.gvar->span, p.gvar);
      fe_.symbols.set_extent(p.gvar.get(), p.decorated.span());
    }
    for (const auto& ext : externs_) {
      auto gvar = make<ir::GlobalVar>(ext.name);
      gvar->span = ext.node.field(Field::kLeft).span();
      gvar->struct_info = ext.func->struct_info;
      fe_.module->add(gvar, ext.func);
      fe_.symbols.define(SymbolKind::kFunction, ext.name, gvar->span, gvar);
      fe_.symbols.set_extent(gvar.get(), ext.node.span());
    }
    for (PendingFunction& p : pending_) {
      if (p.kind != DefKind::kRelax) continue;
      fe_.symbols.set_function(p.gvar->name);
      declare_relax_function(fe_, p.decorated, p.gvar);
      fe_.symbols.set_function("");
    }
    for (PendingFunction& p : pending_) {
      if (p.kind == DefKind::kUnknown) continue;
      // Past the error limit nothing more is checked: the functions not parsed are left out.
      if (fe_.stopped()) {
        failed_.push_back(p.gvar->name);
        fe_.module->remove(p.gvar->name);
        continue;
      }
      size_t errors_before = fe_.error_count();
      fe_.symbols.set_function(p.gvar->name);
      ir::ObjectRef func;
      if (p.kind == DefKind::kRelax) {
        fe_.dialect = Dialect::kRelax;
        func = parse_relax_function(fe_, p.decorated, p.gvar);
      } else {
        fe_.dialect = Dialect::kTir;
        func = parse_prim_func(fe_, p.decorated, p.gvar);
      }
      fe_.dialect = Dialect::kNone;
      fe_.symbols.set_function("");
      // A function with a syntax error inside is left out even if its parser recovered.
      if (!func || fe_.error_count() > errors_before || p.decorated.has_error()) {
        failed_.push_back(p.gvar->name);
        fe_.module->remove(p.gvar->name);
        continue;
      }
      fe_.module->add(p.gvar, func);
    }
    for (PendingFunction& p : pending_) {
      if (p.kind == DefKind::kUnknown || !p.gvar) continue;
      // Functions that contain syntax errors never reached the parser cleanly.
      if (p.decorated.has_error() && fe_.module->find(p.gvar->name)) {
        failed_.push_back(p.gvar->name);
        fe_.module->remove(p.gvar->name);
      }
    }
  }

  struct ExternMember {
    std::string name;
    Ref<ir::ExternFunc> func;
    Node node;
  };

  Frontend& fe_;
  std::vector<PendingFunction> pending_;
  std::vector<ExternMember> externs_;
  std::vector<std::string> failed_;
  bool saw_class_ = false;
  bool saw_function_ = false;
};

// I.* builtins (module attributes, global infos, virtual devices) and the shared T.target.
void register_module_builtins(Frontend& fe) {
  fe.register_builtin("I.module_attrs", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"attrs"});
    if (!args.ok()) return Value::error(call.span());
    const Value& attrs = *args.get("attrs");
    if (!attrs.is_dict()) {
      fe.error("E0239", attrs.span(), "I.module_attrs takes a dictionary");
      return Value::error(call.span());
    }
    for (const auto& [k, v] : attrs.entries()) {
      auto key = fe.to_string(k);
      auto value = fe.to_attr_value(v);
      if (key && value) fe.module->attrs.set(*key, *value);
    }
    return Value::none(call.span());
  });
  fe.register_builtin("I.module_global_infos", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"global_infos"});
    if (!args.ok()) return Value::error(call.span());
    const Value& infos = *args.get("global_infos");
    if (!infos.is_dict()) {
      fe.error("E0239", infos.span(), "I.module_global_infos takes a dictionary of lists");
      return Value::error(call.span());
    }
    for (const auto& [k, v] : infos.entries()) {
      auto key = fe.to_string(k);
      auto items = fe.to_sequence(v, "global infos");
      if (!key || !items) continue;
      std::vector<ir::ObjectRef> objs;
      for (const Value& item : *items) {
        if (item.is_object())
          objs.push_back(item.object());
        else if (!item.is_error())
          fe.error("E0239", item.span(),
                   "a global info is made by I.vdevice(...) or I.dummy_global_info()");
      }
      fe.module->global_infos.emplace_back(*key, std::move(objs));
    }
    return Value::none(call.span());
  });
  fe.register_builtin("I.vdevice", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"target=", "vdevice_id=", "memory_scope="});
    if (!args.ok()) return Value::error(call.span());
    Ref<ir::Target> target;
    if (const Value* t = args.get("target")) {
      if (t->is_dict()) {
        auto config = fe.to_attr_value(*t);
        if (!config) return Value::error(call.span());
        target = make<ir::Target>(config->as<ir::MapValue>());
      } else if (auto s = fe.to_string(*t)) {
        // "cuda -arch=sm_80": the kind, then `-key=value` options (numbers as ints), as TVM's
        // Target reads a string (without the defaults TVM's target registry adds).
        auto config = make<ir::MapValue>();
        std::istringstream words(*s);
        std::string word;
        words >> word;
        config->entries.emplace_back(make<ir::StringValue>("kind"), make<ir::StringValue>(word));
        while (words >> word) {
          size_t eq = word.find('=');
          size_t start = word.find_first_not_of('-');
          if (eq == std::string::npos || start == 0 || start >= eq) {
            fe.error(
                "E0512", t->span(),
                "malformed target option \"" + word + "\" in \"" + *s + "\": expected -key=value");
            return Value::error(call.span());
          }
          std::string key = word.substr(start, eq - start), value = word.substr(eq + 1);
          bool number = !value.empty() && value.size() <= 18 &&
                        value.find_first_not_of("0123456789") == std::string::npos;
          ir::ObjectRef v = number ? ir::ObjectRef(make<ir::IntValue>(std::stoll(value)))
                                   : ir::ObjectRef(make<ir::StringValue>(value));
          config->entries.emplace_back(make<ir::StringValue>(key), v);
        }
        target = make<ir::Target>(config);
      } else {
        return Value::error(call.span());
      }
    }
    int64_t id = 0;
    if (const Value* v = args.get("vdevice_id")) {
      auto i = fe.to_int(*v);
      if (!i) return Value::error(call.span());
      id = *i;
    }
    std::string scope = "global";
    if (const Value* v = args.get("memory_scope")) {
      auto s = fe.to_string(*v);
      if (!s) return Value::error(call.span());
      scope = *s;
    }
    auto vd = make<ir::VDevice>(target, static_cast<int>(id), scope);
    vd->span = call.span();
    return Value::object(vd, call.span());
  });
  fe.register_builtin("I.dummy_global_info", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {});
    if (!args.ok()) return Value::error(call.span());
    return Value::object(make<ir::DummyGlobalInfo>(), call.span());
  });
  fe.register_builtin("T.target", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"target", "host="});
    if (!args.ok()) return Value::error(call.span());
    const Value& t = *args.get("target");
    Ref<ir::MapValue> config;
    if (t.is_dict()) {
      auto c = fe.to_attr_value(t);
      if (!c) return Value::error(call.span());
      config = c->as<ir::MapValue>();
    } else if (auto s = fe.to_string(t)) {
      config = make<ir::MapValue>();
      config->entries.emplace_back(make<ir::StringValue>("kind"), make<ir::StringValue>(*s));
    } else {
      return Value::error(call.span());
    }
    auto target = make<ir::Target>(config);
    target->span = call.span();
    return Value::object(target, call.span());
  });
  fe.register_builtin("TypeVar", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"name", "**"});
    if (!args.ok()) return Value::error(call.span());
    auto name = fe.to_string(*args.get("name"));
    if (!name) return Value::error(call.span());
    return Value::type_var(*name, call.span());
  });
}

// Every builtin, registered once (thread-safe: a function-local static) by a front end over an
// empty tree; the functions take the front end they run in as an argument.
const Frontend::BuiltinTable& builtin_table() {
  static const Frontend::BuiltinTable table = [] {
    std::shared_ptr<const SyntaxTree> tree = SyntaxTree::parse("", 0);
    ir::DiagnosticBag diags;
    Frontend fe(*tree, diags);
    register_module_builtins(fe);
    register_prim_builtins(fe);
    register_relax_builtins(fe);
    register_tir_builtins(fe);
    return fe.take_registered_builtins();
  }();
  return table;
}

}  // namespace

FrontendResult parse_tree(std::shared_ptr<const SyntaxTree> tree, ir::DiagnosticBag& diags) {
  report_syntax_errors(*tree, diags);
  Frontend fe(*tree, diags);
  fe.use_builtins(builtin_table());
  ModuleParser parser(fe);
  FrontendResult result = parser.run(tree->root());
  fe.symbols.finish();
  result.symbols = std::make_shared<const SymbolIndex>(std::move(fe.symbols));
  result.tree = std::move(tree);
  return result;
}

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, _] : builtin_table()) out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

FrontendResult parse_text(std::string text, const std::string& name, ir::DiagnosticBag& diags) {
  uint32_t file = ir::SourceManager::global().add(name, text);
  std::shared_ptr<const SyntaxTree> tree = SyntaxTree::parse(std::move(text), file);
  return parse_tree(std::move(tree), diags);
}

}  // namespace relax::syntax
