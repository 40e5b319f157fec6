// Relax functions as TVM v0.20's printer writes them: the decorator, the signature (symbolic
// dims as strings, declared by `n = T.int64()` at the top of the body), R.func_attr, the
// `cls = Module` alias where first needed, bindings with their annotations, dataflow blocks,
// if/else with the result bound in each branch, and nested functions with their header quirk.
#include "ir/visitor.h"
#include "syntax/frontend/relax_frontend.h"
#include "syntax/printer/relax_printer_state.h"

namespace relax::syntax {

using ir::Ref;
using namespace relax_printer;

namespace {

// One printed line: its depth below the function's indentation, or a blank line with no
// indentation at all (`raw`).
struct Line {
  int depth;
  std::string text;
  bool raw = false;
};
using Lines = std::vector<Line>;

class UseCollector : public ir::ExprVisitor {
 public:
  explicit UseCollector(std::unordered_set<const ir::Object*>& used) : used_(used) {}
  void visit_var(const Ref<ir::Var>& var) override { used_.insert(var.get()); }

 private:
  std::unordered_set<const ir::Object*>& used_;
};

void print_function(PrinterContext& ctx, const ir::Function& func, const std::string& name,
                    bool nested, int depth, Lines& out);
void print_seq(PrinterContext& ctx, const ir::SeqExpr& seq, bool use_ret, const std::string* target,
               const Ref<ir::StructInfo>& target_sinfo, int depth, Lines& out);

// The right side of an assignment: a tuple of two or more fields is written bare. The current
// profile writes prim values bare, except where a bare number would read as a constant: on the
// right of a binding that is not annotated as a prim value.
std::string assigned_text(PrinterContext& ctx, const Ref<ir::Expr>& value,
                          const Ref<ir::StructInfo>& target) {
  if (auto pv = value.as_ptr<ir::PrimValue>();
      pv && !ctx.legacy() && !target.is<ir::PrimStructInfo>()) {
    return "R.prim_value(" + print_dim(ctx, pv->value) + ")";
  }
  std::string text = print_relax_expr(ctx, value);
  if (auto t = value.as_ptr<ir::Tuple>(); t && t->fields.size() >= 2)
    return text.substr(1, text.size() - 2);
  return text;
}

// The annotation of a binding; TVM leaves it out for call_tir / call_dps_packed results whose
// struct info is the call's output struct info.
std::string annotation(PrinterContext& ctx, const ir::Var& var, const Ref<ir::Expr>& value) {
  if (!var.struct_info) return "";
  if (auto c = value.as_ptr<ir::Call>()) {
    const std::string& op = c->op_name();
    if ((op == "relax.call_tir" || op == "relax.call_dps_packed") && c->sinfo_args.size() == 1 &&
        relax_fe::same_sinfo(var.struct_info, c->sinfo_args[0])) {
      return "";
    }
  }
  return print_struct_info(ctx, var.struct_info);
}

std::string target_text(const std::string& lhs, const std::string& ann) {
  return ann.empty() ? lhs : lhs + ": " + ann;
}

std::string define_var(PrinterContext& ctx, const ir::Var& var) {
  return ctx.names.define(&var, var.name);
}

void print_binding(PrinterContext& ctx, const ir::Binding& b, int depth, Lines& out) {
  const ir::Var& var = *b.var;
  if (b.kind() == ir::ObjectKind::kMatchCast) {
    const auto* mc = static_cast<const ir::MatchCast*>(&b);
    std::string ann = annotation(ctx, var, mc->value);
    std::string rhs = "R.match_cast(" + print_relax_expr(ctx, mc->value) + ", " +
                      print_struct_info(ctx, mc->struct_info) + ")";
    std::string lhs = define_var(ctx, var);
    out.push_back({depth, target_text(lhs, ann) + " = " + rhs});
    return;
  }
  if (auto node = b.value.as_ptr<ir::If>()) {
    std::string ann = annotation(ctx, var, b.value);
    std::string target = target_text(define_var(ctx, var), ann);
    std::string cond = print_relax_expr(ctx, node->condition);
    out.push_back({depth, "if " + cond + ":"});
    print_seq(ctx, *node->true_branch, false, &target, var.struct_info, depth + 1, out);
    out.push_back({depth, "else:"});
    print_seq(ctx, *node->false_branch, false, &target, var.struct_info, depth + 1, out);
    return;
  }
  if (auto func = b.value.as_ptr<ir::Function>()) {
    std::string name = define_var(ctx, var);
    print_function(ctx, *func, name, /*nested=*/true, depth, out);
    return;
  }
  FunctionState* st = current_state(ctx);
  if (ir::is_void_sinfo(var.struct_info) && st && !st->used.count(&var)) {
    out.push_back({depth, print_relax_expr(ctx, b.value)});
    return;
  }
  std::string rhs = assigned_text(ctx, b.value, var.struct_info);
  std::string ann = annotation(ctx, var, b.value);
  std::string lhs = define_var(ctx, var);
  out.push_back({depth, target_text(lhs, ann) + " = " + rhs});
}

void print_seq(PrinterContext& ctx, const ir::SeqExpr& seq, bool use_ret, const std::string* target,
               const Ref<ir::StructInfo>& target_sinfo, int depth, Lines& out) {
  ctx.names.push_frame();
  for (const auto& block : seq.blocks) {
    if (!block->is_dataflow) {
      for (const auto& b : block->bindings) print_binding(ctx, *b, depth, out);
      continue;
    }
    out.push_back({depth, "with R.dataflow():"});
    std::vector<std::string> outputs;
    for (const auto& b : block->bindings) {
      print_binding(ctx, *b, depth + 1, out);
      if (!b->var->is_dataflow()) outputs.push_back(print_relax_expr(ctx, b->var));
    }
    std::string list;
    for (size_t i = 0; i < outputs.size(); ++i) list += (i ? ", " : "") + outputs[i];
    out.push_back({depth + 1, "R.output(" + list + ")"});
  }
  if (use_ret)
    out.push_back({depth, "return " + print_relax_expr(ctx, seq.body)});
  else if (target)
    out.push_back({depth, *target + " = " + assigned_text(ctx, seq.body, target_sinfo)});
  else
    out.push_back({depth, print_relax_expr(ctx, seq.body)});
  ctx.names.pop_frame();
}

void print_function(PrinterContext& ctx, const ir::Function& func, const std::string& name,
                    bool nested, int depth, Lines& out) {
  FunctionState* st = current_state(ctx);
  if (nested) ctx.names.push_frame();
  std::unordered_set<const ir::Object*> signature_vars;
  if (!nested) st->signature_vars = &signature_vars;
  std::string ret = func.ret_struct_info ? print_struct_info(ctx, func.ret_struct_info) : "";
  std::vector<std::string> params;
  for (const auto& p : func.params) {
    std::string ann = p->struct_info ? print_struct_info(ctx, p->struct_info) : "";
    params.push_back(target_text(define_var(ctx, *p), ann));
  }
  if (!nested) st->signature_vars = nullptr;

  std::vector<std::string> own_header;
  std::vector<std::string>& header = nested ? own_header : st->header;
  ir::Attrs attrs = func.attrs;
  if (!nested && attrs.get_string("global_symbol", "\x01") == name) attrs.erase("global_symbol");
  if (!attrs.empty())
    header.push_back("R.func_attr(" + print_attrs_dict(ctx, attrs, /*relax_context=*/true) + ")");

  std::vector<std::string> decorator_args;
  if (!func.is_pure) decorator_args.push_back("pure=False");
  if (!nested && !func.attrs.contains("global_symbol")) decorator_args.push_back("private=True");
  std::string decorator = "@R.function";
  if (!decorator_args.empty()) {
    decorator += "(";
    for (size_t i = 0; i < decorator_args.size(); ++i)
      decorator += (i ? ", " : "") + decorator_args[i];
    decorator += ")";
  }

  Lines body;
  if (func.body) print_seq(ctx, *func.body, true, nullptr, nullptr, depth + 1, body);

  if (nested) {
    // TVM's printer repeats the import header (as far as the text so far uses each dialect)
    // before a nested function, then an empty comment line that prints as bare indentation.
    bool uses_ir = ctx.module && !st->standalone &&
                   (!ctx.module->attrs.empty() || !ctx.module->global_infos.empty());
    if (uses_ir) out.push_back({depth, "# from tvm.script import ir as I"});
    if (ctx.uses_tir) {
      out.push_back({depth, ctx.legacy() ? "# from tvm.script import tir as T"
                                         : "# from tvm.script import tirx as T"});
      if (!ctx.legacy()) out.push_back({depth, "# from tvm.tirx.layout import Axis"});
    }
    out.push_back({depth, "# from tvm.script import relax as R"});
    out.push_back({depth, ""});
  }
  out.push_back({depth, decorator});
  std::string def = "def " + name + "(";
  for (size_t i = 0; i < params.size(); ++i) def += (i ? ", " : "") + params[i];
  def += ")";
  if (!ret.empty()) def += " -> " + ret;
  out.push_back({depth, def + ":"});
  for (const auto& h : header) out.push_back({depth + 1, h});
  out.insert(out.end(), body.begin(), body.end());
  if (nested) {
    out.push_back({0, "", true});
    ctx.names.pop_frame();
  }
}

}  // namespace

void print_relax_function(PrinterContext& ctx, const ir::Function& func, const std::string& name,
                          bool standalone) {
  ctx.uses_relax = true;
  FunctionState st;
  st.standalone = standalone;
  // TVM reserves its dialect prefixes and the module alias.
  for (const char* reserved : {"I", "T", "R", "cls"}) ctx.names.reserve(reserved);
  st.frame = ctx.names.depth() - 1;
  {
    UseCollector collector(st.used);
    if (func.body) collector.visit(func.body);
  }
  StateGuard guard(ctx, &st);
  Lines lines;
  print_function(ctx, func, name, /*nested=*/false, 0, lines);
  Writer& w = ctx.writer;
  int level = 0;
  for (const Line& line : lines) {
    if (line.raw) {
      w.blank_line();
      continue;
    }
    while (level < line.depth) {
      w.indent();
      ++level;
    }
    while (level > line.depth) {
      w.dedent();
      --level;
    }
    w.line(line.text);
  }
  while (level > 0) {
    w.dedent();
    --level;
  }
}

void print_extern_func(PrinterContext& ctx, const ir::ExternFunc& func, const std::string& name) {
  ctx.uses_relax = true;
  std::string text = name + " = R.ExternFunc(" + quote_string(func.global_symbol);
  if (func.struct_info) {
    // An extern function's struct info is printed only when one was given.
    FunctionState st;
    StateGuard guard(ctx, &st);
    text += ", " + print_struct_info(ctx, func.struct_info);
  }
  ctx.writer.line(text + ")");
}

}  // namespace relax::syntax
