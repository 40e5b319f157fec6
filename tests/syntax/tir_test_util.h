// Helpers of the TIR front end and printer tests: parse a text, print it in a profile, check
// the round trip (reparse is structurally equal, printing is a fixpoint), find diagnostics.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "ir/source.h"
#include "ir/structural_equal.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::tirtest {

struct Parsed {
  syntax::FrontendResult result;
  ir::DiagnosticBag diags;
};

inline Parsed parse(const std::string& text, const std::string& name = "test.relax") {
  Parsed p;
  p.result = syntax::parse_text(text, name, p.diags);
  return p;
}

inline std::string print(const Parsed& p, syntax::Profile profile = syntax::Profile::kLegacy) {
  syntax::PrintOptions options;
  options.profile = profile;
  return p.result.is_module_class ? syntax::print_module(*p.result.module, options)
                                  : syntax::print_functions(*p.result.module, options);
}

inline std::string diag_text(const ir::DiagnosticBag& diags) {
  std::string out;
  for (const auto& d : diags.items()) out += d.code + ": " + d.message + "\n";
  return out;
}

// The structural difference of two parsed texts. Functions printed alone may print under
// another name (a private function prints as `main`), so they are compared in order.
inline std::optional<std::string> module_diff(const Parsed& a, const Parsed& b) {
  if (a.result.is_module_class) return ir::structural_diff(a.result.module, b.result.module);
  const auto& fa = a.result.module->functions;
  const auto& fb = b.result.module->functions;
  if (fa.size() != fb.size()) return std::string("function count differs");
  for (size_t i = 0; i < fa.size(); ++i) {
    if (auto d = ir::structural_diff(fa[i].func, fb[i].func)) return fa[i].gvar->name + ": " + *d;
  }
  return std::nullopt;
}

// Parses `text` (which must be free of errors), prints it, and checks that the printed text
// parses to a structurally equal module and prints identically. Returns the printed text.
inline std::string roundtrip(const std::string& text,
                             syntax::Profile profile = syntax::Profile::kLegacy) {
  Parsed first = parse(text);
  INFO(diag_text(first.diags));
  REQUIRE_FALSE(first.diags.has_errors());
  std::string printed = print(first, profile);
  Parsed second = parse(printed);
  INFO("printed:\n" << printed << "\n" << diag_text(second.diags));
  REQUIRE_FALSE(second.diags.has_errors());
  CHECK_FALSE(module_diff(first, second).has_value());
  CHECK(print(second, profile) == printed);
  return printed;
}

// The first diagnostic with `code`, or null.
inline const ir::Diagnostic* find_code(const ir::DiagnosticBag& diags, const std::string& code) {
  for (const auto& d : diags.items()) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

// The 1-based line and column of a diagnostic's start.
inline std::pair<uint32_t, uint32_t> line_col(const ir::Diagnostic& d) {
  auto file = ir::SourceManager::global().get(d.span.file);
  if (!file) return {0, 0};
  auto pos = file->position(d.span.begin);
  return {pos.line + 1, pos.column + 1};
}

// The prim_func named `name` of a parsed module.
inline ir::Ref<ir::tir::PrimFunc> prim_func(const Parsed& p, const std::string& name) {
  return ir::as_prim_func(p.result.module->lookup(name));
}

}  // namespace relax::tirtest
