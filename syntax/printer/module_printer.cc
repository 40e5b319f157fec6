// The module level of the printer: the import-comment header, the `@I.ir_module` class with its
// attributes, global infos and members in TVM's order (prim_funcs, extern funcs, Relax
// functions, each by name, `main` last), or functions printed alone.
#include <algorithm>

#include "syntax/metadata.h"
#include "syntax/printer.h"
#include "syntax/printer/context.h"

namespace relax::syntax {

namespace {

int member_group(const ir::ObjectRef& func) {
  if (func.is<ir::tir::PrimFunc>()) return 0;
  if (func.is<ir::ExternFunc>()) return 1;
  return 2;
}

std::string header(const PrinterContext& ctx) {
  std::string out;
  if (!ctx.type_vars.empty()) out += "# from typing import TypeVar\n";
  if (ctx.uses_ir) out += "# from tvm.script import ir as I\n";
  if (ctx.uses_tir) {
    out += ctx.legacy()
               ? "# from tvm.script import tir as T\n"
               : "# from tvm.script import tirx as T\n# from tvm.tirx.layout import Axis\n";
  }
  if (ctx.uses_relax) out += "# from tvm.script import relax as R\n";
  if (!out.empty()) out += "\n";
  // The current profile's TypeVars, sorted, just above the module or the first function.
  for (const auto& name : ctx.type_vars) out += name + " = TypeVar(" + quote_string(name) + ")\n";
  return out;
}

// The constants printed as metadata references, by index, when every index up to the last
// holds a constant with a payload; empty otherwise.
std::vector<const ir::TensorData*> metadata_payloads(const PrinterContext& ctx) {
  std::vector<const ir::TensorData*> out;
  for (const auto& [key, entry] : ctx.metadata) {
    if (entry.index < 0 || !entry.data) return {};
    auto i = static_cast<size_t>(entry.index);
    if (i >= out.size()) out.resize(i + 1);
    out[i] = entry.data;
  }
  for (const auto* d : out) {
    if (!d) return {};
  }
  return out;
}

// Text around the printed module when constants were printed as metadata references: TVM's
// metadata section above everything (show_meta), else its closing comment.
void wrap_metadata(const PrinterContext& ctx, std::string& text) {
  if (ctx.metadata.empty()) return;
  if (ctx.options.show_meta) {
    auto payloads = metadata_payloads(ctx);
    if (!payloads.empty()) {
      text = metadata_statement(payloads) + text;
      return;
    }
  }
  text += "\n\n# Metadata omitted. Use show_meta=True in script() method to show it.";
}

// The name a function prints under when printed alone: its global symbol, else "main".
std::string standalone_name(const ir::ObjectRef& func) {
  const ir::Attrs* attrs = nullptr;
  if (auto f = func.as_ptr<ir::Function>()) attrs = &f->attrs;
  if (auto f = func.as_ptr<ir::tir::PrimFunc>()) attrs = &f->attrs;
  if (attrs) {
    std::string gs = attrs->get_string("global_symbol");
    if (!gs.empty()) return gs;
  }
  return "main";
}

}  // namespace

std::string print_module(const ir::IRModule& module, const PrintOptions& options) {
  PrinterContext ctx(options, &module);
  ctx.uses_ir = true;
  Writer& w = ctx.writer;
  w.line("@I.ir_module");
  w.line("class " + module.name + ":");
  w.indent();
  if (!module.attrs.empty())
    w.line("I.module_attrs(" + print_attrs_dict(ctx, module.attrs, true) + ")");
  if (!module.global_infos.empty()) {
    std::string infos = "{";
    auto sorted = module.global_infos;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i) infos += ", ";
      infos += quote_string(sorted[i].first) + ": [";
      for (size_t k = 0; k < sorted[i].second.size(); ++k) {
        if (k) infos += ", ";
        const ir::ObjectRef& info = sorted[i].second[k];
        if (auto vd = info.as_ptr<ir::VDevice>()) {
          infos += "I.vdevice(" +
                   print_attr_value(ctx, vd->target ? ir::ObjectRef(vd->target->config) : nullptr,
                                    true) +
                   ", " + std::to_string(vd->vdevice_id) + ", " + quote_string(vd->memory_scope) +
                   ")";
        } else if (info.is<ir::DummyGlobalInfo>()) {
          infos += "I.dummy_global_info()";
        } else {
          infos += print_attr_value(ctx, info, true);
        }
      }
      infos += "]";
    }
    w.line("I.module_global_infos(" + infos + "})");
  }
  std::vector<const ir::IRModule::Member*> members;
  for (const auto& m : module.functions) {
    if (m.func) members.push_back(&m);
  }
  std::stable_sort(members.begin(), members.end(), [](const auto* a, const auto* b) {
    int ga = member_group(a->func), gb = member_group(b->func);
    if (ga != gb) return ga < gb;
    bool a_main = a->gvar->name == "main", b_main = b->gvar->name == "main";
    if (a_main != b_main) return b_main;
    return a->gvar->name < b->gvar->name;
  });
  // Function names are not reserved: members are referred to as `cls.f`, so a local variable
  // may share a member's name (as in TVM's output).
  for (const auto* m : members) {
    if (auto ext = m->func.as_ptr<ir::ExternFunc>()) {
      print_extern_func(ctx, *ext, m->gvar->name);
      continue;
    }
    ctx.names.push_frame();
    if (auto f = m->func.as_ptr<ir::Function>())
      print_relax_function(ctx, *f, m->gvar->name, false);
    else if (auto pf = m->func.as_ptr<ir::tir::PrimFunc>())
      print_prim_func(ctx, *pf, m->gvar->name, false);
    ctx.names.pop_frame();
    w.blank_line();
  }
  if (members.empty()) w.line("pass");
  w.dedent();
  std::string text = header(ctx) + w.finish();
  wrap_metadata(ctx, text);
  return text;
}

std::string print_functions(const ir::IRModule& module, const PrintOptions& options) {
  PrinterContext ctx(options, &module);
  Writer& w = ctx.writer;
  bool first = true;
  for (const auto& m : module.functions) {
    if (!m.func) continue;
    if (!first) w.blank_line();
    first = false;
    ctx.names.push_frame();
    std::string name = standalone_name(m.func);
    if (auto f = m.func.as_ptr<ir::Function>())
      print_relax_function(ctx, *f, name, true);
    else if (auto pf = m.func.as_ptr<ir::tir::PrimFunc>())
      print_prim_func(ctx, *pf, name, true);
    else if (auto ext = m.func.as_ptr<ir::ExternFunc>())
      print_extern_func(ctx, *ext, m.gvar->name);
    ctx.names.pop_frame();
  }
  std::string text = header(ctx) + w.finish();
  wrap_metadata(ctx, text);
  return text;
}

std::string to_text(const ir::Ref<ir::StructInfo>& sinfo, const PrintOptions& options) {
  PrinterContext ctx(options);
  return print_struct_info(ctx, sinfo);
}

std::string to_text(const ir::Ref<ir::tir::PrimExpr>& expr, const PrintOptions& options) {
  PrinterContext ctx(options);
  return print_prim_expr(ctx, expr, true);
}

std::string to_text(const ir::Ref<ir::Expr>& expr, const PrintOptions& options) {
  PrinterContext ctx(options);
  return print_relax_expr(ctx, expr);
}

}  // namespace relax::syntax
