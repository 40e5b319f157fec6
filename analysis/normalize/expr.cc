// The normalizer's expression level: leaves get their intrinsic struct info, tuples and tuple
// items are typed structurally, if/else joins its erased branches, op calls are bound to their
// schema and inferred through the registry, calls of functions and closures derive their result
// from the callee's function struct info.
#include <algorithm>

#include "analysis/normalize/normalizer.h"
#include "analysis/ops/call_binding.h"
#include "analysis/ops/infer_context.h"
#include "analysis/use_span.h"
#include "ir/suggest.h"

namespace relax::analysis::normalize_detail {

using ir::make;
using ir::ObjectKind;

Ref<ir::Expr> Normalizer::normalize_arg(const Ref<ir::Expr>& e) {
  Ref<ir::Expr> out = normalize_expr(e);
  // A use of a variable of void struct info is the empty tuple itself (TVM's normalizer).
  if (auto v = out.as_ptr<ir::Var>(); v && ir::is_void_sinfo(v->struct_info)) {
    auto unit = make<ir::Tuple>();
    unit->struct_info = ir::void_sinfo();
    return unit;
  }
  return out;
}

Ref<ir::Expr> Normalizer::normalize_expr(const Ref<ir::Expr>& e) {
  if (!e) return e;
  switch (e->kind()) {
    case ObjectKind::kVar:
    case ObjectKind::kDataflowVar:
      // Parameters and bound variables already carry their struct info; one without is used
      // outside its scope (well-formedness reports it).
      if (!e->struct_info) {
        set_sinfo(e, nullptr);
        poison(e.get());
      }
      return e;
    case ObjectKind::kGlobalVar: {
      if (!e->struct_info) {
        auto g = e.as_ptr<ir::GlobalVar>();
        if (const auto* member = module_.find(g->name);
            member && member->gvar && member->gvar->struct_info) {
          e->struct_info = member->gvar->struct_info;
        } else {
          set_sinfo(e, nullptr);
          poison(e.get());
        }
      }
      return e;
    }
    case ObjectKind::kConstant:
      if (!e->struct_info) set_sinfo(e, struct_info_of(e));
      // A constant without a value or an annotation (a metadata reference without its section,
      // E0248) stays poisoned through every later normalization: passes report nothing on it.
      if (!e.as_ptr<ir::Constant>()->data && e->struct_info.is<ir::ObjectStructInfo>())
        poison(e.get());
      return e;
    case ObjectKind::kShapeExpr:
    case ObjectKind::kPrimValue:
    case ObjectKind::kStringImm:
    case ObjectKind::kDataTypeImm:
      if (!e->struct_info) set_sinfo(e, struct_info_of(e));
      return e;
    case ObjectKind::kExternFunc:
      if (!e->struct_info) set_sinfo(e, extern_func_struct_info());
      return e;
    case ObjectKind::kOp:
      return e;
    case ObjectKind::kTuple: {
      auto t = e.as<ir::Tuple>();
      std::vector<Ref<StructInfo>> fields;
      bool failed = false;
      for (auto& f : t->fields) {
        Ref<ir::Expr> nf = normalize_arg(f);
        if (!nf.same_as(f)) f = nf;
        failed |= !nf || is_poisoned(nf.get());
        fields.push_back(struct_info_of(nf));
      }
      set_sinfo(e, make<ir::TupleStructInfo>(std::move(fields)));
      if (failed) poison(e.get());
      return e;
    }
    case ObjectKind::kTupleGetItem:
      return normalize_tuple_get_item(e.as<ir::TupleGetItem>());
    case ObjectKind::kCall:
      return normalize_call(e.as<ir::Call>());
    case ObjectKind::kIf:
      return normalize_if(e.as<ir::If>());
    case ObjectKind::kSeqExpr: {
      // A sequence outside a function body or branch (not in A-normal form): inferred in place.
      normalize_seq(e.as<ir::SeqExpr>());
      return e;
    }
    case ObjectKind::kFunction:
      normalize_function(e.as<ir::Function>());
      return e;
    default:
      set_sinfo(e, nullptr);
      return e;
  }
}

Ref<ir::Expr> Normalizer::normalize_tuple_get_item(const Ref<ir::TupleGetItem>& item) {
  Ref<ir::Expr> tuple = normalize_arg(item->tuple);
  if (!tuple.same_as(item->tuple)) item->tuple = tuple;
  Ref<StructInfo> ts = struct_info_of(tuple);
  bool failed = !tuple || is_poisoned(tuple.get());
  if (auto t = ts.as_ptr<ir::TupleStructInfo>()) {
    if (item->index >= 0 && static_cast<size_t>(item->index) < t->fields.size()) {
      Ref<StructInfo> field = t->fields[static_cast<size_t>(item->index)];
      set_sinfo(item, field);
      if (failed && field.is<ir::ObjectStructInfo>()) poison(item.get());
      return item;
    }
    diags_.error(codes::kTupleIndex, span_of(item, tuple ? tuple->span : ir::Span::unknown()),
                 "index " + std::to_string(item->index) + " is out of range for a tuple of " +
                     std::to_string(t->fields.size()) + " field" +
                     (t->fields.size() == 1 ? "" : "s") + " (" + struct_info_text(ts) + ")");
  } else if (!failed) {
    diags_.error(codes::kTupleIndex, span_of(item, tuple ? tuple->span : ir::Span::unknown()),
                 "only tuples can be indexed; this value has struct info " + struct_info_text(ts));
  }
  set_sinfo(item, nullptr);
  poison(item.get());
  return item;
}

Ref<ir::Expr> Normalizer::normalize_if(const Ref<ir::If>& node) {
  Ref<ir::Expr> cond = normalize_arg(node->condition);
  if (!cond.same_as(node->condition)) node->condition = cond;
  // Each branch sees the enclosing scope; what its match_casts define stays inside it.
  auto branch = [&](const Ref<ir::SeqExpr>& seq) -> Ref<StructInfo> {
    if (!seq) return make<ir::ObjectStructInfo>();
    size_t saved = scope_vars_.size();
    normalize_seq(seq);
    scope_vars_.resize(saved);
    return erase_in_scope(seq->struct_info);
  };
  Ref<StructInfo> then_sinfo = branch(node->true_branch);
  Ref<StructInfo> else_sinfo = branch(node->false_branch);
  set_sinfo(node, struct_info_lca(then_sinfo, else_sinfo, analyzer_));
  bool failed = (node->true_branch && is_poisoned(node->true_branch.get())) ||
                (node->false_branch && is_poisoned(node->false_branch.get()));
  if (failed && node->struct_info.is<ir::ObjectStructInfo>()) poison(node.get());
  return node;
}

Ref<ir::Expr> Normalizer::normalize_call(const Ref<ir::Call>& call) {
  for (auto& s : call->sinfo_args) s = complete_written(s, call->span);
  std::vector<Ref<ir::Expr>> args;
  args.reserve(call->args.size());
  for (const auto& a : call->args) args.push_back(normalize_arg(a));
  if (call->op.is<ir::Op>()) return normalize_op_call(call, std::move(args));
  Ref<ir::Expr> callee = normalize_arg(call->op);
  return normalize_function_call(call, callee, std::move(args));
}

namespace {

std::string short_name(const std::string& op) {
  return op.rfind("relax.", 0) == 0 ? "R." + op.substr(6) : op;
}

// Ops other IRs (and other frameworks) have that Relax expresses with its own syntax.
const char* const kConditionalHint =
    "Relax has no conditional op: write a Python `if` statement whose branches bind the same "
    "name (`if c:` `y = a` `else:` `y = b`); for an element-wise choice, R.where(cond, a, b); "
    "see docs/text-format.md#conditionals";
const char* const kLoopHint =
    "Relax has no loop op: write the loop as a recursive function, a local @R.function that "
    "calls itself in one branch of an `if` (as examples/while_loop.relax does); see "
    "docs/text-format.md#loops-as-recursive-functions";
const std::pair<const char*, const char*> kNotInRelax[] = {
    {"relax.if_else", kConditionalHint}, {"relax.if_then_else", kConditionalHint},
    {"relax.cond", kConditionalHint},    {"relax.loop", kLoopHint},
    {"relax.while_loop", kLoopHint},     {"relax.for_loop", kLoopHint},
    {"relax.fori_loop", kLoopHint},      {"relax.scan", kLoopHint},
};

}  // namespace

Ref<ir::Expr> Normalizer::normalize_op_call(const Ref<ir::Call>& call,
                                            std::vector<Ref<ir::Expr>> args) {
  Ref<ir::Call> current = call;
  bool args_changed = args.size() != call->args.size();
  for (size_t i = 0; !args_changed && i < args.size(); ++i)
    args_changed = !args[i].same_as(call->args[i]);
  if (args_changed) {
    current = make<ir::Call>(call->op, std::move(args), call->attrs, call->sinfo_args);
    current->span = call->span;
  }
  const std::string& name = call->op.as_ptr<ir::Op>()->name;
  const OpInfo* info = registry_.find(name);
  if (!info) {
    auto& d = diags_.error(codes::kUnknownOp, call->span, "unknown op `" + short_name(name) + "`");
    auto cached = suggestions_.find(name);
    if (cached == suggestions_.end()) {
      // Compared without the common "relax." prefix, which would only dilute the distance.
      auto bare = [](std::string_view n) { return n.starts_with("relax.") ? n.substr(6) : n; };
      ir::ClosestMatch match(bare(name));
      for (const OpInfo* op : registry_.all()) match.consider(bare(op->name));
      std::string best;
      for (const OpInfo* op : registry_.all()) {
        if (!match.best().empty() && bare(op->name) == match.best()) {
          best = op->name;
          break;
        }
      }
      cached = suggestions_.emplace(name, best).first;
    }
    const std::string& best = cached->second;
    const char* hint = nullptr;
    for (const auto& [op, text] : kNotInRelax) {
      if (name == op) hint = text;
    }
    if (hint)
      d.note(hint);
    else if (!best.empty())
      d.note("did you mean `" + short_name(best) + "`?");
    d.note("the result of an unknown op is taken to be R.Object");
    set_sinfo(current, nullptr);
    poison(current.get());
    return current;
  }
  Ref<ir::Call> bound = bind_op_call(*info, current, diags_);
  if (!bound) {
    set_sinfo(current, nullptr);
    poison(current.get());
    return current;
  }
  // Keywords that named arguments became new expressions: infer them too.
  auto infer_args = [&](const Ref<ir::Call>& c) {
    bool failed = false;
    for (auto& a : c->args) {
      if (a && !a->struct_info && !a.is<ir::Op>()) {
        Ref<ir::Expr> na = normalize_arg(a);
        if (!na.same_as(a)) a = na;
      }
      failed |= !a || is_poisoned(a.get());
    }
    return failed;
  };
  bool arg_failed = infer_args(bound);
  auto make_context = [&](const Ref<ir::Call>& c) {
    std::vector<Ref<StructInfo>> arg_sinfo;
    std::vector<std::optional<ir::Span>> origins;
    for (const auto& a : c->args) {
      arg_sinfo.push_back(struct_info_of(a));
      std::optional<ir::Span> origin;
      if (auto v = a.as_ptr<ir::Var>()) {
        if (auto it = origins_.find(v); it != origins_.end()) origin = it->second;
      }
      origins.push_back(origin);
    }
    InferContext ctx(*info, c, std::move(arg_sinfo), analyzer_, diags_);
    ctx.set_arg_origins(std::move(origins));
    ctx.set_binding_lookup([this](const ir::Var& v) -> Ref<ir::Expr> {
      auto it = bound_values_.find(&v);
      return it == bound_values_.end() ? nullptr : it->second;
    });
    return ctx;
  };
  if (arg_failed) {
    // An argument is unknown because of an error already reported: do not report it again.
    set_sinfo(bound, nullptr);
    poison(bound.get());
    return bound;
  }
  if (info->normalize) {
    InferContext ctx = make_context(bound);
    Ref<ir::Call> normalized = info->normalize(ctx);
    if (!normalized || ctx.failed()) {
      set_sinfo(bound, nullptr);
      poison(bound.get());
      return bound;
    }
    if (!normalized.same_as(bound)) {
      if (!normalized->span.is_known()) normalized->span = bound->span;
      bound = normalized;
      if (infer_args(bound)) {
        set_sinfo(bound, nullptr);
        poison(bound.get());
        return bound;
      }
    }
  }
  InferContext ctx = make_context(bound);
  Ref<StructInfo> sinfo =
      info->infer ? info->infer(ctx) : Ref<StructInfo>(make<ir::ObjectStructInfo>());
  // An op may report an error and still know its result (call_tir's declared output when the
  // prim_func does not match it); only a null result is unknown.
  if (!sinfo) {
    set_sinfo(bound, nullptr);
    poison(bound.get());
    return bound;
  }
  set_sinfo(bound, sinfo);
  return bound;
}

std::string Normalizer::callee_name(const Ref<ir::Expr>& callee) const {
  if (auto g = callee.as_ptr<ir::GlobalVar>()) return "cls." + g->name;
  if (auto v = callee.as_ptr<ir::Var>()) return v->name;
  if (auto x = callee.as_ptr<ir::ExternFunc>()) return "\"" + x->global_symbol + "\"";
  return "the callee";
}

std::string Normalizer::parameter_name(const Ref<ir::Expr>& callee, size_t i) const {
  std::string name;
  if (auto g = callee.as_ptr<ir::GlobalVar>()) {
    if (const auto* member = module_.find(g->name)) {
      if (auto f = member->func.as_ptr<ir::Function>(); f && i < f->params.size())
        name = f->params[i]->name;
      if (auto pf = member->func.as_ptr<ir::tir::PrimFunc>(); pf && i < pf->params.size()) {
        auto buf = pf->buffer_of(pf->params[i]);
        name = buf ? buf->name : pf->params[i]->name;
      }
    }
  } else if (auto v = callee.as_ptr<ir::Var>()) {
    if (auto it = local_functions_.find(v);
        it != local_functions_.end() && i < it->second->params.size()) {
      name = it->second->params[i]->name;
    }
  }
  if (name.empty()) return "parameter " + std::to_string(i);
  return "parameter `" + name + "`";
}

Ref<ir::Expr> Normalizer::normalize_function_call(const Ref<ir::Call>& call, Ref<ir::Expr> callee,
                                                  std::vector<Ref<ir::Expr>> args) {
  if (callee && !callee.same_as(call->op)) call->op = callee;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].same_as(call->args[i])) call->args[i] = args[i];
  }
  bool failed = !callee || is_poisoned(callee.get());
  std::vector<Ref<StructInfo>> arg_sinfo;
  for (const auto& a : call->args) {
    arg_sinfo.push_back(struct_info_of(a));
    failed |= !a || is_poisoned(a.get());
  }
  Ref<StructInfo> cs = struct_info_of(callee);
  auto func = cs.as_ptr<ir::FuncStructInfo>();
  if (!func) {
    if (!failed) {
      ir::Span at = call->span;
      if (auto v = callee.as_ptr<ir::Var>()) {
        ir::Span found = find_identifier(call->span, v->name);
        if (found.is_known()) at = found;
      } else if (callee && callee->span.is_known()) {
        at = callee->span;
      }
      diags_.error(codes::kNotCallable, at,
                   "`" + callee_name(callee) + "` is not a function: its struct info is " +
                       struct_info_text(cs));
    }
    set_sinfo(call, nullptr);
    poison(call.get());
    return call;
  }
  CallDerivation d = derive_call_ret_struct_info(*func, arg_sinfo, analyzer_, &call->sinfo_args);
  if (!d.ret) {
    if (d.bad_argument < 0) {
      diags_.error(codes::kCallArity, call->span, callee_name(callee) + " " + d.error)
          .note("the signature is " + struct_info_text(cs));
    } else {
      bool reported = false;
      for (const auto& [index, level] : d.mismatches) {
        size_t i = static_cast<size_t>(index);
        if (is_poisoned(call->args[i].get())) continue;
        const Ref<StructInfo>& param = (*func->params)[i];
        auto& diag =
            diags_.error(codes::kCallArgument, argument_span(*call, i),
                         "argument " + std::to_string(i) + " of " + callee_name(callee) +
                             " does not match " + parameter_name(callee, i) + ": expected " +
                             struct_info_text(param) + ", got " + struct_info_text(arg_sinfo[i]));
        if (auto v = call->args[i].as_ptr<ir::Var>()) {
          if (auto it = origins_.find(v); it != origins_.end() && it->second.is_known()) {
            diag.label(it->second, "`" + v->name + "` is defined here");
          }
        }
        if (level == BaseCheck::kFailL1)
          diag.note(
              "the argument is less specific than the parameter; use R.match_cast to narrow it");
        reported = true;
      }
      (void)reported;
    }
    set_sinfo(call, nullptr);
    poison(call.get());
    return call;
  }
  set_sinfo(call, d.ret);
  if (failed && d.ret.is<ir::ObjectStructInfo>()) poison(call.get());
  return call;
}

}  // namespace relax::analysis::normalize_detail
