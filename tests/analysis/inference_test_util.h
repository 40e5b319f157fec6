// Helpers of the inference tests: struct info builders for the algebra tests, and a parse +
// normalize (+ well-formedness) driver for .relax snippets that reads back each binding's
// struct info as printed text and the diagnostics as "CODE@line:col".
#pragma once

#include <string>
#include <vector>

#include "analysis/normalize.h"
#include "analysis/struct_info.h"
#include "analysis/well_formed.h"
#include "ir/source.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::infer_test {

using ir::make;
using ir::Ref;
using ir::StructInfo;
namespace tir = ir::tir;

// --- Struct info builders ---

inline Ref<tir::Var> sym(const std::string& name) {
  return make<tir::Var>(name, ir::DataType::Int64());
}

// A dim: an int or a PrimExpr.
struct Dim {
  Ref<tir::PrimExpr> e;
  Dim(int v) : e(tir::int64(v)) {}                // NOLINT: implicit on purpose
  Dim(Ref<tir::PrimExpr> x) : e(std::move(x)) {}  // NOLINT
  Dim(Ref<tir::Var> x) : e(std::move(x)) {}       // NOLINT
  Dim(Ref<tir::IntImm> x) : e(std::move(x)) {}    // NOLINT
};
inline std::vector<Ref<tir::PrimExpr>> dims(std::initializer_list<Dim> ds) {
  std::vector<Ref<tir::PrimExpr>> out;
  for (const auto& d : ds) out.push_back(d.e);
  return out;
}
inline Ref<tir::PrimExpr> add(Dim a, Dim b) {
  return tir::binary(ir::ObjectKind::kAdd, a.e, b.e);
}
inline Ref<tir::PrimExpr> mul(Dim a, Dim b) {
  return tir::binary(ir::ObjectKind::kMul, a.e, b.e);
}

inline ir::DataType dt(const std::string& s) {
  return s.empty() ? ir::DataType::Void() : *ir::DataType::parse(s);
}

inline Ref<StructInfo> object() {
  return make<ir::ObjectStructInfo>();
}
inline Ref<StructInfo> prim(const std::string& dtype) {
  return make<ir::PrimStructInfo>(dt(dtype));
}
inline Ref<StructInfo> prim_value(Dim v) {
  return make<ir::PrimStructInfo>(v.e->dtype, v.e);
}
inline Ref<StructInfo> shape(int ndim) {
  return make<ir::ShapeStructInfo>(ndim);
}
inline Ref<StructInfo> shape(std::initializer_list<Dim> ds) {
  return make<ir::ShapeStructInfo>(dims(ds));
}
inline Ref<StructInfo> tensor(std::initializer_list<Dim> ds, const std::string& dtype,
                              Ref<ir::VDevice> vd = nullptr) {
  return ir::tensor_sinfo(dims(ds), dt(dtype), std::move(vd));
}
inline Ref<StructInfo> tensor(int ndim, const std::string& dtype, Ref<ir::VDevice> vd = nullptr) {
  return ir::tensor_sinfo(ndim, dt(dtype), std::move(vd));
}
inline Ref<StructInfo> tuple(std::vector<Ref<StructInfo>> fields) {
  return make<ir::TupleStructInfo>(std::move(fields));
}
inline Ref<ir::FuncStructInfo> func(std::vector<Ref<StructInfo>> params, Ref<StructInfo> ret,
                                    bool pure = true) {
  auto f = make<ir::FuncStructInfo>();
  f->params = std::move(params);
  f->ret = std::move(ret);
  f->purity = pure;
  return f;
}
inline Ref<ir::FuncStructInfo> opaque(Ref<StructInfo> ret = nullptr, bool pure = false) {
  auto f = make<ir::FuncStructInfo>();
  f->ret = ret ? ret : object();
  f->purity = pure;
  return f;
}
inline Ref<ir::VDevice> vdevice(const std::string& kind, int id = 0,
                                const std::string& scope = "global") {
  Ref<ir::Target> target;
  if (!kind.empty()) {
    auto config = make<ir::MapValue>();
    config->entries.emplace_back(ir::make_string("kind"), ir::make_string(kind));
    target = make<ir::Target>(config);
  }
  return make<ir::VDevice>(target, id, scope);
}

// The printed text of a struct info (what `relax print` shows).
inline std::string text(const Ref<StructInfo>& s) {
  return s ? syntax::to_text(s) : "(null)";
}

// --- Snippets ---

struct Inferred {
  syntax::FrontendResult result;
  ir::DiagnosticBag diags;

  // The struct info of the last binding (or parameter) named `name` in any function, printed.
  std::string sinfo(const std::string& name) const;
  Ref<ir::Var> var(const std::string& name) const;
  Ref<ir::Function> function(const std::string& name) const {
    if (const auto* m = result.module->find(name)) return m->func.as<ir::Function>();
    return nullptr;
  }
  // "E0350@3:5" for every diagnostic (1-based line and column), in order; warnings too.
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const auto& d : diags.items()) {
      auto file = ir::SourceManager::global().get(d.span.file);
      auto pos = file ? file->position(d.span.begin) : ir::Position{};
      out.push_back(d.code + "@" + std::to_string(pos.line + 1) + ":" +
                    std::to_string(pos.column + 1));
    }
    return out;
  }
  std::string messages() const {
    std::string out;
    for (const auto& d : diags.items()) out += d.code + ": " + d.message + "\n";
    return out;
  }
  std::string print() const {
    return result.is_module_class ? syntax::print_module(*result.module)
                                  : syntax::print_functions(*result.module);
  }
};

// Parses `text` (a module or top-level functions), normalizes it, and with `well_formed` also
// checks well-formedness. Front-end errors are kept in the bag.
inline Inferred infer(const std::string& text, bool ignore_annotations = false,
                      bool well_formed = false) {
  Inferred r;
  r.result = syntax::parse_text(text, "test.relax", r.diags);
  analysis::NormalizeOptions options;
  options.ignore_binding_annotations = ignore_annotations;
  analysis::normalize_module(*r.result.module, r.diags, options);
  if (well_formed) analysis::check_well_formed(*r.result.module, r.diags);
  return r;
}

}  // namespace relax::infer_test
