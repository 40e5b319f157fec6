// DefaultCPUSchedule: applies default_cpu_schedule (default_schedule.cc) to every prim_func of
// the module, so that legalized kernels get parallel outer loops and vectorized inner loops
// without tuning. Leaves alone: Relax functions, and prim_funcs that already choose loop kinds
// or carry "tir.is_scheduled" (a user's own schedule is kept as written).
#include "compiler/tir/schedule/schedule.h"

namespace relax::compiler::tir {

Pass default_cpu_schedule_pass(const Target& target) {
  Pass p;
  p.name = "DefaultCPUSchedule";
  p.opt_level = 1;
  p.doc =
      "Schedules unscheduled prim_funcs for the CPU: fused parallel outer loops, vectorized "
      "inner loops";
  p.fn = [target](ir::Ref<ir::IRModule> m, PassContext& ctx) {
    auto out = ir::make<ir::IRModule>();
    out->name = m->name;
    out->attrs = m->attrs;
    out->global_infos = m->global_infos;
    for (const auto& member : m->functions) {
      if (auto pf = ir::as_prim_func(member.func)) {
        auto scheduled = default_cpu_schedule(pf, target, ctx.diagnostics());
        out->functions.push_back({member.gvar, scheduled ? scheduled : pf});
      } else {
        out->functions.push_back(member);
      }
    }
    return out;
  };
  return p;
}

}  // namespace relax::compiler::tir
