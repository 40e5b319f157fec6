// The schedule-file interpreter (schedule_file.h): walks the statements of the syntax tree,
// evaluates the few value kinds a schedule needs (names, integers, None, strings, lists, blocks,
// loops) and runs each primitive on a Schedule of the prim_func it names. Like Python, it stops
// at the first error; the primitives' own diagnostics get the span of the call that failed.
#include "compiler/tir/schedule/schedule_file.h"

#include <map>
#include <optional>

#include "compiler/tir/schedule/schedule.h"
#include "ir/source.h"
#include "ir/tir_visitor.h"
#include "syntax/cst.h"
#include "syntax/frontend.h"
#include "syntax/frontend/literals.h"

namespace relax::compiler::tir {

namespace {

using syntax::Field;
using syntax::Node;
using syntax::NodeKind;
namespace irt = ir::tir;

// Deeper lists or calls than this are not a schedule; the bound keeps recursion finite.
constexpr int kMaxDepth = 64;

const char* const kPrimitives =
    "get_block, get_loops, split, fuse, reorder, parallel, vectorize, unroll, bind";

struct Value {
  enum class Kind { kNone, kBool, kInt, kString, kList, kSchedule, kModule, kBlock, kLoop };
  Kind kind = Kind::kNone;
  int64_t number = 0;
  std::string text;  // a string's value; a block's name
  std::vector<Value> items;
  std::string func;  // the prim_func of a block or loop
  ir::Ref<irt::Var> loop;
};

std::string kind_words(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNone:
      return "None";
    case Value::Kind::kBool:
      return "a bool";
    case Value::Kind::kInt:
      return "an integer";
    case Value::Kind::kString:
      return "a string";
    case Value::Kind::kList:
      return "a list";
    case Value::Kind::kSchedule:
      return "the schedule";
    case Value::Kind::kModule:
      return "the module";
    case Value::Kind::kBlock:
      return "a block";
    case Value::Kind::kLoop:
      return "a loop";
  }
  return "a value";
}

// "for_statement" -> "a `for` statement", "binary_operator" -> "a binary operator".
std::string node_words(Node n) {
  std::string type = n.type();
  if (type.ends_with("_statement")) return "a `" + type.substr(0, type.size() - 10) + "` statement";
  for (char& ch : type)
    if (ch == '_') ch = ' ';
  return "a " + type;
}

std::vector<std::string> block_names(const irt::PrimFunc& f) {
  struct Blocks : irt::Visitor {
    std::vector<std::string> names;
    void visit_block(const ir::Ref<irt::Block>& b) override {
      if (b->name_hint != "root") names.push_back(b->name_hint);
      irt::Visitor::visit_block(b);
    }
  } blocks;
  blocks.visit_stmt(f.body);
  return blocks.names;
}

std::string join(const std::vector<std::string>& names, size_t limit = 12) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < limit; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > limit) s += ", ... (" + std::to_string(names.size()) + " in all)";
  return s.empty() ? "none" : s;
}

// One prim_func being scheduled: the primitives report into `diags`, moved to the file's
// diagnostics with the span of the call.
struct FuncState {
  ir::DiagnosticBag diags;
  std::unique_ptr<Schedule> sch;
  bool changed = false;
};

struct Arg {
  Node node;
  Value value;
};

class Interpreter {
 public:
  Interpreter(const ir::IRModule& module, ir::DiagnosticBag& diags)
      : module_(module), diags_(diags) {
    Value sch;
    sch.kind = Value::Kind::kSchedule;
    vars_["sch"] = sch;
  }

  bool run(Node root) {
    for (Node stmt : root.named_children()) {
      if (stmt.kind() == NodeKind::kComment) continue;
      statement(stmt);
      if (failed_) return false;
    }
    return true;
  }

  ir::Ref<ir::IRModule> result(const ir::Ref<ir::IRModule>& module) {
    auto out = ir::copy(module);
    for (auto& [name, st] : funcs_) {
      if (!st->changed) continue;
      auto f = ir::copy(st->sch->func());
      f->attrs.set("tir.is_scheduled", irt::bool_imm(true));
      out->add(out->global_var(name), f);
    }
    return out;
  }

 private:
  ir::Diagnostic& error(const std::string& code, Node at, std::string message) {
    failed_ = true;
    return diags_.error(code, at.span(), std::move(message));
  }

  // ------------------------------------------------------------------ statements

  void statement(Node stmt) {
    switch (stmt.kind()) {
      case NodeKind::kImportStatement:
      case NodeKind::kImportFromStatement:
      case NodeKind::kFutureImportStatement:
        return;  // `import tvm` of a copied script
      case NodeKind::kExpressionStatement: {
        Node e = stmt.named_child(0);
        if (e.kind() != NodeKind::kCall) {
          error("E0730", stmt,
                "this statement does nothing: a schedule file holds assignments "
                "and calls of schedule primitives");
          return;
        }
        eval(e, 0);
        return;
      }
      case NodeKind::kAssignment:
        assignment(stmt);
        return;
      default:
        error("E0730", stmt,
              node_words(stmt) +
                  " is not supported in a schedule file: it holds assignments and calls of "
                  "schedule primitives");
    }
  }

  void assignment(Node stmt) {
    Node left = stmt.field(Field::kLeft), right = stmt.field(Field::kRight);
    if (stmt.field(Field::kAnnotation)) {
      error("E0730", stmt, "annotated assignments are not supported in a schedule file");
      return;
    }
    if (!right || right.kind() == NodeKind::kAssignment) {
      error("E0730", stmt, "write one target per assignment (`a = b = ...` is not supported)");
      return;
    }
    std::optional<Value> v = eval(right, 0);
    if (!v) return;
    bind_target(left, *v, right, 0);
  }

  void bind_target(Node target, const Value& v, Node source, int depth) {
    std::string type = target.type();
    if (target.kind() == NodeKind::kIdentifier) {
      vars_[std::string(target.text())] = v;
      return;
    }
    if (depth > kMaxDepth) {
      error("E0730", target, "the assignment target is nested too deeply");
      return;
    }
    if (type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern") {
      std::vector<Node> names = target.named_children();
      std::erase_if(names, [](const Node& n) { return n.kind() == NodeKind::kComment; });
      if (v.kind != Value::Kind::kList) {
        error("E0734", target,
              "cannot unpack " + kind_words(v.kind) + " into " + std::to_string(names.size()) +
                  " names");
        return;
      }
      if (v.items.size() != names.size()) {
        std::vector<std::string> got;
        for (const Value& item : v.items)
          got.push_back(item.kind == Value::Kind::kLoop ? item.loop->name : kind_words(item.kind));
        error("E0734", target,
              "the left side names " + std::to_string(names.size()) + " values, the right side " +
                  "has " + std::to_string(v.items.size()) + " (" + join(got) + ")");
        return;
      }
      for (size_t i = 0; i < names.size() && !failed_; ++i)
        bind_target(names[i], v.items[i], source, depth + 1);
      return;
    }
    error("E0730", target, "assign to a name (or a tuple of names) in a schedule file");
  }

  // ------------------------------------------------------------------ expressions

  std::optional<Value> eval(Node e, int depth) {
    if (depth > kMaxDepth) {
      error("E0730", e, "the expression is nested too deeply");
      return std::nullopt;
    }
    Value v;
    switch (e.kind()) {
      case NodeKind::kNone:
        return v;
      case NodeKind::kTrue:
      case NodeKind::kFalse:
        v.kind = Value::Kind::kBool;
        v.number = e.kind() == NodeKind::kTrue;
        return v;
      case NodeKind::kInteger: {
        auto n = syntax::decode_integer(e.text());
        if (!n) {
          error("E0730", e, "not an integer of 64 bits: `" + std::string(e.text()) + "`");
          return std::nullopt;
        }
        v.kind = Value::Kind::kInt;
        v.number = *n;
        return v;
      }
      case NodeKind::kUnaryOperator: {
        Node op = e.field(Field::kOperator), arg = e.field(Field::kArgument);
        auto inner = arg ? eval(arg, depth + 1) : std::nullopt;
        if (!inner) return std::nullopt;
        if (inner->kind != Value::Kind::kInt || !op || (op.text() != "-" && op.text() != "+")) {
          error("E0730", e, "only `-` and `+` of integers are supported in a schedule file");
          return std::nullopt;
        }
        if (op.text() == "-") inner->number = -inner->number;
        return inner;
      }
      case NodeKind::kString: {
        syntax::DecodedString s = syntax::decode_string(e.text());
        if (!s.ok || s.is_bytes || s.is_fstring) {
          error("E0730", e, s.ok ? "write a plain string here" : s.error);
          return std::nullopt;
        }
        v.kind = Value::Kind::kString;
        v.text = s.value;
        return v;
      }
      case NodeKind::kIdentifier: {
        auto it = vars_.find(std::string(e.text()));
        if (it == vars_.end()) {
          error("E0732", e, "`" + std::string(e.text()) + "` is not defined")
              .note(
                  "names are bound by earlier assignments of the file; `sch` is the schedule of "
                  "the module");
          return std::nullopt;
        }
        return it->second;
      }
      case NodeKind::kParenthesizedExpression:
        return eval(e.named_child(0), depth + 1);
      case NodeKind::kList:
      case NodeKind::kTuple:
      case NodeKind::kExpressionList: {
        v.kind = Value::Kind::kList;
        for (Node item : e.named_children()) {
          if (item.kind() == NodeKind::kComment) continue;
          auto iv = eval(item, depth + 1);
          if (!iv) return std::nullopt;
          v.items.push_back(std::move(*iv));
        }
        return v;
      }
      case NodeKind::kAttribute: {
        auto object = eval(e.field(Field::kObject), depth + 1);
        if (!object) return std::nullopt;
        std::string name(e.field(Field::kAttribute).text());
        if (object->kind == Value::Kind::kSchedule && name == "mod") {
          v.kind = Value::Kind::kModule;  // `tuned_mod = sch.mod`: the scheduled module
          return v;
        }
        if (object->kind == Value::Kind::kSchedule) {
          unknown_primitive(e.field(Field::kAttribute), name);
          return std::nullopt;
        }
        error("E0730", e, kind_words(object->kind) + " has no attribute `" + name + "`");
        return std::nullopt;
      }
      case NodeKind::kCall:
        return call(e, depth);
      default:
        error("E0730", e, node_words(e) + " is not supported in a schedule file");
        return std::nullopt;
    }
  }

  void unknown_primitive(Node at, const std::string& name) {
    error("E0731", at, "`" + name + "` is not a schedule primitive relax supports")
        .note(std::string("supported: ") + kPrimitives);
  }

  // `tvm.tir.Schedule(...)`, `tir.Schedule(...)`, `Schedule(...)`: the schedule of the module.
  static bool is_schedule_constructor(Node callee) {
    Node n = callee;
    if (n.kind() == NodeKind::kAttribute) {
      if (n.field(Field::kAttribute).text() != "Schedule") return false;
      n = n.field(Field::kObject);
      while (n.kind() == NodeKind::kAttribute) n = n.field(Field::kObject);
      return n.kind() == NodeKind::kIdentifier;
    }
    return n.kind() == NodeKind::kIdentifier && n.text() == "Schedule";
  }

  std::optional<Value> call(Node e, int depth) {
    Node callee = e.field(Field::kFunction);
    if (is_schedule_constructor(callee)) {
      Value v;
      v.kind = Value::Kind::kSchedule;
      return v;
    }
    if (callee.kind() != NodeKind::kAttribute) {
      error("E0730", callee,
            "only schedule primitives (`sch.split(...)`) can be called in a schedule file");
      return std::nullopt;
    }
    auto object = eval(callee.field(Field::kObject), depth + 1);
    if (!object) return std::nullopt;
    Node name_node = callee.field(Field::kAttribute);
    std::string name(name_node.text());
    if (object->kind != Value::Kind::kSchedule) {
      error("E0730", callee,
            "only schedule primitives can be called; this calls `" + name + "` of " +
                kind_words(object->kind));
      return std::nullopt;
    }
    std::vector<Arg> positional;
    std::vector<std::pair<std::string, Arg>> keywords;
    for (Node a : e.field(Field::kArguments).named_children()) {
      if (a.kind() == NodeKind::kComment) continue;
      if (a.kind() == NodeKind::kListSplat || a.kind() == NodeKind::kDictionarySplat) {
        error("E0733", a, "`*` and `**` arguments are not supported: name the loops one by one");
        return std::nullopt;
      }
      if (a.kind() == NodeKind::kKeywordArgument) {
        auto v = eval(a.field(Field::kValue), depth + 1);
        if (!v) return std::nullopt;
        keywords.push_back({std::string(a.field(Field::kName).text()), {a, std::move(*v)}});
        continue;
      }
      auto v = eval(a, depth + 1);
      if (!v) return std::nullopt;
      positional.push_back({a, std::move(*v)});
    }
    Call c{e, name, positional, keywords};
    if (name == "get_block") return get_block(c);
    if (name == "get_loops") return get_loops(c);
    if (name == "split") return split(c);
    if (name == "fuse") return fuse_or_reorder(c, true);
    if (name == "reorder") return fuse_or_reorder(c, false);
    if (name == "parallel" || name == "vectorize" || name == "unroll" || name == "bind")
      return loop_kind(c);
    unknown_primitive(name_node, name);
    return std::nullopt;
  }

  // ------------------------------------------------------------------ arguments

  struct Call {
    Node node;
    std::string name;
    std::vector<Arg> positional;
    std::vector<std::pair<std::string, Arg>> keywords;
  };

  // Matches the arguments to the parameters `params` (the first `required` of them needed);
  // null entries for parameters not given.
  std::optional<std::vector<const Arg*>> bind(const Call& c, const std::vector<std::string>& params,
                                              size_t required) {
    std::vector<const Arg*> slots(params.size(), nullptr);
    std::string signature = "sch." + c.name + "(" + join(params) + ")";
    if (c.positional.size() > params.size()) {
      error("E0733", c.positional[params.size()].node,
            "too many arguments: " + signature + " takes " + std::to_string(params.size()));
      return std::nullopt;
    }
    for (size_t i = 0; i < c.positional.size(); ++i) slots[i] = &c.positional[i];
    for (const auto& [key, arg] : c.keywords) {
      auto it = std::find(params.begin(), params.end(), key);
      if (it == params.end()) {
        error("E0733", arg.node, "`" + key + "` is not an argument of " + signature);
        return std::nullopt;
      }
      size_t i = static_cast<size_t>(it - params.begin());
      if (slots[i]) {
        error("E0733", arg.node, "`" + key + "` is given twice");
        return std::nullopt;
      }
      slots[i] = &arg;
    }
    for (size_t i = 0; i < required; ++i) {
      if (!slots[i]) {
        error("E0733", c.node, "missing argument `" + params[i] + "` of " + signature);
        return std::nullopt;
      }
    }
    return slots;
  }

  bool expect(const Arg& a, Value::Kind kind, const Call& c) {
    if (a.value.kind == kind) return true;
    std::string hint = kind == Value::Kind::kLoop    ? " (from get_loops, split or fuse)"
                       : kind == Value::Kind::kBlock ? " (from get_block)"
                                                     : "";
    error("E0733", a.node,
          "sch." + c.name + " expects " + kind_words(kind) + hint + " here, not " +
              kind_words(a.value.kind));
    return false;
  }

  // ------------------------------------------------------------------ functions and primitives

  // The prim_func `name` of the module being scheduled, as the primitives so far left it.
  FuncState* state(const std::string& name) {
    auto it = funcs_.find(name);
    if (it != funcs_.end()) return it->second.get();
    auto pf = ir::as_prim_func(module_.lookup(name));
    if (!pf) return nullptr;
    auto st = std::make_unique<FuncState>();
    st->sch = std::make_unique<Schedule>(pf, st->diags);
    return (funcs_[name] = std::move(st)).get();
  }

  std::vector<std::string> prim_func_names() const {
    std::vector<std::string> names;
    for (const auto& m : module_.functions)
      if (ir::as_prim_func(m.func)) names.push_back(m.gvar->name);
    return names;
  }

  // Moves the primitive's diagnostics to the file, at the call; true when it succeeded.
  bool take(FuncState& st, const Call& c, bool ok) {
    for (ir::Diagnostic d : st.diags.items()) {
      if (!d.span.is_known()) d.span = c.node.span();
      if (d.code == "E0720")
        d.note("a split or fuse replaces the loops it is given: use the loops it returned");
      if (d.severity == ir::Severity::kError) failed_ = true;
      diags_.items().push_back(std::move(d));
    }
    st.diags.items().clear();
    if (!ok && !failed_) error("E0733", c.node, "sch." + c.name + " failed");
    return ok && !failed_;
  }

  std::optional<Value> get_block(const Call& c) {
    auto slots = bind(c, {"name", "func_name"}, 1);
    if (!slots) return std::nullopt;
    const Arg& name_arg = *(*slots)[0];
    if (!expect(name_arg, Value::Kind::kString, c)) return std::nullopt;
    const std::string& block = name_arg.value.text;
    std::string func;
    const Arg* func_arg = (*slots)[1];
    if (func_arg && func_arg->value.kind != Value::Kind::kNone) {
      if (!expect(*func_arg, Value::Kind::kString, c)) return std::nullopt;
      func = func_arg->value.text;
      FuncState* st = state(func);
      if (!st) {
        bool relax_fn = ir::as_relax_function(module_.lookup(func)) != nullptr;
        error("E0735", func_arg->node,
              relax_fn ? "`" + func + "` is a Relax function; schedules apply to prim_funcs"
                       : "the module has no prim_func named `" + func + "`")
            .note("its prim_funcs: " + join(prim_func_names()))
            .note(
                "kernels made by LegalizeOps are named after their op (`relax opt FILE -p "
                "LegalizeOps` prints them)");
        return std::nullopt;
      }
      auto blocks = block_names(*st->sch->func());
      if (std::find(blocks.begin(), blocks.end(), block) == blocks.end()) {
        error("E0721", name_arg.node, "prim_func `" + func + "` has no block named `" + block + "`")
            .note("its blocks: " + join(blocks));
        return std::nullopt;
      }
    } else {
      // TVM looks in "main" by default; here the block is looked up in every prim_func.
      std::vector<std::string> holders, all;
      for (const std::string& f : prim_func_names()) {
        FuncState* st = state(f);
        for (const std::string& b : block_names(*st->sch->func())) {
          if (b == block && (holders.empty() || holders.back() != f)) holders.push_back(f);
          all.push_back(b + " (in " + f + ")");
        }
      }
      if (holders.empty()) {
        error("E0721", name_arg.node,
              "no prim_func of the module has a block named `" + block + "`")
            .note("the blocks: " + join(all));
        return std::nullopt;
      }
      if (holders.size() > 1) {
        error("E0736", c.node,
              "block `" + block + "` is in several prim_funcs (" + join(holders) +
                  "); choose one with func_name=");
        return std::nullopt;
      }
      func = holders[0];
    }
    Value v;
    v.kind = Value::Kind::kBlock;
    v.text = block;
    v.func = func;
    return v;
  }

  std::optional<Value> get_loops(const Call& c) {
    auto slots = bind(c, {"block"}, 1);
    if (!slots || !expect(*(*slots)[0], Value::Kind::kBlock, c)) return std::nullopt;
    const Value& block = (*slots)[0]->value;
    FuncState* st = state(block.func);
    auto loops = st->sch->get_loops(block.text);
    if (!take(*st, c, true)) return std::nullopt;
    Value v;
    v.kind = Value::Kind::kList;
    for (const auto& l : loops) v.items.push_back(loop_value(block.func, l));
    return v;
  }

  static Value loop_value(const std::string& func, ir::Ref<irt::Var> loop) {
    Value v;
    v.kind = Value::Kind::kLoop;
    v.func = func;
    v.loop = std::move(loop);
    return v;
  }

  std::optional<Value> split(const Call& c) {
    auto slots = bind(c, {"loop", "factors"}, 2);
    if (!slots || !expect(*(*slots)[0], Value::Kind::kLoop, c) ||
        !expect(*(*slots)[1], Value::Kind::kList, c))
      return std::nullopt;
    const Value& loop = (*slots)[0]->value;
    const Arg& factors_arg = *(*slots)[1];
    std::vector<int64_t> factors;
    int inferred = 0;
    for (size_t i = 0; i < factors_arg.value.items.size(); ++i) {
      const Value& f = factors_arg.value.items[i];
      if (f.kind == Value::Kind::kNone) {
        ++inferred;
        factors.push_back(-1);
      } else if (f.kind == Value::Kind::kInt && f.number > 0) {
        factors.push_back(f.number);
      } else {
        error("E0722", factor_node(factors_arg.node, i),
              "split factors are positive integers, or None for the one inferred from the "
              "loop's extent");
        return std::nullopt;
      }
    }
    if (inferred > 1) {
      error("E0722", factors_arg.node, "at most one split factor can be None");
      return std::nullopt;
    }
    FuncState* st = state(loop.func);
    auto parts = st->sch->split(loop.loop, factors);
    if (!take(*st, c, !parts.empty())) return std::nullopt;
    st->changed = true;
    Value v;
    v.kind = Value::Kind::kList;
    for (const auto& l : parts) v.items.push_back(loop_value(loop.func, l));
    return v;
  }

  // The i-th element of the factors list, for its span (the list itself when not found).
  static Node factor_node(Node arg, size_t i) {
    Node list = arg.kind() == NodeKind::kKeywordArgument ? arg.field(Field::kValue) : arg;
    std::vector<Node> items = list.named_children();
    std::erase_if(items, [](const Node& n) { return n.kind() == NodeKind::kComment; });
    return i < items.size() ? items[i] : arg;
  }

  std::optional<Value> fuse_or_reorder(const Call& c, bool is_fuse) {
    if (!c.keywords.empty()) {
      error("E0733", c.keywords[0].second.node,
            "sch." + c.name + " takes only loops, as positional arguments");
      return std::nullopt;
    }
    if (c.positional.empty()) {
      error("E0733", c.node, "sch." + c.name + " needs at least one loop");
      return std::nullopt;
    }
    std::vector<ir::Ref<irt::Var>> loops;
    for (const Arg& a : c.positional) {
      if (!expect(a, Value::Kind::kLoop, c)) return std::nullopt;
      if (a.value.func != c.positional[0].value.func) {
        error("E0737", a.node,
              "the loops of sch." + c.name + " are in different prim_funcs (`" +
                  c.positional[0].value.func + "` and `" + a.value.func + "`)");
        return std::nullopt;
      }
      loops.push_back(a.value.loop);
    }
    const std::string& func = c.positional[0].value.func;
    FuncState* st = state(func);
    Value v;
    if (is_fuse) {
      auto fused = st->sch->fuse(loops);
      if (!take(*st, c, fused != nullptr)) return std::nullopt;
      v = loop_value(func, fused);
    } else if (!take(*st, c, st->sch->reorder(loops))) {
      return std::nullopt;
    }
    st->changed = true;
    return v;
  }

  std::optional<Value> loop_kind(const Call& c) {
    bool is_bind = c.name == "bind";
    auto slots = is_bind ? bind(c, {"loop", "thread_axis"}, 2) : bind(c, {"loop"}, 1);
    if (!slots || !expect(*(*slots)[0], Value::Kind::kLoop, c)) return std::nullopt;
    if (is_bind && !expect(*(*slots)[1], Value::Kind::kString, c)) return std::nullopt;
    const Value& loop = (*slots)[0]->value;
    FuncState* st = state(loop.func);
    bool ok = c.name == "parallel"    ? st->sch->parallel(loop.loop)
              : c.name == "vectorize" ? st->sch->vectorize(loop.loop)
              : c.name == "unroll"    ? st->sch->unroll(loop.loop)
                                      : st->sch->bind(loop.loop, (*slots)[1]->value.text);
    if (!take(*st, c, ok)) return std::nullopt;
    st->changed = true;
    return Value{};
  }

  const ir::IRModule& module_;
  ir::DiagnosticBag& diags_;
  std::map<std::string, Value> vars_;
  std::map<std::string, std::unique_ptr<FuncState>> funcs_;
  bool failed_ = false;
};

}  // namespace

std::shared_ptr<const ScheduleScript> ScheduleScript::parse(std::string text,
                                                            const std::string& name,
                                                            ir::DiagnosticBag& diags) {
  uint32_t file = ir::SourceManager::global().add(name, text);
  std::shared_ptr<const syntax::SyntaxTree> tree = syntax::SyntaxTree::parse(std::move(text), file);
  size_t before = diags.error_count();
  syntax::report_syntax_errors(*tree, diags);
  if (diags.error_count() > before) return nullptr;
  return std::make_shared<const ScheduleScript>(std::move(tree));
}

ir::Ref<ir::IRModule> ScheduleScript::apply(const ir::Ref<ir::IRModule>& module,
                                            ir::DiagnosticBag& diags) const {
  Interpreter interp(*module, diags);
  if (!interp.run(tree_->root())) return nullptr;
  return interp.result(module);
}

Pass apply_schedule_pass(std::shared_ptr<const ScheduleScript> script) {
  Pass p;
  p.name = "ApplySchedule";
  p.doc =
      "Applies the schedule file of --schedule to the prim_funcs (in relax build: right after "
      "LegalizeOps)";
  p.fn = [script](ir::Ref<ir::IRModule> m, PassContext& ctx) -> ir::Ref<ir::IRModule> {
    if (!script) {
      ctx.diagnostics().error("E0738", ir::Span::unknown(),
                              "ApplySchedule has no schedule file: give one with --schedule FILE");
      return nullptr;
    }
    return script->apply(m, ctx.diagnostics());
  };
  return p;
}

}  // namespace relax::compiler::tir
