// Helpers of the Relax front-end and printer tests: parse a text, print it back, find
// functions and bindings, and read diagnostics as (code, line, column).
#pragma once

#include <string>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/module.h"
#include "ir/source.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::test {

struct Parsed {
  syntax::FrontendResult result;
  ir::DiagnosticBag diags;

  ir::Ref<ir::Function> function(const std::string& name) const {
    if (const auto* m = result.module->find(name)) return m->func.as<ir::Function>();
    return nullptr;
  }
  // "E0501@3:5" for every error (1-based line and column), in order.
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const auto& d : diags.items()) {
      if (d.severity != ir::Severity::kError) continue;
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

// The bindings of a function body's blocks, flattened.
inline std::vector<ir::Ref<ir::Binding>> bindings(const ir::Ref<ir::Function>& f) {
  std::vector<ir::Ref<ir::Binding>> out;
  for (const auto& b : f->body->blocks)
    out.insert(out.end(), b->bindings.begin(), b->bindings.end());
  return out;
}

}  // namespace relax::test
