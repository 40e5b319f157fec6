// The normalizer's module, function and binding level: global vars get their functions' struct
// info, parameters define symbolic vars, each binding is inferred and checked against its
// annotation (TVM's rule: a call keeps a compatible annotation, other values keep their own
// struct info), match_cast defines vars, functions get their return struct info.
#include "analysis/normalize/normalizer.h"

#include <cstdint>

#include "analysis/use_span.h"
#include "ir/depth_limit.h"

namespace relax::analysis::normalize_detail {

using ir::make;

void Normalizer::normalize_function(const Ref<ir::Function>& func) {
  size_t saved_start = scope_start_, saved_size = scope_vars_.size();
  scope_start_ = scope_vars_.size();
  std::vector<Ref<StructInfo>> param_sinfo;
  for (const auto& p : func->params) {
    // A nested function's parameter may be written `y.struct_info` of an outer variable.
    p->struct_info = complete_written(p->struct_info, p->span);
    if (!p->struct_info) p->struct_info = make<ir::ObjectStructInfo>();
    if (too_deep(p->struct_info, p->struct_info->span.is_known() ? p->struct_info->span : p->span,
                 "the annotation of parameter `" + p->name + "`"))
      p->struct_info = make<ir::ObjectStructInfo>();
    define_symbolic_vars(p->struct_info);
    origins_[p.get()] = p->span;
    param_sinfo.push_back(p->struct_info);
  }
  Ref<StructInfo> body_sinfo;
  bool body_failed = true;
  if (func->body) {
    normalize_seq(func->body);
    body_sinfo = func->body->struct_info;
    body_failed = is_poisoned(func->body.get());
  }
  Ref<StructInfo> ret = complete_written(func->ret_struct_info, func->span);
  if (ret && too_deep(ret, ret->span.is_known() ? ret->span : func->span, "the return annotation"))
    ret = nullptr;
  if (body_sinfo && (!ret || is_base_of(ret, body_sinfo, analyzer_))) {
    // TVM's Function constructor: the body's struct info, erased to the symbolic vars the
    // parameters define (match_cast vars of the body are out of scope for callers).
    std::unordered_set<const ir::tir::Var*> definable;
    for (const auto& s : param_sinfo) {
      for (const auto& v : definable_tir_vars(s)) definable.insert(v.get());
    }
    std::function<bool(const ir::tir::Var*)> is_defined = [&](const ir::tir::Var* v) {
      return definable.count(v) != 0;
    };
    ret = erase_to_well_defined(body_sinfo, {}, is_defined, analyzer_);
  } else if (ret && body_sinfo && !body_failed &&
             struct_info_base_check(ret, body_sinfo, analyzer_) == BaseCheck::kFailL0) {
    // The returned variable's use is its last occurrence in the function's text (`return x`).
    ir::Span at = func->body->body ? span_of(func->body->body, func->span) : func->span;
    if (auto v = func->body->body.as_ptr<ir::Var>()) {
      ir::Span use = find_identifier(func->body->span, v->name, SIZE_MAX);
      if (use.is_known()) at = use;
    }
    diags_
        .warning(codes::kReturnMismatch, at,
                 "the returned value can never match the declared return struct info: declared " +
                     struct_info_text(ret) + ", returned " + struct_info_text(body_sinfo))
        .note("TVM keeps the annotation and checks it when the function returns");
  }
  if (!ret) ret = make<ir::ObjectStructInfo>();
  func->ret_struct_info = ret;
  auto sinfo = make<ir::FuncStructInfo>();
  sinfo->params = std::move(param_sinfo);
  sinfo->ret = ret;
  sinfo->purity = func->is_pure;
  // R.Callable of the parameters and the result is one level more than the deepest of them;
  // past the limit, callers see an opaque function.
  if (too_deep(sinfo, func->span, "the struct info of this function (R.Callable)")) {
    sinfo->params.reset();
    sinfo->ret = make<ir::ObjectStructInfo>();
  }
  func->struct_info = sinfo;
  scope_vars_.resize(saved_size);
  scope_start_ = saved_start;
}

void Normalizer::normalize_seq(const Ref<ir::SeqExpr>& seq) {
  for (const auto& block : seq->blocks) {
    for (const auto& binding : block->bindings) normalize_binding(binding);
  }
  Ref<ir::Expr> body = normalize_arg(seq->body);
  if (!body.same_as(seq->body)) seq->body = body;
  bool failed = !body || is_poisoned(body.get());
  set_sinfo(seq, erase_in_scope(struct_info_of(body)));
  if (failed) poison(seq.get());
}

void Normalizer::normalize_binding(const Ref<ir::Binding>& binding) {
  if (!binding || !binding->var) return;
  if (binding->kind() == ir::ObjectKind::kMatchCast) {
    normalize_match_cast(static_cast<ir::MatchCast&>(*binding));
  } else {
    normalize_var_binding(static_cast<ir::VarBinding&>(*binding));
  }
  origins_[binding->var.get()] = binding->span.is_known() ? binding->span : binding->var->span;
}

namespace {

// `R.print(...)` written as a statement: the front end binds it to `_`, spanning the expression
// (`__then` / `__else` when it ends an if branch, which rebinds the branch's last binding).
bool is_expression_statement(const ir::VarBinding& b) {
  const std::string& n = b.var->name;
  return (n == "_" || n == "__then" || n == "__else") && b.value && b.var->span == b.value->span;
}

}  // namespace

void Normalizer::normalize_var_binding(ir::VarBinding& b) {
  const Ref<ir::Var>& var = b.var;
  // Completed before the value is inferred: a recursive local function calls itself through it.
  Ref<StructInfo> annotation = complete_written(var->struct_info, var->span);
  var->struct_info = annotation;
  if (annotation && too_deep(annotation, annotation->span.is_known() ? annotation->span : var->span,
                             "the annotation of `" + var->name + "`")) {
    annotation = nullptr;
    var->struct_info = nullptr;
  }
  if (auto f = b.value.as<ir::Function>()) local_functions_[var.get()] = f;
  Ref<ir::Expr> value = normalize_expr(b.value);
  if (!value) {
    var->struct_info = annotation ? annotation : make<ir::ObjectStructInfo>();
    if (!annotation) poison(var.get());
    return;
  }
  if (!value.same_as(b.value)) b.value = value;
  bound_values_[var.get()] = value;
  Ref<StructInfo> inferred = struct_info_of(value);
  bool failed = is_poisoned(value.get());
  // A value that depends on an earlier error is not reported, but bounded all the same.
  if (inferred && too_deep(inferred, value_span(value, b.span),
                           failed ? "" : "the struct info of `" + var->name + "`")) {
    // Unknown from here, as after any error: the uses are not reported again.
    var->struct_info = annotation ? annotation : make<ir::ObjectStructInfo>();
    if (!annotation) poison(var.get());
    return;
  }

  // Values whose struct info is their own: functions, if/else joins, statements.
  if (value.is<ir::Function>() || value.is<ir::If>()) {
    var->struct_info = inferred;
    if (failed && inferred.is<ir::ObjectStructInfo>()) poison(var.get());
    return;
  }
  if (is_expression_statement(b)) {
    // A statement that failed stays a statement (its value is unknown, and unused).
    if (failed && ir::is_void_sinfo(annotation)) {
      var->struct_info = annotation;
      return;
    }
    if (!failed && !ir::is_void_sinfo(inferred)) {
      diags_
          .error(codes::kNonVoidStatement, value->span,
                 "this expression statement has a value of struct info " +
                     struct_info_text(inferred) +
                     "; only void expressions (R.Tuple) may stand alone")
          .note("bind the value to a name: `x = ...`");
    }
    var->struct_info = inferred;
    if (failed) poison(var.get());
    return;
  }
  if (annotation && !options_.ignore_binding_annotations) {
    if (!failed && struct_info_base_check(annotation, inferred, analyzer_) == BaseCheck::kFailL0) {
      ir::Span at = annotation->span.is_known() ? annotation->span : var->span;
      diags_
          .error(codes::kAnnotation, at,
                 "the annotation of `" + var->name +
                     "` is incompatible with its value: annotated " + struct_info_text(annotation) +
                     ", inferred " + struct_info_text(inferred))
          .label(value_span(value, b.span),
                 "the value has struct info " + struct_info_text(inferred));
    }
    // TVM installs the annotation on a call (its result is trusted); other values keep their
    // own struct info and the annotation is only checked. A failed inference keeps the annotation.
    var->struct_info = (value.is<ir::Call>() || failed) ? annotation : inferred;
    return;
  }
  var->struct_info = inferred;
  if (failed) poison(var.get());
}

void Normalizer::normalize_match_cast(ir::MatchCast& b) {
  Ref<ir::Expr> value = normalize_expr(b.value);
  if (value && !value.same_as(b.value)) b.value = value;
  if (b.struct_info) b.struct_info = complete_written(b.struct_info, b.span);
  Ref<StructInfo> target =
      b.struct_info ? b.struct_info : Ref<StructInfo>(make<ir::ObjectStructInfo>());
  if (too_deep(target, target->span.is_known() ? target->span : b.span,
               "the target of R.match_cast"))
    target = make<ir::ObjectStructInfo>();
  if (value && !is_poisoned(value.get())) {
    Ref<StructInfo> vs = struct_info_of(value);
    if (struct_info_base_check(vs, target, analyzer_) == BaseCheck::kFailL0) {
      diags_
          .error(codes::kMatchCast, b.span.is_known() ? b.span : b.var->span,
                 "R.match_cast can never succeed: the value has struct info " +
                     struct_info_text(vs) + ", the target is " + struct_info_text(target))
          .label(value_span(value, b.span), "this value is " + struct_info_text(vs));
    }
  }
  b.var->struct_info = target;
  define_symbolic_vars(target);
}

// --- Struct info written in the text -----------------------------------------------------------

Ref<StructInfo> Normalizer::complete_written(const Ref<StructInfo>& sinfo, ir::Span at, int depth) {
  // Written struct info nests no deeper than the front end evaluates expressions.
  constexpr int kMaxDepth = 512;
  if (!sinfo || depth > kMaxDepth) return sinfo;
  // Only a StructInfoOf and a tensor shaped by a variable are completed (and may be reported):
  // they are looked up; tuples and callables are walked; the rest is complete as written.
  switch (sinfo->kind()) {
    case ir::ObjectKind::kStructInfoOf:
      break;
    case ir::ObjectKind::kTensorStructInfo:
      if (!sinfo.as_ptr<ir::TensorStructInfo>()->shape.is<ir::Var>()) return sinfo;
      break;
    case ir::ObjectKind::kTupleStructInfo:
    case ir::ObjectKind::kFuncStructInfo:
      return complete_uncached(sinfo, sinfo->span.is_known() ? sinfo->span : at, depth);
    default:
      return sinfo;
  }
  if (auto it = completed_.find(sinfo.get()); it != completed_.end()) return it->second.second;
  if (sinfo->span.is_known()) at = sinfo->span;
  Ref<StructInfo> out = complete_uncached(sinfo, at, depth);
  completed_.emplace(sinfo.get(), std::make_pair(sinfo, out));
  return out;
}

Ref<StructInfo> Normalizer::complete_uncached(const Ref<StructInfo>& sinfo, ir::Span at,
                                              int depth) {
  switch (sinfo->kind()) {
    case ir::ObjectKind::kStructInfoOf: {
      // The expression is a variable bound (so inferred) before this use, or a tuple item of
      // one; its struct info holds nothing to complete.
      Ref<ir::Expr> e = normalize_expr(sinfo.as_ptr<ir::StructInfoOf>()->expr);
      if (e && e->struct_info && !e->struct_info.is<ir::StructInfoOf>()) return e->struct_info;
      return make<ir::ObjectStructInfo>();
    }
    case ir::ObjectKind::kTensorStructInfo: {
      auto t = sinfo.as_ptr<ir::TensorStructInfo>();
      auto v = t->shape.as_ptr<ir::Var>();
      if (!v) return sinfo;
      auto s = v->struct_info.as_ptr<ir::ShapeStructInfo>();
      if (!s) {
        if (v->struct_info && !is_poisoned(v)) {
          diags_
              .error(codes::kShapeVar, at,
                     "the shape of this tensor struct info is `" + v->name +
                         "`, which is not a shape: its struct info is " +
                         struct_info_text(v->struct_info))
              .note("R.Tensor(shape, ...) takes a variable of R.Shape struct info");
        }
        return make<ir::TensorStructInfo>(nullptr, t->dtype, ir::kUnknownNDim, t->vdevice);
      }
      if (!t->is_unknown_ndim() && s->ndim != ir::kUnknownNDim && s->ndim != t->ndim) {
        diags_.error(codes::kShapeVar, at,
                     "this tensor struct info has ndim=" + std::to_string(t->ndim) +
                         " but its shape `" + v->name + "` has " + std::to_string(s->ndim) +
                         " dimensions");
        return make<ir::TensorStructInfo>(nullptr, t->dtype, t->ndim, t->vdevice);
      }
      if (!t->is_unknown_ndim() || s->ndim == ir::kUnknownNDim) return sinfo;
      auto out = make<ir::TensorStructInfo>(t->shape, t->dtype, s->ndim, t->vdevice);
      out->span = t->span;
      return out;
    }
    case ir::ObjectKind::kTupleStructInfo: {
      auto t = sinfo.as_ptr<ir::TupleStructInfo>();
      std::vector<Ref<StructInfo>> fields;
      bool changed = false;
      for (const auto& f : t->fields) {
        fields.push_back(complete_written(f, at, depth + 1));
        changed |= !fields.back().same_as(f);
      }
      if (!changed) return sinfo;
      auto out = make<ir::TupleStructInfo>(std::move(fields));
      out->span = t->span;
      return out;
    }
    case ir::ObjectKind::kFuncStructInfo: {
      auto f = sinfo.as_ptr<ir::FuncStructInfo>();
      bool changed = false;
      auto out = make<ir::FuncStructInfo>(*f);
      if (f->params) {
        for (auto& p : *out->params) {
          Ref<StructInfo> c = complete_written(p, at, depth + 1);
          changed |= !c.same_as(p);
          p = c;
        }
      }
      out->ret = complete_written(f->ret, at, depth + 1);
      changed |= !out->ret.same_as(f->ret);
      return changed ? Ref<StructInfo>(out) : sinfo;
    }
    default:
      return sinfo;
  }
}

// --- Scope ---------------------------------------------------------------------------------------

void Normalizer::define_symbolic_vars(const Ref<StructInfo>& sinfo) {
  for (const auto& v : definable_tir_vars(sinfo)) {
    if (in_scope(v.get())) continue;
    scope_vars_.push_back(v.get());
    analyzer_.mark_non_negative(v);
  }
}

bool Normalizer::in_scope(const ir::tir::Var* var) const {
  for (size_t i = scope_start_; i < scope_vars_.size(); ++i) {
    if (scope_vars_[i] == var) return true;
  }
  return false;
}

Ref<StructInfo> Normalizer::erase_in_scope(const Ref<StructInfo>& sinfo) {
  std::function<bool(const ir::tir::Var*)> is_defined = [this](const ir::tir::Var* v) {
    return in_scope(v);
  };
  return erase_to_well_defined(sinfo, {}, is_defined, analyzer_);
}

// --- Helpers -------------------------------------------------------------------------------------

bool Normalizer::too_deep(const Ref<StructInfo>& sinfo, ir::Span at, const std::string& what) {
  const ir::DepthLimit& limit = ir::kStructInfoNesting;
  uint32_t height = ir::struct_info_height(*sinfo);
  if (height <= limit.max) return false;
  if (what.empty()) return true;
  diags_
      .error(limit.code, at,
             what + " is nested " + std::to_string(height) + " levels deep; struct info may nest " +
                 std::to_string(limit.max))
      .note(
          "each R.Tuple and R.Callable is a level: keep the values in separate variables, or "
          "flatten the tuples");
  return true;
}

ir::Span Normalizer::value_span(const Ref<ir::Expr>& value, ir::Span binding) const {
  if (auto v = value.as_ptr<ir::Var>()) {
    // The value comes last in `name: annotation = value`.
    ir::Span found = find_identifier(binding, v->name, SIZE_MAX);
    if (found.is_known()) return found;
  }
  return span_of(value, binding);
}

Ref<StructInfo> Normalizer::set_sinfo(const Ref<ir::Expr>& e, Ref<StructInfo> sinfo) {
  if (!sinfo) sinfo = make<ir::ObjectStructInfo>();
  if (e && !e.is<ir::Op>()) e->struct_info = sinfo;
  return sinfo;
}

ir::Span Normalizer::span_of(const Ref<ir::Expr>& e, ir::Span fallback) const {
  if (e && e->span.is_known()) return e->span;
  return fallback;
}

}  // namespace relax::analysis::normalize_detail
