// The lowering pipeline: the steps in order, the verifier between them, and the steps as module
// passes.
#include "compiler/tir/lower.h"

#include "compiler/tir/util.h"
#include "compiler/tir/verify.h"
#include "ir/depth_limit.h"
#include "ir/module.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::tir {

const std::vector<NamedLowerStep>& lowering_steps() {
  static const std::vector<NamedLowerStep> kSteps = {
      {"LowerInitBlock", &lower_init_block},
      {"ConvertBlocksToOpaque", &convert_blocks_to_opaque},
      {"LowerMatchBuffer", &lower_match_buffer},
      {"LowerOpaqueBlock", &lower_opaque_block},
      {"InstrumentBoundCheckers", &instrument_bound_checkers},
      {"FlattenBuffer", &flatten_buffer},
      {"Simplify", &simplify},
      {"LowerParallelLoops", &lower_parallel_loops},
      {"VectorizeLoop", &vectorize_loop},
      {"UnrollLoop", &unroll_loop},
      {"Simplify", &simplify},
  };
  return kSteps;
}

namespace {

struct BlockFinder : irt::Visitor {
  bool found = false;
  void visit_block_realize(const Ref<irt::BlockRealize>&) override { found = true; }
  void visit_block(const Ref<irt::Block>&) override { found = true; }
};

// Steps after which no block may be left.
bool is_after_block_lowering(const std::string& step) {
  return step != "LowerInitBlock" && step != "ConvertBlocksToOpaque" && step != "LowerMatchBuffer";
}

// The steps recurse along expressions: a prim_func nesting deeper than ir::kTirCompileNesting
// (a chain of thousands of terms) is refused with E0708 rather than overflow the stack.
bool check_nesting(const PrimFunc& func, ir::DiagnosticBag& diags, const std::string& name) {
  const ir::Object* deepest = nullptr;
  uint32_t height = ir::prim_expr_height(func, &deepest);
  if (height <= ir::kTirCompileNesting.max) return true;
  ir::Span at = deepest && deepest->span.is_known() ? deepest->span : func.span;
  diags
      .error(ir::kTirCompileNesting.code, at,
             "prim_func `" + name + "` has an expression nested " + std::to_string(height) +
                 " levels deep; TIR lowering handles up to " +
                 std::to_string(ir::kTirCompileNesting.max))
      .note("a chain `a + b + ...` of N terms is N levels: split it into several statements");
  return false;
}

}  // namespace

bool is_lowered(const PrimFunc& func) {
  BlockFinder f;
  f.visit_stmt(func.body);
  return !f.found;
}

Ref<PrimFunc> lower_prim_func(const Ref<PrimFunc>& func, const Target& target,
                              ir::DiagnosticBag& diags, const LowerOptions& options,
                              const std::string& name) {
  std::string fname = name;
  if (fname.empty()) fname = func->attrs.get_string("global_symbol", "main");
  LowerContext ctx{target, diags, options, fname};
  if (!check_nesting(*func, diags, fname)) return nullptr;
  Ref<PrimFunc> f = func;
  for (const NamedLowerStep& step : lowering_steps()) {
    if (step.step == &instrument_bound_checkers && !options.bounds_check) continue;
    Ref<PrimFunc> next = step.step(f, ctx);
    if (!next) return nullptr;
    f = next;
    if (options.verify) {
      VerifyOptions vo;
      vo.lowered = is_after_block_lowering(step.name);
      vo.cpu = target.kind == Target::Kind::kLLVM;
      vo.stage = step.name;
      vo.func_name = fname;
      if (!verify_prim_func(*f, diags, vo)) return nullptr;
    }
    if (options.after_step) options.after_step(step.name, f);
  }
  return f;
}

std::vector<Pass> lowering_passes(const Target& target) {
  std::vector<Pass> passes;
  const auto& steps = lowering_steps();
  for (size_t i = 0; i < steps.size(); ++i) {
    const NamedLowerStep step = steps[i];
    Pass p;
    p.name = std::string("tir.") + step.name;
    p.opt_level = 0;
    p.doc = "TIR lowering step " + std::string(step.name) +
            " on every prim_func (docs/tir-lowering.md)";
    bool verify_lowered = is_after_block_lowering(step.name);
    p.fn = [step, target, verify_lowered](ir::Ref<ir::IRModule> module,
                                          PassContext& pctx) -> ir::Ref<ir::IRModule> {
      auto out = ir::copy(module);
      LowerOptions options;
      options.verify = pctx.verify || kVerifyByDefault;
      options.bounds_check = bounds_check_enabled(pctx);
      bool failed = false;
      for (size_t i = 0; i < out->functions.size(); ++i) {
        const auto& member = out->functions[i];
        auto pf = ir::as_prim_func(member.func);
        if (!pf) continue;
        LowerContext ctx{target, pctx.diagnostics(), options, member.gvar->name};
        if (!check_nesting(*pf, pctx.diagnostics(), member.gvar->name)) {
          failed = true;
          continue;
        }
        auto next = step.step(pf, ctx);
        if (!next) {
          failed = true;
          continue;
        }
        if (options.verify) {
          VerifyOptions vo;
          vo.lowered = verify_lowered;
          vo.cpu = target.kind == Target::Kind::kLLVM;
          vo.stage = step.name;
          vo.func_name = member.gvar->name;
          if (!verify_prim_func(*next, pctx.diagnostics(), vo)) failed = true;
        }
        out->functions.set_func(i, next);
      }
      return failed ? nullptr : out;
    };
    passes.push_back(std::move(p));
  }
  return passes;
}

bool bounds_check_enabled(const PassContext& ctx) {
  auto it = ctx.config.find(kBoundsCheckConfig);
  return it != ctx.config.end() && (it->second == "1" || it->second == "true");
}

void set_bounds_check(PassContext& ctx, bool on) {
  if (on)
    ctx.config[kBoundsCheckConfig] = "1";
  else
    ctx.config.erase(kBoundsCheckConfig);
}

Pass instrument_bound_checkers_pass(const Target& target) {
  Pass p;
  p.name = "tir.InstrumentBoundCheckers";
  p.opt_level = 0;
  p.doc =
      "Lower the blocks of every prim_func and check each buffer index against its shape at run "
      "time (relax build/run --bounds-check)";
  p.fn = [target](ir::Ref<ir::IRModule> module, PassContext& pctx) -> ir::Ref<ir::IRModule> {
    auto out = ir::copy(module);
    LowerOptions options;
    options.verify = pctx.verify || kVerifyByDefault;
    options.bounds_check = true;
    bool failed = false;
    for (size_t i = 0; i < out->functions.size(); ++i) {
      const ir::IRModule::Member& member = out->functions[i];
      auto pf = ir::as_prim_func(member.func);
      if (!pf) continue;
      LowerContext ctx{target, pctx.diagnostics(), options, member.gvar->name};
      Ref<PrimFunc> f = pf;
      for (const NamedLowerStep& step : lowering_steps()) {
        f = step.step(f, ctx);
        if (!f) break;
        if (options.verify) {
          VerifyOptions vo;
          vo.lowered = is_after_block_lowering(step.name);
          vo.cpu = target.kind == Target::Kind::kLLVM;
          vo.stage = step.name;
          vo.func_name = member.gvar->name;
          if (!verify_prim_func(*f, pctx.diagnostics(), vo)) f = nullptr;
        }
        if (!f || step.step == &instrument_bound_checkers) break;
      }
      if (!f) {
        failed = true;
        continue;
      }
      out->functions.set_func(i, f);
    }
    return failed ? nullptr : out;
  };
  return p;
}

}  // namespace relax::compiler::tir
