// LegalizeOps: the pass and the per-call driver (see legalize.h). It rewrites op calls bound in
// Relax functions (every block, if branches and nested functions) into call_tir of the PrimFuncs
// the op families build; it leaves alone calls of module functions, of call_tir and other
// structural ops, calls with unknown shapes, and ops without a legalization (so a lowered module:
// vm.*, memory.* and builtin.* calls, kills, packed calls, passes through unchanged).
#include <unordered_map>
#include <unordered_set>

#include "analysis/arith/substitute.h"
#include "analysis/normalize.h"
#include "analysis/ops/op_registry.h"
#include "compiler/legalize/legalize_impl.h"
#include "compiler/relax/pass_util.h"
#include "compiler/tir/verify.h"
#include "ir/structural_equal.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::legalize {

using ir::make;
using ir::Ref;

namespace diag {
inline constexpr const char* kNoLegalization = "E0740";  // op left as is: no legalization
inline constexpr const char* kUnknownShape = "E0741";    // op left as is: shapes not known
inline constexpr const char* kUnsupported = "E0742";     // attributes the legalization lacks
inline constexpr const char* kInternal = "E0743";        // a legalization built invalid TIR
}  // namespace diag

// ---- Ctx ---------------------------------------------------------------------------------------

const ir::TensorStructInfo* Ctx::tensor_sinfo(size_t i) const {
  if (i >= call.args.size() || !call.args[i]->struct_info) return nullptr;
  auto t = call.args[i]->struct_info.as_ptr<ir::TensorStructInfo>();
  if (!t || !t->shape_values() || t->is_unknown_dtype()) return nullptr;
  return t;
}

Expr Ctx::remap(const Expr& dim) const {
  return analysis::arith::substitute(dim, [this](const Ref<ir::tir::Var>& v) -> Expr {
    auto it = vars_.find(v.get());
    if (it != vars_.end()) return it->second;
    auto fresh = make<ir::tir::Var>(v->name, v->dtype);
    vars_[v.get()] = fresh;
    var_pairs_.emplace_back(v, fresh);
    return fresh;
  });
}

std::optional<Tensor> Ctx::input_expr(const Ref<ir::Expr>& e) {
  if (!e->struct_info) return std::nullopt;
  auto t = e->struct_info.as_ptr<ir::TensorStructInfo>();
  if (!t || !t->shape_values() || t->is_unknown_dtype()) return std::nullopt;
  Exprs shape;
  for (const auto& d : *t->shape_values()) shape.push_back(remap(d));
  size_t n = params.size();
  std::string nm =
      n < 26 ? std::string(1, static_cast<char>('A' + n)) : "input" + std::to_string(n);
  Tensor x = b.placeholder(shape, t->dtype, nm);
  params.emplace_back(x);
  args.push_back(e);
  return x;
}

std::optional<std::vector<Tensor>> Ctx::tuple_inputs(size_t i) {
  if (i >= call.args.size()) return std::nullopt;
  const Ref<ir::Expr>& arg = call.args[i];
  std::vector<Ref<ir::Expr>> fields;
  if (auto t = arg.as_ptr<ir::Tuple>()) {
    fields = t->fields;
  } else if (auto ts = arg->struct_info.as_ptr<ir::TupleStructInfo>(); ts && arg.is<ir::Var>()) {
    for (size_t k = 0; k < ts->fields.size(); ++k) {
      auto item = make<ir::TupleGetItem>(arg, static_cast<int>(k));
      item->struct_info = ts->fields[k];
      fields.push_back(item);
    }
  } else {
    return std::nullopt;
  }
  std::vector<Tensor> out;
  for (const auto& f : fields) {
    auto t = input_expr(f);
    if (!t) return std::nullopt;
    out.push_back(*t);
  }
  return out;
}

ir::Ref<ir::tir::Var> Ctx::scalar_input(size_t i) {
  if (i >= call.args.size()) return nullptr;
  auto p = call.args[i]->struct_info.as_ptr<ir::PrimStructInfo>();
  if (!p || p->dtype.is_void()) return nullptr;
  size_t n = params.size();
  std::string nm =
      n < 26 ? std::string(1, static_cast<char>('A' + n)) : "input" + std::to_string(n);
  auto v = make<ir::tir::Var>(nm, p->dtype);
  params.emplace_back(v);
  args.push_back(call.args[i]);
  return v;
}

std::optional<Tensor> Ctx::input(size_t i) {
  if (i >= call.args.size()) return std::nullopt;
  auto x = input_expr(call.args[i]);
  auto perm = input_perm.find(i);
  if (!x || perm == input_perm.end()) return x;
  // The argument in its canonical layout: canonical dim d is the argument's dim perm[d].
  const std::vector<size_t>& p = perm->second;
  if (p.size() != x->ndim()) return std::nullopt;
  Exprs shape;
  for (size_t d = 0; d < p.size(); ++d) shape.push_back(x->shape()[p[d]]);
  Tensor src = *x;
  return b.compute(
      shape, src.dtype(), src.name() + "_relayout",
      [&](const Exprs& idx) {
        Exprs at(p.size());
        for (size_t d = 0; d < p.size(); ++d) at[p[d]] = idx[d];
        return src(at);
      },
      "ax");
}

std::optional<Exprs> Ctx::out_shape() const {
  if (!call.struct_info) return std::nullopt;
  auto t = call.struct_info.as_ptr<ir::TensorStructInfo>();
  if (!t || !t->shape_values()) return std::nullopt;
  Exprs shape;
  for (const auto& d : *t->shape_values()) shape.push_back(remap(d));
  if (!out_perm) return shape;
  if (out_perm->size() != shape.size()) return std::nullopt;
  Exprs canonical;
  for (size_t d : *out_perm) canonical.push_back(shape[d]);
  return canonical;
}

std::optional<std::vector<std::pair<Exprs, ir::DataType>>> Ctx::out_fields() const {
  auto tup = call.struct_info.as_ptr<ir::TupleStructInfo>();
  if (!tup) return std::nullopt;
  std::vector<std::pair<Exprs, ir::DataType>> out;
  for (const auto& f : tup->fields) {
    auto t = f.as_ptr<ir::TensorStructInfo>();
    if (!t || !t->shape_values()) return std::nullopt;
    Exprs shape;
    for (const auto& d : *t->shape_values()) shape.push_back(remap(d));
    out.emplace_back(shape, t->dtype);
  }
  return out;
}

ir::DataType Ctx::out_dtype() const {
  if (auto t = call.struct_info.as_ptr<ir::TensorStructInfo>()) return t->dtype;
  return ir::DataType::Void();
}

std::optional<std::vector<int64_t>> Ctx::ints(const std::string& key) const {
  auto v = call.attrs.find(key);
  if (!v) return std::nullopt;
  std::vector<int64_t> out;
  if (auto i = v.as_ptr<ir::IntValue>()) return std::vector<int64_t>{i->value};
  if (auto a = v.as_ptr<ir::ArrayValue>()) {
    for (const auto& item : a->items) {
      if (auto i = item.as_ptr<ir::IntValue>())
        out.push_back(i->value);
      else if (auto imm = item.as_ptr<ir::tir::IntImm>())
        out.push_back(imm->value);
      else
        return std::nullopt;
    }
    return out;
  }
  return std::nullopt;
}

int64_t Ctx::int_attr(const std::string& key, int64_t fallback) const {
  auto v = call.attrs.find(key);
  if (auto i = v.as_ptr<ir::IntValue>()) return i->value;
  if (auto imm = v.as_ptr<ir::tir::IntImm>()) return imm->value;
  return fallback;
}

double Ctx::float_attr(const std::string& key, double fallback) const {
  auto v = call.attrs.find(key);
  if (auto f = v.as_ptr<ir::FloatValue>()) return f->value;
  if (auto i = v.as_ptr<ir::IntValue>()) return static_cast<double>(i->value);
  if (auto f = v.as_ptr<ir::tir::FloatImm>()) return f->value;
  return fallback;
}

std::string Ctx::str_attr(const std::string& key, const std::string& fallback) const {
  if (auto it = attr_override.find(key); it != attr_override.end()) return it->second;
  if (auto s = call.attrs.find(key).as_ptr<ir::StringValue>()) return s->value;
  return fallback;
}

bool Ctx::bool_attr(const std::string& key, bool fallback) const {
  if (auto b = call.attrs.find(key).as_ptr<ir::BoolValue>()) return b->value;
  return fallback;
}

bool Ctx::unsupported(const std::string& why) {
  diags.error(diag::kUnsupported, call.span, "cannot legalize " + call.op_name() + ": " + why);
  return false;
}

// ---- Shared helpers ----------------------------------------------------------------------------

Expr broadcast_load(const Tensor& x, const Exprs& idx, const Exprs& out_shape) {
  size_t r = x.ndim();
  size_t off = idx.size() - r;
  Exprs in;
  for (size_t d = 0; d < r; ++d) {
    bool one = ir::tir::is_const_int(x.shape()[d], 1);
    bool out_one = ir::tir::is_const_int(out_shape[d + off], 1);
    in.push_back(one && !out_one ? te::i64(0) : idx[d + off]);
  }
  return x(in);
}

int64_t norm_axis(int64_t axis, int64_t ndim) {
  return axis < 0 ? axis + ndim : axis;
}

Tensor checked_indices(Ctx& c, const Tensor& indices, const IndexExtent& extent, bool negative,
                       const std::string& what) {
  std::string op = c.call.op_name();
  if (op.starts_with("relax.")) op = "R." + op.substr(6);
  return c.b.opaque(
      indices.shape(), ir::DataType::Int64(), indices.name() + "_checked", {indices},
      [&](const Tensor& out) {
        return te::loop_nest(
            indices.shape(),
            [&](const Exprs& i) {
              Expr k = te::cast(ir::DataType::Int64(), indices(i));
              Expr n = extent(i);
              Expr lo = negative ? te::sub(te::i64(0), n) : te::i64(0);
              auto n_const = ir::tir::as_const_int(n);
              std::string range =
                  !n_const ? "for its axis"
                           : "[" + (negative ? std::to_string(-*n_const) : std::string("0")) +
                                 ", " + std::to_string(*n_const) + ")";
              Expr ok = te::logical_and(te::cmp(ir::ObjectKind::kGE, k, lo),
                                        te::cmp(ir::ObjectKind::kLT, k, n));
              return Ref<ir::tir::Stmt>(make<ir::tir::AssertStmt>(
                  ok, make<ir::tir::StringImm>(op + ": " + what + " out of range " + range),
                  te::store(out, i, k)));
            },
            "j");
      });
}

// ---- Table and driver --------------------------------------------------------------------------

namespace {

const Table& table() {
  static const Table t = [] {
    Table tab;
    register_elementwise(tab);
    register_reduce(tab);
    register_manipulate(tab);
    register_nn(tab);
    register_misc(tab);
    register_conv(tab);
    register_pool(tab);
    register_nn_misc(tab);
    register_scatter(tab);
    register_einsum(tab);
    register_quantize(tab);
    register_layout(tab);
    adapt_layouts(tab);  // last: wraps the convolutions, pools and resize2d
    return tab;
  }();
  return t;
}

const PackedTable& packed_table() {
  static const PackedTable t = [] {
    PackedTable tab;
    register_runtime(tab);
    return tab;
  }();
  return t;
}

bool all_shapes_known(const ir::Call& call) {
  auto known = [](const Ref<ir::StructInfo>& s, auto&& self) -> bool {
    if (!s) return false;
    if (auto t = s.as_ptr<ir::TensorStructInfo>()) return t->shape_values() != nullptr;
    if (auto sh = s.as_ptr<ir::ShapeStructInfo>()) return sh->values.has_value();
    if (auto tup = s.as_ptr<ir::TupleStructInfo>()) {
      for (const auto& f : tup->fields)
        if (!self(f, self)) return false;
    }
    return true;
  };
  for (const auto& a : call.args)
    if (!known(a->struct_info, known)) return false;
  return known(call.struct_info, known);
}

}  // namespace

bool has_legalization(const std::string& op_name) {
  return table().count(op_name) != 0 || packed_table().count(op_name) != 0;
}

std::optional<Ref<ir::Expr>> legalize_packed(const ir::Call& call, ir::DiagnosticBag& diags) {
  auto it = packed_table().find(call.op_name());
  if (it == packed_table().end()) return std::nullopt;
  Ref<ir::Expr> out = it->second(call, diags);
  if (!out) return std::nullopt;
  return out;
}

std::vector<std::string> legalized_ops() {
  std::vector<std::string> out;
  for (const auto* op : analysis::OpRegistry::global().all())
    if (has_legalization(op->name)) out.push_back(op->name);
  return out;
}

std::vector<std::string> unlegalized_ops() {
  std::vector<std::string> out;
  for (const auto* op : analysis::OpRegistry::global().all())
    if (!has_legalization(op->name)) out.push_back(op->name);
  return out;
}

std::optional<Legalized> legalize(const ir::Call& call, ir::DiagnosticBag& diags) {
  auto it = table().find(call.op_name());
  if (it == table().end()) return std::nullopt;
  if (!all_shapes_known(call)) return std::nullopt;
  Ctx ctx(call, diags);
  if (!it->second(ctx) || (!ctx.out && ctx.outs.empty())) return std::nullopt;
  if (ctx.out) ctx.params.emplace_back(*ctx.out);
  for (const auto& o : ctx.outs) ctx.params.emplace_back(o);
  // Vars of buffer shapes that no dim defines alone become trailing scalar parameters.
  std::unordered_set<const ir::tir::Var*> defined;
  std::vector<Ref<ir::tir::Var>> used;
  class VarCollector : public ir::tir::Visitor {
   public:
    std::vector<Ref<ir::tir::Var>>* out = nullptr;
    void visit_var(const Ref<ir::tir::Var>& v) override {
      for (const auto& u : *out)
        if (u == v) return;
      out->push_back(v);
    }
  } collector;
  collector.out = &used;
  for (const auto& p : ctx.params) {
    if (!p.tensor.buffer) continue;
    for (const auto& d : p.tensor.shape()) {
      if (auto v = d.as_ptr<ir::tir::Var>()) defined.insert(v);
      collector.visit_expr(d);
    }
  }
  // Symbolic values the computations use (a strided_slice begin `rank * 8`) are parameters too.
  for (const auto& stage : ctx.b.stages()) {
    for (const auto& d : stage.out->shape) collector.visit_expr(d);
    if (stage.value) collector.visit_expr(stage.value);
    if (stage.init) collector.visit_expr(stage.init);
    if (stage.opaque_body) collector.visit_stmt(stage.opaque_body);
  }
  Legalized out;
  for (const auto& v : used) {
    if (defined.count(v.get())) continue;
    auto orig = ctx.relax_var_of(v.get());
    if (!orig) continue;
    ctx.params.emplace_back(v);
    out.tir_vars.push_back(orig);
  }
  out.name_hint = ctx.name;
  out.func = ctx.b.build(ctx.params);
  // A legalization that builds an invalid prim_func is a bug of ours: report it and leave the
  // call, rather than let code generation fail on it later.
  ir::DiagnosticBag problems;
  compiler::tir::VerifyOptions verify;
  verify.cpu = false;
  verify.func_name = ctx.name;
  if (!compiler::tir::verify_prim_func(*out.func, problems, verify)) {
    diags.error(diag::kInternal, call.span,
                "internal error: the legalization of " + call.op_name() +
                    " built an invalid prim_func (" + problems.items()[0].message +
                    "); the call is left as is");
    return std::nullopt;
  }
  out.args = ctx.args;
  out.out_sinfo = call.struct_info;
  return out;
}

// ---- The pass ----------------------------------------------------------------------------------

namespace {

bool is_structural(const std::string& op) {
  static const std::unordered_set<std::string> names = {"relax.call_tir",
                                                        "relax.call_tir_inplace",
                                                        "relax.call_tir_with_grad",
                                                        "relax.call_dps_packed",
                                                        "relax.call_pure_packed",
                                                        "relax.call_inplace_packed",
                                                        "relax.call_builtin_with_ctx",
                                                        "relax.make_closure",
                                                        "relax.invoke_closure",
                                                        "relax.invoke_pure_closure",
                                                        "relax.shape_of",
                                                        "relax.tensor_to_shape",
                                                        "relax.shape_to_tensor",
                                                        "relax.null_value",
                                                        "relax.print",
                                                        "relax.assert_op",
                                                        "relax.hint_on_device",
                                                        "relax.to_vdevice",
                                                        "relax.grad.start_checkpoint",
                                                        "relax.grad.end_checkpoint"};
  return names.count(op) != 0 || op.starts_with("relax.builtin.") ||
         op.starts_with("relax.memory.") || op.starts_with("relax.vm.");
}

class Rewriter {
 public:
  Rewriter(ir::IRModule& module, ir::DiagnosticBag& diags, const std::vector<std::string>& keep)
      : module_(module), diags_(diags), keep_(keep.begin(), keep.end()) {}

  Ref<ir::Expr> expr(const Ref<ir::Expr>& e) {
    if (!e) return e;
    if (auto seq = e.as<ir::SeqExpr>()) return seq_expr(seq);
    if (auto f = e.as<ir::Function>()) return function(f);
    if (auto i = e.as<ir::If>()) {
      auto out = ir::copy(i);
      out->true_branch = seq_expr(i->true_branch);
      out->false_branch = seq_expr(i->false_branch);
      return out;
    }
    if (auto c = e.as<ir::Call>()) return call(c);
    return e;
  }

  Ref<ir::Function> function(const Ref<ir::Function>& f) {
    auto out = ir::copy(f);
    relax_passes::NameSupply names(f);
    names_ = &names;
    out->body = seq_expr(f->body);
    names_ = nullptr;
    return out;
  }

 private:
  Ref<ir::SeqExpr> seq_expr(const Ref<ir::SeqExpr>& s) {
    if (!s) return s;
    std::vector<Ref<ir::BindingBlock>> blocks;
    auto* saved_emit = emit_;
    bool saved_dataflow = emit_dataflow_;
    for (const auto& blk : s->blocks) {
      std::vector<Ref<ir::Binding>> bindings;
      emit_ = &bindings;
      emit_dataflow_ = blk->is_dataflow;
      for (const auto& bnd : blk->bindings) {
        Ref<ir::Expr> v = expr(bnd->value);
        if (v.same_as(bnd->value)) {
          bindings.push_back(bnd);
        } else if (auto mc = bnd.as<ir::MatchCast>()) {
          bindings.push_back(make<ir::MatchCast>(mc->var, v, mc->struct_info));
        } else {
          bindings.push_back(make<ir::VarBinding>(bnd->var, v));
        }
      }
      blocks.push_back(make<ir::BindingBlock>(bindings, blk->is_dataflow));
    }
    emit_ = saved_emit;
    emit_dataflow_ = saved_dataflow;
    auto out = make<ir::SeqExpr>(blocks, expr(s->body));
    out->struct_info = s->struct_info;
    out->span = s->span;
    return out;
  }

  Ref<ir::Expr> call(const Ref<ir::Call>& c) {
    const std::string& op = c->op_name();
    if (op.empty() || keep_.count(op)) return c;
    const auto* info = analysis::OpRegistry::global().find(op);
    if (!has_legalization(op)) {
      // Structural ops (call_tir, closures, shapes, memory, VM builtins) are lowered by other
      // passes; any other op left here cannot run.
      if (info && !is_structural(op) && !warned_.count(op)) {
        warned_.insert(op);
        diags_.warning(diag::kNoLegalization, c->span,
                       "no legalization for " + op + " yet; the call is left as is");
      }
      return c;
    }
    auto not_legalized = [&]() -> Ref<ir::Expr> {
      if (!all_shapes_known(*c))
        diags_.report(
            ir::Severity::kNote, diag::kUnknownShape, c->span,
            op + " is not legalized: the shapes of its arguments or result are not known");
      return c;
    };
    if (packed_table().count(op)) {
      auto packed = legalize_packed(*c, diags_);
      return packed ? *packed : not_legalized();
    }
    auto leg = legalize(*c, diags_);
    if (!leg) return not_legalized();
    // Items of a tuple variable (`t[0]`) are bound to variables first: call arguments are leaves.
    for (auto& a : leg->args) {
      if (!a.is<ir::TupleGetItem>()) continue;
      if (!emit_ || !names_) return not_legalized();
      std::string name = names_->fresh(emit_dataflow_ ? "lv" : "gv");
      Ref<ir::Var> var = emit_dataflow_ ? Ref<ir::Var>(make<ir::DataflowVar>(name, a->struct_info))
                                        : make<ir::Var>(name, a->struct_info);
      var->span = c->span;
      auto b = make<ir::VarBinding>(var, a);
      b->span = c->span;
      emit_->push_back(b);
      a = var;
    }
    Ref<ir::GlobalVar> gvar = add_func(*leg);
    auto tuple = make<ir::Tuple>(leg->args);
    std::vector<Ref<ir::StructInfo>> fields;
    for (const auto& a : leg->args) fields.push_back(a->struct_info);
    tuple->struct_info = make<ir::TupleStructInfo>(fields);
    std::vector<Ref<ir::Expr>> call_args{gvar, tuple};
    if (!leg->tir_vars.empty()) {
      auto shape = make<ir::ShapeExpr>(leg->tir_vars);
      shape->struct_info = make<ir::ShapeStructInfo>(leg->tir_vars);
      call_args.push_back(shape);
    }
    auto out = make<ir::Call>(ir::Op::get("relax.call_tir"), call_args, ir::Attrs{},
                              std::vector<Ref<ir::StructInfo>>{leg->out_sinfo});
    out->struct_info = c->struct_info;
    out->span = c->span;
    return out;
  }

  // The module's prim_func structurally equal to `leg.func` (the first in module order), else a
  // new member named after the op. Kernels are found by structural hash and names by a counter
  // per op, so legalizing n calls takes time linear in n however many kernels there are.
  Ref<ir::GlobalVar> add_func(const Legalized& leg) {
    if (!kernels_indexed_) {
      for (const auto& m : module_.functions) {
        if (auto pf = ir::as_prim_func(m.func)) kernels_[ir::structural_hash(pf)].push_back(m.gvar);
      }
      kernels_indexed_ = true;
    }
    auto& same_hash = kernels_[ir::structural_hash(leg.func)];
    for (const auto& gvar : same_hash) {
      if (ir::structural_equal(module_.lookup(gvar->name), leg.func)) return gvar;
    }
    int& k = next_suffix_[leg.name_hint];  // the names with a lower suffix are taken
    std::string name = k == 0 ? leg.name_hint : leg.name_hint + std::to_string(k);
    while (module_.find(name)) name = leg.name_hint + std::to_string(++k);
    ++k;
    auto gvar = make<ir::GlobalVar>(name);
    module_.add(gvar, leg.func);
    same_hash.push_back(gvar);
    return gvar;
  }

  ir::IRModule& module_;
  ir::DiagnosticBag& diags_;
  std::unordered_set<std::string> keep_;
  std::unordered_set<std::string> warned_;
  // Where bindings a legalization needs go (before the binding being rewritten), and the names
  // free in the function being rewritten.
  std::vector<Ref<ir::Binding>>* emit_ = nullptr;
  bool emit_dataflow_ = false;
  relax_passes::NameSupply* names_ = nullptr;
  bool kernels_indexed_ = false;
  std::unordered_map<size_t, std::vector<Ref<ir::GlobalVar>>> kernels_;  // structural hash
  std::unordered_map<std::string, int> next_suffix_;                     // name hint -> suffix
};

}  // namespace

Ref<ir::IRModule> legalize_module(const ir::IRModule& module, ir::DiagnosticBag& diags,
                                  const std::vector<std::string>& keep) {
  auto out = make<ir::IRModule>(module);
  Rewriter rw(*out, diags, keep);
  std::vector<ir::IRModule::Member> members = module.functions;
  for (const auto& m : members) {
    if (auto f = ir::as_relax_function(m.func)) out->add(m.gvar, rw.function(f));
  }
  return out;
}

Pass legalize_ops_pass(std::vector<std::string> keep) {
  Pass p;
  p.name = "LegalizeOps";
  p.opt_level = 0;
  p.doc = "Replace calls of Relax ops with known shapes by call_tir of TIR PrimFuncs";
  p.fn = [keep = std::move(keep)](Ref<ir::IRModule> m, PassContext& ctx) {
    auto out = legalize_module(*m, ctx.diagnostics(), keep);
    // The new calls and the kernels' global vars get their struct info.
    analysis::normalize_module(*out, ctx.diagnostics());
    return out;
  };
  return p;
}

}  // namespace relax::compiler::legalize
