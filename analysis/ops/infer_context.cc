// The inference context: typed attribute access and located error reporting for op inference.
#include "analysis/ops/infer_context.h"

#include "analysis/use_span.h"
#include "ir/tir.h"

namespace relax::analysis {

using ir::ObjectKind;
using ir::Ref;

InferContext::InferContext(const OpInfo& op, Ref<ir::Call> call,
                           std::vector<Ref<ir::StructInfo>> arg_sinfo, arith::Analyzer& analyzer,
                           ir::DiagnosticBag& diags)
    : op_(op),
      call_(std::move(call)),
      arg_sinfo_(std::move(arg_sinfo)),
      analyzer_(analyzer),
      diags_(diags) {
  for (auto& s : arg_sinfo_) {
    if (!s) s = ir::make<ir::ObjectStructInfo>();
  }
  arg_sinfo_.resize(call_->args.size(), ir::make<ir::ObjectStructInfo>());
}

void InferContext::set_call(Ref<ir::Call> call) {
  // Arguments the hook replaced bring their own struct info (unknown when they carry none);
  // the others keep what the driver inferred for them.
  std::vector<Ref<ir::StructInfo>> sinfo(call->args.size());
  for (size_t i = 0; i < call->args.size(); ++i) {
    if (i < call_->args.size() && call->args[i].same_as(call_->args[i]))
      sinfo[i] = arg_sinfo_[i];
    else if (call->args[i] && call->args[i]->struct_info)
      sinfo[i] = call->args[i]->struct_info;
    else
      sinfo[i] = ir::make<ir::ObjectStructInfo>();
  }
  arg_sinfo_ = std::move(sinfo);
  call_ = std::move(call);
}

std::string InferContext::op_name() const {
  std::string_view n = op_.name;
  if (n.starts_with("relax.")) return "R." + std::string(n.substr(6));
  return std::string(n);
}

const ir::TensorStructInfo* InferContext::tensor_arg(size_t i) {
  if (i >= arg_sinfo_.size()) {
    error("E0302", op_name() + " expects at least " + std::to_string(i + 1) + " arguments");
    return nullptr;
  }
  if (auto t = arg_sinfo_[i].as_ptr<ir::TensorStructInfo>()) return t;
  std::string name = i < op_.args.size() ? op_.args[i].name : "#" + std::to_string(i);
  error_at_arg(i, "E0306", op_name() + " requires argument `" + name + "` to be a tensor");
  return nullptr;
}

Ref<ir::VDevice> InferContext::common_vdevice(const std::vector<size_t>& args) {
  Ref<ir::VDevice> found;
  size_t found_at = 0;
  for (size_t i : args) {
    auto t = i < arg_sinfo_.size() ? arg_sinfo_[i].as_ptr<ir::TensorStructInfo>() : nullptr;
    if (!t || !t->vdevice || !t->vdevice->target) continue;
    if (!found) {
      found = t->vdevice;
      found_at = i;
      continue;
    }
    const auto& a = *found;
    const auto& b = *t->vdevice;
    if (a.vdevice_id != b.vdevice_id || a.memory_scope != b.memory_scope ||
        a.target->kind_name() != b.target->kind_name()) {
      error_at_arg(i, "E0315", op_name() + ": arguments are on different virtual devices")
          .note("argument " + std::to_string(found_at) + " is on " + a.target->kind_name() + ":" +
                std::to_string(a.vdevice_id) + ", argument " + std::to_string(i) + " on " +
                b.target->kind_name() + ":" + std::to_string(b.vdevice_id));
      return found;
    }
  }
  return found;
}

ir::ObjectRef InferContext::attr(std::string_view name) const {
  return call_->attrs.find(name);
}

std::optional<int64_t> InferContext::attr_int(std::string_view name) const {
  ir::ObjectRef v = attr(name);
  if (auto i = v.as_ptr<ir::IntValue>()) return i->value;
  if (auto i = v.as_ptr<ir::tir::IntImm>()) return i->value;
  if (auto b = v.as_ptr<ir::BoolValue>()) return b->value ? 1 : 0;
  return std::nullopt;
}

std::optional<double> InferContext::attr_float(std::string_view name) const {
  ir::ObjectRef v = attr(name);
  if (auto f = v.as_ptr<ir::FloatValue>()) return f->value;
  if (auto f = v.as_ptr<ir::tir::FloatImm>()) return f->value;
  if (auto i = v.as_ptr<ir::IntValue>()) return static_cast<double>(i->value);
  if (auto i = v.as_ptr<ir::tir::IntImm>()) return static_cast<double>(i->value);
  return std::nullopt;
}

std::optional<bool> InferContext::attr_bool(std::string_view name) const {
  ir::ObjectRef v = attr(name);
  if (auto b = v.as_ptr<ir::BoolValue>()) return b->value;
  if (auto i = v.as_ptr<ir::IntValue>()) return i->value != 0;
  if (auto i = v.as_ptr<ir::tir::IntImm>()) return i->value != 0;
  return std::nullopt;
}

std::optional<std::string> InferContext::attr_string(std::string_view name) const {
  if (auto s = attr(name).as_ptr<ir::StringValue>()) return s->value;
  return std::nullopt;
}

std::optional<ir::DataType> InferContext::attr_dtype(std::string_view name) const {
  auto s = attr_string(name);
  if (!s || s->empty() || *s == "void") return std::nullopt;
  return ir::DataType::parse(*s);
}

std::optional<std::vector<int64_t>> InferContext::attr_int_array(std::string_view name) const {
  ir::ObjectRef v = attr(name);
  auto arr = v.as_ptr<ir::ArrayValue>();
  if (!arr) return std::nullopt;
  std::vector<int64_t> out;
  for (const auto& item : arr->items) {
    if (auto i = item.as_ptr<ir::IntValue>())
      out.push_back(i->value);
    else if (auto i = item.as_ptr<ir::tir::IntImm>())
      out.push_back(i->value);
    else
      return std::nullopt;
  }
  return out;
}

std::optional<std::vector<Ref<ir::tir::PrimExpr>>> InferContext::attr_prim_array(
    std::string_view name) const {
  ir::ObjectRef v = attr(name);
  auto arr = v.as_ptr<ir::ArrayValue>();
  if (!arr) return std::nullopt;
  std::vector<Ref<ir::tir::PrimExpr>> out;
  for (const auto& item : arr->items) {
    if (auto p = item.as<ir::tir::PrimExpr>())
      out.push_back(p);
    else if (auto i = item.as_ptr<ir::IntValue>())
      out.push_back(ir::tir::int64(i->value));
    else
      return std::nullopt;
  }
  return out;
}

ir::Diagnostic& InferContext::error(std::string code, std::string message) {
  failed_ = true;
  return diags_.error(std::move(code), call_->span, std::move(message));
}

ir::Diagnostic& InferContext::error_at_arg(size_t i, std::string code, std::string message) {
  failed_ = true;
  ir::Span span = argument_span(*call_, i);
  ir::Diagnostic& d = diags_.error(std::move(code), span, std::move(message));
  if (auto origin = origin_of_arg(i); origin && origin->is_known() && !(*origin == span)) {
    std::string what = i < call_->args.size() && call_->args[i].is<ir::Var>()
                           ? "`" + call_->args[i].as<ir::Var>()->name + "` is defined here"
                           : "the argument is defined here";
    d.label(*origin, what);
  }
  return d;
}

ir::Diagnostic& InferContext::error_at_attr(std::string_view name, std::string code,
                                            std::string message) {
  failed_ = true;
  ir::ObjectRef v = attr(name);
  ir::Span span = v && v->span.is_known() ? v->span : call_->span;
  return diags_.error(std::move(code), span, std::move(message));
}

ir::Diagnostic& InferContext::error_at(ir::Span span, std::string code, std::string message) {
  failed_ = true;
  return diags_.error(std::move(code), span.is_known() ? span : call_->span, std::move(message));
}

ir::Diagnostic& InferContext::warning(std::string code, std::string message) {
  return diags_.warning(std::move(code), call_->span, std::move(message));
}

ir::Ref<ir::Expr> InferContext::lookup_binding(const ir::Ref<ir::Expr>& expr) const {
  ir::Ref<ir::Expr> e = expr;
  // Bounded: a malformed module could bind a variable to itself.
  for (int depth = 0; depth < 64 && lookup_; ++depth) {
    auto v = e.as_ptr<ir::Var>();
    if (!v) break;
    ir::Ref<ir::Expr> bound = lookup_(*v);
    if (!bound) break;
    e = bound;
  }
  return e;
}

std::optional<ir::Span> InferContext::origin_of_arg(size_t i) const {
  if (i < origins_.size()) return origins_[i];
  return std::nullopt;
}

}  // namespace relax::analysis
