// Normalize: struct-info inference for a whole module (analysis/normalize.h). The module level
// lives here (global vars, the order functions are inferred in); functions and bindings are in
// normalize/normalizer.cc, expressions and calls in normalize/expr.cc.
#include "analysis/normalize.h"

#include "analysis/normalize/normalizer.h"

namespace relax::analysis {

namespace normalize_detail {

using ir::make;

Normalizer::Normalizer(ir::IRModule& module, ir::DiagnosticBag& diags,
                       const NormalizeOptions& options)
    : module_(module), diags_(diags), options_(options), registry_(OpRegistry::global()) {}

void Normalizer::run() {
  declare_globals();
  for (const auto& member : module_.functions) {
    if (auto f = member.func.as<ir::Function>()) normalize_function(f);
  }
  // Callers are inferred from the declared signatures (TVM's parser declares every function
  // before parsing any body, so a caller sees R.Object for an unannotated return); only now do
  // the global vars take their functions' final struct info.
  for (const auto& member : module_.functions) {
    if (auto f = member.func.as<ir::Function>(); f && member.gvar)
      member.gvar->struct_info = f->struct_info;
  }
}

// The struct info callers see: the signature of a Relax function, the buffer signature of a
// prim_func, an extern function's declared (or default) struct info.
void Normalizer::declare_globals() {
  for (const auto& member : module_.functions) {
    if (!member.gvar) continue;
    if (auto f = member.func.as_ptr<ir::Function>()) {
      if (member.gvar->struct_info.is<ir::FuncStructInfo>()) continue;
      auto sinfo = make<ir::FuncStructInfo>();
      std::vector<Ref<StructInfo>> params;
      for (const auto& p : f->params)
        params.push_back(p->struct_info ? p->struct_info : make<ir::ObjectStructInfo>());
      sinfo->params = std::move(params);
      sinfo->ret = f->ret_struct_info ? f->ret_struct_info : make<ir::ObjectStructInfo>();
      sinfo->purity = f->is_pure;
      member.gvar->struct_info = sinfo;
    } else if (auto pf = member.func.as_ptr<ir::tir::PrimFunc>()) {
      member.gvar->struct_info = prim_func_struct_info(*pf);
    } else if (auto ext = member.func.as_ptr<ir::ExternFunc>()) {
      member.gvar->struct_info =
          ext->struct_info ? ext->struct_info : Ref<StructInfo>(extern_func_struct_info());
    }
  }
}

}  // namespace normalize_detail

void normalize_module(ir::IRModule& module, ir::DiagnosticBag& diags,
                      const NormalizeOptions& options) {
  normalize_detail::Normalizer normalizer(module, diags, options);
  normalizer.run();
}

}  // namespace relax::analysis
