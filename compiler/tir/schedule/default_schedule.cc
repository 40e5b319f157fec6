// The default CPU schedule: per block, parallel outer spatial loops over the runtime's threads
// and a vectorized innermost spatial loop, using the schedule primitives. A loop is spatial when
// its variable feeds only spatial block iterators; reduction loops keep their order and stay
// serial, so results do not depend on the thread count. Functions where some loop already has a
// kind, or marked "tir.is_scheduled" (by a schedule file, as TVM's schedulers mark theirs), are
// left alone.
#include <algorithm>
#include <unordered_map>

#include "compiler/tir/schedule/schedule.h"
#include "compiler/tir/util.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::tir {

namespace {

using irt::BlockRealize;
using irt::For;

struct Survey : irt::Visitor {
  std::vector<std::string> blocks;
  std::unordered_map<const Var*, Ref<For>> loops;
  bool has_kinds = false;
  void visit_for(const Ref<For>& s) override {
    loops[s->loop_var.get()] = s;
    if (s->for_kind != irt::ForKind::kSerial) has_kinds = true;
    irt::Visitor::visit_for(s);
  }
  void visit_block(const Ref<irt::Block>& s) override {
    blocks.push_back(s->name_hint);
    irt::Visitor::visit_block(s);
  }
};

// The loops' For nodes when they form a perfect nest ending in one block realize, else empty.
std::vector<Ref<For>> perfect_nest(const std::vector<Ref<Var>>& vars, Ref<BlockRealize>& realize,
                                   const Survey& s) {
  std::vector<Ref<For>> nest;
  for (size_t i = 0; i < vars.size(); ++i) {
    auto it = s.loops.find(vars[i].get());
    if (it == s.loops.end()) return {};
    if (i > 0 && !nest.back()->body.same_as(it->second)) return {};
    nest.push_back(it->second);
  }
  if (nest.empty()) return {};
  realize = nest.back()->body.as<BlockRealize>();
  if (!realize) return {};
  return nest;
}

// A loop is spatial when its variable is used, and only by data-parallel block iterators.
bool is_spatial(const Var* var, const BlockRealize& realize) {
  bool used = false;
  for (size_t i = 0; i < realize.iter_values.size() && i < realize.block->iter_vars.size(); ++i) {
    if (!uses_var(realize.iter_values[i], var)) continue;
    used = true;
    if (realize.block->iter_vars[i]->iter_type != irt::IterType::kDataPar) return false;
  }
  return used;
}

}  // namespace

Ref<irt::PrimFunc> default_cpu_schedule(const Ref<irt::PrimFunc>& func, const Target& target,
                                        ir::DiagnosticBag& diags) {
  Survey survey;
  survey.visit_stmt(func->body);
  if (survey.has_kinds || func->attrs.get_bool("tir.is_scheduled")) return func;
  int vector_bits = target.vector_bits > 0 ? target.vector_bits : 512;
  Schedule sch(func, diags);
  for (const std::string& name : survey.blocks) {
    Survey now;
    now.visit_stmt(sch.func()->body);
    ir::DiagnosticBag ignored;  // blocks without loops (the root) are not errors here
    Schedule probe(sch.func(), ignored);
    auto vars = probe.get_loops(name);
    Ref<BlockRealize> realize;
    auto nest = perfect_nest(vars, realize, now);
    if (nest.empty()) continue;
    std::vector<bool> spatial;
    for (const auto& l : nest) spatial.push_back(is_spatial(l->loop_var.get(), *realize));

    // Vectorize: the innermost spatial loop with a constant extent >= 2, moved innermost.
    int vec = -1;
    for (int i = static_cast<int>(nest.size()) - 1; i >= 0; --i) {
      if (!spatial[static_cast<size_t>(i)]) continue;
      auto extent = irt::as_const_int(nest[static_cast<size_t>(i)]->extent);
      if (extent && *extent >= 2) vec = i;
      break;
    }
    Ref<Var> vector_loop;
    std::vector<Ref<Var>> order = vars;
    if (vec >= 0) {
      DataType element = realize->block->writes.empty() ? DataType::Float32()
                                                        : realize->block->writes[0]->buffer->dtype;
      int64_t lanes = std::max(2, vector_bits / std::max(8, element.bits()));
      int64_t extent = *irt::as_const_int(nest[static_cast<size_t>(vec)]->extent);
      Ref<Var> v = vars[static_cast<size_t>(vec)];
      order.erase(order.begin() + vec);
      if (extent > lanes) {
        auto parts = sch.split(v, {-1, lanes});
        if (parts.size() != 2) continue;
        order.insert(order.begin() + vec, parts[0]);
        vector_loop = parts[1];
      } else {
        vector_loop = v;
      }
      order.push_back(vector_loop);
      if (order.size() > 1 && !sch.reorder(order)) continue;
    }
    // Parallel: the leading spatial loops (before the first reduction loop), fused.
    std::vector<Ref<Var>> leading;
    for (const auto& v : order) {
      if (v.same_as(vector_loop)) break;
      auto it = std::find(vars.begin(), vars.end(), v);
      bool is_sp = it == vars.end() ||
                   spatial[static_cast<size_t>(it - vars.begin())];  // split parts are spatial
      if (!is_sp) break;
      leading.push_back(v);
    }
    if (leading.empty()) {
      if (vector_loop) sch.vectorize(vector_loop);
      continue;
    }
    Ref<Var> outer = leading.size() == 1 ? leading[0] : sch.fuse(leading);
    if (!outer) continue;
    sch.parallel(outer);
    if (vector_loop) sch.vectorize(vector_loop);
  }
  return sch.func();
}

}  // namespace relax::compiler::tir
