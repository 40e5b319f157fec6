// Pass infrastructure: a pass is a named function IRModule -> IRModule with an opt level and a
// doc; `sequential` composes passes; a PassContext carries options, diagnostics and instruments
// (print IR before/after a pass, time passes, verify between passes). Passes never throw for
// user errors: they report diagnostics and return the module unchanged where they cannot go on.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::compiler {

class PassContext;

// Named steps and their wall time in seconds, in first-run order (--time-passes): the passes,
// and the code generator's steps ("TIR lowering", "LLVM optimization", "linking", ...).
using Timings = std::vector<std::pair<std::string, double>>;
// Adds `seconds` to the entry `name` (a new entry at the end the first time).
void add_timing(Timings& timings, const std::string& name, double seconds);

// Times a scope into `timings` (nothing when it is null).
class StepTimer {
 public:
  StepTimer(Timings* timings, std::string name);
  ~StepTimer();
  StepTimer(const StepTimer&) = delete;
  StepTimer& operator=(const StepTimer&) = delete;

 private:
  Timings* timings_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

using PassFn = std::function<ir::Ref<ir::IRModule>(ir::Ref<ir::IRModule>, PassContext&)>;

struct Pass {
  std::string name;   // "LegalizeOps" (TVM's names where a TVM pass does the same job)
  int opt_level = 0;  // runs when the context's opt_level >= this
  std::string doc;    // one line, for `relax passes`
  PassFn fn;
  std::vector<Pass> children;  // set for sequential passes
};

class PassContext {
 public:
  int opt_level = 2;
  // Print the module (printer text) before / after the named passes; "all" means every pass.
  std::vector<std::string> print_before;
  std::vector<std::string> print_after;
  bool time_passes = false;
  // After every pass, check the module's well-formedness, that no use follows a kill
  // (compiler/relax/kills.h, E0788) and verify its prim_funcs (on by default in debug builds).
#ifdef NDEBUG
  bool verify = false;
#else
  bool verify = true;
#endif
  std::ostream* log = nullptr;         // where instruments print (stderr when null)
  ir::DiagnosticBag* diags = nullptr;  // where passes report; null means a private bag
  // Free-form options ("tir.disable_vectorize" -> "1", "relax.FuseOps.max_depth" -> "256").
  std::unordered_map<std::string, std::string> config;

  ir::DiagnosticBag& diagnostics();
  // Timings collected by time_passes: pass name -> seconds, in first-run order.
  Timings& timings() {
    return timings_;
  }
  bool should_print_before(const std::string& pass) const;
  bool should_print_after(const std::string& pass) const;
  // Whether a pass of this name has run in this context (for the verifier's hints).
  bool has_run(const std::string& pass) const;

 private:
  friend ir::Ref<ir::IRModule> run_pass(const Pass&, ir::Ref<ir::IRModule>, PassContext&);
  std::vector<std::string> ran_;
  ir::DiagnosticBag own_diags_;
  Timings timings_;
};

// Runs a pass (or a sequential pass, child by child) with the context's instruments.
ir::Ref<ir::IRModule> run_pass(const Pass& pass, ir::Ref<ir::IRModule> module, PassContext& ctx);

Pass sequential(std::string name, std::vector<Pass> passes, std::string doc = "");

// Every named pass, for `relax passes` and for plugins that add their own.
class PassRegistry {
 public:
  static PassRegistry& global();
  void add(Pass pass);
  const Pass* find(const std::string& name) const;
  const std::vector<Pass>& all() const { return passes_; }

  // Another name of a registered pass: TVM's name where ours differs (VMBuiltinLower for
  // LowerRuntimeBuiltin), so that pass lists written for TVM work.
  void add_alias(std::string alias, std::string name);
  struct Lookup {
    const Pass* pass = nullptr;  // null when the name is not known
    std::string note;            // for an alias: "`VMBuiltinLower` is TVM's name for ..."
  };
  // A pass by its name, an alias, or TVM's qualified name (`relax.transform.LegalizeOps`).
  Lookup lookup(const std::string& name) const;
  // Every name lookup accepts unqualified (names, then aliases), for suggestions.
  std::vector<std::string> names() const;
  const std::vector<std::pair<std::string, std::string>>& aliases() const { return aliases_; }

 private:
  std::vector<Pass> passes_;
  std::vector<std::pair<std::string, std::string>> aliases_;  // alias -> name
};

}  // namespace relax::compiler
