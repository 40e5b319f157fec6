// Running passes with instruments: printing before/after, timing, verification.
#include "compiler/pass.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "analysis/well_formed.h"
#include "compiler/relax/kills.h"
#include "compiler/tir/verify.h"
#include "syntax/printer.h"

namespace relax::compiler {

void add_timing(Timings& timings, const std::string& name, double seconds) {
  auto it =
      std::find_if(timings.begin(), timings.end(), [&](const auto& e) { return e.first == name; });
  if (it == timings.end())
    timings.emplace_back(name, seconds);
  else
    it->second += seconds;
}

StepTimer::StepTimer(Timings* timings, std::string name)
    : timings_(timings), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}

StepTimer::~StepTimer() {
  if (timings_) {
    add_timing(*timings_, name_,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
}

ir::DiagnosticBag& PassContext::diagnostics() {
  return diags ? *diags : own_diags_;
}

namespace {
bool listed(const std::vector<std::string>& names, const std::string& pass) {
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& n) { return n == "all" || n == pass; });
}

// Well-formedness errors that a pass of the pipeline exists to prevent: left by a later pass
// when that pass has not run, the note names it.
struct Prerequisite {
  const char* code;
  const char* pass;
  const char* why;
};
const Prerequisite kPrerequisites[] = {
    {"E0406", "RemovePurityChecking",
     "it marks pure functions `relax.force_pure`, so that the impure calls lowering makes "
     "(allocations, builtins) are allowed in them"},
    {"E0405", "ToNonDataflow",
     "it turns dataflow blocks into ordinary binding blocks, where the impure calls lowering "
     "makes are allowed"},
};

// Notes the first diagnostic of each kind after `pass` (`noted` holds the codes noted so far).
void add_prerequisite_note(ir::Diagnostic& d, const std::string& pass, const PassContext& ctx,
                           std::vector<std::string>& noted) {
  for (const Prerequisite& p : kPrerequisites) {
    if (d.code != p.code || pass == p.pass || ctx.has_run(p.pass)) continue;
    if (std::find(noted.begin(), noted.end(), d.code) != noted.end()) continue;
    noted.push_back(d.code);
    d.note(std::string(p.pass) + " has not run: run it before " + pass + " (the default " +
           "pipeline does); " + p.why);
  }
}

void print_module(PassContext& ctx, const char* when, const std::string& pass,
                  const ir::IRModule& module) {
  std::ostream& out = ctx.log ? *ctx.log : std::cerr;
  out << "# IR " << when << " " << pass << "\n" << syntax::print_module(module) << "\n\n";
}
}  // namespace

bool PassContext::should_print_before(const std::string& pass) const {
  return listed(print_before, pass);
}
bool PassContext::should_print_after(const std::string& pass) const {
  return listed(print_after, pass);
}
bool PassContext::has_run(const std::string& pass) const {
  return std::find(ran_.begin(), ran_.end(), pass) != ran_.end();
}

ir::Ref<ir::IRModule> run_pass(const Pass& pass, ir::Ref<ir::IRModule> module, PassContext& ctx) {
  if (pass.opt_level > ctx.opt_level) return module;
  if (!pass.children.empty()) {
    for (const Pass& child : pass.children) {
      module = run_pass(child, std::move(module), ctx);
      if (!module) return nullptr;
    }
    return module;
  }
  if (ctx.should_print_before(pass.name)) print_module(ctx, "before", pass.name, *module);
  auto start = std::chrono::steady_clock::now();
  ir::Ref<ir::IRModule> result = pass.fn(module, ctx);
  if (!ctx.has_run(pass.name)) ctx.ran_.push_back(pass.name);
  if (ctx.time_passes) {
    add_timing(ctx.timings(), pass.name,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (!result) return nullptr;
  if (ctx.should_print_after(pass.name)) print_module(ctx, "after", pass.name, *result);
  if (ctx.verify) {
    ir::DiagnosticBag found;
    analysis::check_well_formed(*result, found);
    relax_passes::check_kills(*result, found);  // no pass moves a use past a kill
    for (const auto& member : result->functions) {
      if (auto f = ir::as_prim_func(member.func)) {
        tir::VerifyOptions options;
        options.cpu = false;  // thread bindings are checked by the target's code generator
        options.func_name = member.gvar->name;
        tir::verify_prim_func(*f, found, options);
      }
    }
    std::vector<std::string> noted;
    for (auto& d : found.items()) {
      d.message = "after pass " + pass.name + ": " + d.message;
      add_prerequisite_note(d, pass.name, ctx, noted);
      ctx.diagnostics().items().push_back(d);
    }
  }
  return result;
}

Pass sequential(std::string name, std::vector<Pass> passes, std::string doc) {
  Pass p;
  p.name = std::move(name);
  p.doc = std::move(doc);
  p.children = std::move(passes);
  return p;
}

PassRegistry& PassRegistry::global() {
  static PassRegistry registry;
  return registry;
}

void PassRegistry::add(Pass pass) {
  for (Pass& p : passes_) {
    if (p.name == pass.name) {
      p = std::move(pass);
      return;
    }
  }
  passes_.push_back(std::move(pass));
}

const Pass* PassRegistry::find(const std::string& name) const {
  for (const Pass& p : passes_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

void PassRegistry::add_alias(std::string alias, std::string name) {
  for (auto& [a, n] : aliases_) {
    if (a == alias) {
      n = std::move(name);
      return;
    }
  }
  aliases_.emplace_back(std::move(alias), std::move(name));
}

PassRegistry::Lookup PassRegistry::lookup(const std::string& name) const {
  Lookup out;
  if ((out.pass = find(name))) return out;
  for (const char* prefix : {"tvm.relax.transform.", "relax.transform."}) {
    std::string_view p(prefix);
    if (name.size() > p.size() && name.starts_with(p)) {
      Lookup inner = lookup(name.substr(p.size()));
      if (!inner.pass) return out;
      inner.note = inner.note.empty()
                       ? "`" + name + "` is written `" + inner.pass->name + "` here"
                       : "`" + name + "` is TVM's name for `" + inner.pass->name + "`";
      return inner;
    }
  }
  for (const auto& [alias, target] : aliases_) {
    if (alias != name) continue;
    if ((out.pass = find(target))) out.note = "`" + alias + "` is TVM's name for `" + target + "`";
    return out;
  }
  return out;
}

std::vector<std::string> PassRegistry::names() const {
  std::vector<std::string> out;
  for (const Pass& p : passes_) out.push_back(p.name);
  for (const auto& [alias, target] : aliases_) out.push_back(alias);
  return out;
}

}  // namespace relax::compiler
