// Running passes with instruments: printing before/after, timing, verification.
#include "compiler/pass.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "analysis/well_formed.h"
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
  if (ctx.time_passes) {
    add_timing(ctx.timings(), pass.name,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (!result) return nullptr;
  if (ctx.should_print_after(pass.name)) print_module(ctx, "after", pass.name, *result);
  if (ctx.verify) {
    ir::DiagnosticBag found;
    analysis::check_well_formed(*result, found);
    for (const auto& member : result->functions) {
      if (auto f = ir::as_prim_func(member.func)) {
        tir::VerifyOptions options;
        options.cpu = false;  // thread bindings are checked by the target's code generator
        options.func_name = member.gvar->name;
        tir::verify_prim_func(*f, found, options);
      }
    }
    for (auto& d : found.items()) {
      d.message = "after pass " + pass.name + ": " + d.message;
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

}  // namespace relax::compiler
