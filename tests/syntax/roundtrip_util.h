// The round-trip property every printed module must have: parse a text, print it, parse the
// printed text again without errors, get a structurally equal module, and print that to the
// same text (a fixpoint). Shared by the conformance, golden and example round-trip tests.
#pragma once

#include <optional>
#include <string>

#include "ir/structural_equal.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::test {

struct RoundTripResult {
  bool parsed_clean = false;  // the input parsed without errors
  std::string printed;        // the first print
  std::string failure;        // empty when the property holds; else what broke
  bool ok() const { return failure.empty(); }
};

inline std::string print_result(const syntax::FrontendResult& r, syntax::Profile profile) {
  syntax::PrintOptions options;
  options.profile = profile;
  return r.is_module_class ? syntax::print_module(*r.module, options)
                           : syntax::print_functions(*r.module, options);
}

inline std::string diagnostics_text(const ir::DiagnosticBag& diags) {
  std::string out;
  for (const auto& d : diags.items()) out += d.code + ": " + d.message + "\n";
  return out;
}

// Functions printed without a module may print under another name (a private function prints
// as `main`), so they are compared in order; modules are compared member by member by name.
inline std::optional<std::string> result_diff(const syntax::FrontendResult& a,
                                              const syntax::FrontendResult& b) {
  if (a.is_module_class) return ir::structural_diff(a.module, b.module);
  const auto& fa = a.module->functions;
  const auto& fb = b.module->functions;
  if (fa.size() != fb.size()) return std::string("function count differs");
  for (size_t i = 0; i < fa.size(); ++i) {
    if (auto d = ir::structural_diff(fa[i].func, fb[i].func)) return fa[i].gvar->name + ": " + *d;
  }
  return std::nullopt;
}

// Checks the property on the module `first` parsed from a file named `name`.
inline RoundTripResult round_trip_parsed(const syntax::FrontendResult& first,
                                         const std::string& name, syntax::Profile profile) {
  RoundTripResult r;
  r.printed = print_result(first, profile);
  ir::DiagnosticBag diags;
  auto second = syntax::parse_text(r.printed, name + ".printed", diags);
  if (diags.has_errors()) {
    r.failure = "the printed text does not parse:\n" + diagnostics_text(diags);
    return r;
  }
  if (auto diff = result_diff(first, second)) {
    r.failure = "the printed text parses to a different module: " + *diff;
    return r;
  }
  if (print_result(second, profile) != r.printed)
    r.failure = "printing the reparsed module gives a different text (not a fixpoint)";
  return r;
}

inline RoundTripResult round_trip(const std::string& text, const std::string& name,
                                  syntax::Profile profile) {
  ir::DiagnosticBag diags;
  auto first = syntax::parse_text(text, name, diags);
  RoundTripResult r = round_trip_parsed(first, name, profile);
  r.parsed_clean = !diags.has_errors();
  if (!r.parsed_clean) r.failure = "the input has errors:\n" + diagnostics_text(diags) + r.failure;
  return r;
}

inline const char* profile_name(syntax::Profile profile) {
  return profile == syntax::Profile::kLegacy ? "legacy" : "current";
}

}  // namespace relax::test
