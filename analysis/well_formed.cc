// Well-formedness of a normalized module (SEMANTICS.md §1.9, TVM's relax/analysis/well_formed.cc
// and tir VerifyWellFormed). Every violation is reported, each rule with its own code:
//
//   E0401  a Relax variable is used where it is not defined (before its binding, outside the
//          if branch or function that binds it)
//   E0402  a Relax variable is defined more than once
//   E0403  a dataflow variable is used outside its dataflow block
//   E0404  a dataflow variable is defined outside a dataflow block (a binding or a parameter)
//   E0405  an impure call inside a dataflow block
//   E0406  an impure call in a pure function that is not marked relax.force_pure
//   E0407  relax.force_pure on a function declared impure (pure=False)
//   E0408  a symbolic variable is used where nothing defines it (parameter annotations and
//          match_cast targets define; annotations, shapes, values and out_sinfo only use)
//   E0409  a symbolic variable appears in two functions of the module
//   E0410  a global variable that the module does not define
//   E0411  a function's global_symbol differs from its name in the module
//   E0412  an if/else inside a dataflow block
//   E0413  a Relax variable is a parameter of two functions
//   E0414  not in A-normal form: a call, tuple item, if, sequence or function nested where only
//          a variable, constant or tuple of them may appear (a sequence only as a body/branch)
//   E0415  an expression without struct info, or a function without a return struct info
//          (the module was not normalized)
//   E0416  a shape expression (R.shape([...])) with a non-integer dimension
//   E0417  a variable that outlives its dataflow block takes its shape from a dataflow variable
//   E0418  a call of an op with a normalization rule that is not in its normalized form (the
//          call_tir family takes its arguments as an inline tuple)
//   E0419  a tensor struct info no tensor can have: a negative constant dimension, or constant
//          dimensions whose byte size overflows int64 or exceeds kMaxTensorBytes
//   E0420  TIR: a buffer accessed with a number of indices that differs from its rank
//   E0421  TIR: a variable used where nothing defines it (loop, block, let, thread variables)
//   E0422  TIR: a block with iteration variables uses a loop variable of an enclosing loop
//          directly (it must reach the block through the block's iteration bindings)
//   E0423  TIR: a buffer index provably outside the buffer's shape for some iteration that runs
//          (tir_bounds.cc, which also checks E0424)
//   E0424  TIR: a block iteration variable with a negative domain extent, or bound to a value
//          provably outside its domain for some iteration that runs
#include "analysis/well_formed.h"

#include <cstdint>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis/ops/call_binding.h"
#include "analysis/ops/infer_context.h"
#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"
#include "analysis/tir_bounds.h"
#include "analysis/use_span.h"
#include "ir/structural_equal.h"
#include "ir/tir_visitor.h"

namespace relax::analysis {

using ir::Ref;
using ir::StructInfo;

namespace {

// The largest tensor a constant shape may describe: 2^56 bytes (64 PiB), all that a 64-bit
// address space with 5-level paging can map, so no allocation past it can ever succeed; and far
// enough from 2^63 that element counts and byte offsets computed from it cannot overflow.
// (Smaller impossible sizes, such as TVM's 2^50-byte out-of-memory test, fail when allocated.)
constexpr int64_t kMaxTensorBytes = int64_t{1} << 56;

namespace codes {
inline constexpr const char* kUndefinedVar = "E0401";
inline constexpr const char* kDuplicateVar = "E0402";
inline constexpr const char* kDataflowVarEscapes = "E0403";
inline constexpr const char* kDataflowVarOutside = "E0404";
inline constexpr const char* kImpureInDataflow = "E0405";
inline constexpr const char* kImpureInPure = "E0406";
inline constexpr const char* kForcePureImpure = "E0407";
inline constexpr const char* kUndefinedSymbolic = "E0408";
inline constexpr const char* kSharedSymbolic = "E0409";
inline constexpr const char* kUndefinedGlobal = "E0410";
inline constexpr const char* kGlobalSymbol = "E0411";
inline constexpr const char* kIfInDataflow = "E0412";
inline constexpr const char* kSharedParam = "E0413";
inline constexpr const char* kNotANF = "E0414";
inline constexpr const char* kMissingSinfo = "E0415";
inline constexpr const char* kShapeNotInt = "E0416";
inline constexpr const char* kDataflowVarInSinfo = "E0417";
inline constexpr const char* kNotNormalized = "E0418";
inline constexpr const char* kImpossibleTensor = "E0419";
inline constexpr const char* kTirIndexCount = "E0420";
inline constexpr const char* kTirUndefinedVar = "E0421";
inline constexpr const char* kTirLoopVarInBlock = "E0422";
}  // namespace codes

// TVM's IsLeafOrTuple: anything but calls, tuple items, ifs, sequences and functions.
bool is_leaf_or_tuple(const Ref<ir::Expr>& e) {
  if (!e) return true;
  switch (e->kind()) {
    case ir::ObjectKind::kCall:
    case ir::ObjectKind::kTupleGetItem:
    case ir::ObjectKind::kIf:
    case ir::ObjectKind::kSeqExpr:
    case ir::ObjectKind::kFunction:
      return false;
    case ir::ObjectKind::kTuple:
      for (const auto& f : e.as_ptr<ir::Tuple>()->fields) {
        if (!is_leaf_or_tuple(f)) return false;
      }
      return true;
    default:
      return true;
  }
}

// The variables defined where the checker is, in nested scopes (if branches, functions): a
// scope's own definitions go when it closes, and a scope may hide those outside it, without the
// copies that made n ifs after n bindings quadratic. Lookups walk the open scopes.
template <class T>
class ScopedSet {
 public:
  ScopedSet() { layers_.emplace_back(); }
  bool contains(const T* v) const {
    for (auto it = layers_.rbegin(); it != layers_.rend(); ++it) {
      if (it->items.count(v)) return true;
      if (it->opaque) return false;
    }
    return false;
  }
  // False when `v` is defined already.
  bool insert(const T* v) {
    if (contains(v)) return false;
    layers_.back().items.insert(v);
    return true;
  }
  // A scope that sees the definitions outside it, or (`opaque`) does not.
  void push(bool opaque) { layers_.push_back(Layer{{}, opaque}); }
  void pop() { layers_.pop_back(); }
  // Forgets every definition visible here, until the scope closes.
  void clear() {
    layers_.back().items.clear();
    layers_.back().opaque = true;
  }

 private:
  struct Layer {
    std::unordered_set<const T*> items;
    bool opaque = false;
  };
  std::vector<Layer> layers_;
};

// Where a diagnostic about an expression goes: a span known already, or the use of a variable,
// found in the text of the binding being checked only when a diagnostic needs it (the search
// reads the binding's text: done for every use, checking a long tuple took quadratic time).
class UseSpan {
 public:
  UseSpan(ir::Span known) : span_(known), known_(true) {}  // NOLINT: implicit
  UseSpan(const Ref<ir::Expr>& e, ir::Span within, bool last_use)
      : expr_(e.get()), span_(within), last_use_(last_use) {}
  operator ir::Span() const {  // NOLINT: implicit
    if (!known_) {
      span_ = locate();
      known_ = true;
    }
    return span_;
  }

 private:
  ir::Span locate() const {
    ir::Span at = span_;
    if (!expr_) return at;
    if (auto v = ir::isa<ir::Var>(expr_) ? static_cast<const ir::Var*>(expr_) : nullptr) {
      ir::Span found = find_identifier(at, v->name, last_use_ ? SIZE_MAX : 0);
      return found.is_known() ? found : at;
    }
    if (auto g =
            ir::isa<ir::GlobalVar>(expr_) ? static_cast<const ir::GlobalVar*>(expr_) : nullptr) {
      ir::Span found = find_identifier(at, g->name, 0, /*attribute=*/true);
      if (found.is_known()) return found;
    }
    return expr_->span.is_known() ? expr_->span : at;
  }

  const ir::Expr* expr_ = nullptr;
  mutable ir::Span span_;
  mutable bool known_ = false;
  bool last_use_ = false;
};

class RelaxChecker {
 public:
  RelaxChecker(const ir::IRModule& module, ir::DiagnosticBag& diags,
               const WellFormedOptions& options)
      : module_(module), diags_(diags), options_(options), registry_(OpRegistry::global()) {}

  void run() {
    for (const auto& member : module_.functions) {
      auto f = member.func.as<ir::Function>();
      if (!f) continue;
      if (member.gvar && !options_.standalone_functions) {
        std::string symbol = f->attrs.get_string("global_symbol", "\x01");
        if (symbol != "\x01" && symbol != member.gvar->name) {
          diags_.error(codes::kGlobalSymbol, f->span.is_known() ? f->span : member.gvar->span,
                       "function `" + member.gvar->name + "` has global_symbol \"" + symbol +
                           "\"; a public function's global_symbol must be its name in the module");
        }
      }
      current_name_ = member.gvar ? member.gvar->name : "";
      top_ = f.get();
      missing_sinfo_reported_ = false;
      check_function(f);
      top_ = nullptr;
    }
  }

 private:
  // --- Functions, blocks, bindings ---

  void check_function(const Ref<ir::Function>& f) {
    ir::Span saved_at = at_;
    if (f->span.is_known()) at_ = f->span;
    vars_.push(false);
    dataflow_vars_.push(false);
    symbolic_.push(true);  // symbolic vars are not captured across function boundaries
    bool saved_in_dataflow = in_dataflow_;
    in_dataflow_ = false;
    if (f->attrs.get_bool("relax.force_pure", false) && !f->is_pure) {
      diags_.error(
          codes::kForcePureImpure, f->span,
          "relax.force_pure is set on a function declared impure (pure=False); force_pure only "
          "makes sense on a pure function");
    }
    // Parameters define the bare symbolic vars of their annotations (in any order), then every
    // var their annotations use must be defined.
    for (const auto& p : f->params) define_symbolic(p->struct_info);
    for (const auto& p : f->params) {
      check_sinfo(p->struct_info, p->span);
      check_sizes(p->struct_info, p->span);
      define_var(p, p->span);
      if (p->is_dataflow()) {
        diags_.error(codes::kDataflowVarOutside, p->span,
                     "parameter `" + p->name +
                         "` is a dataflow variable; parameters are ordinary variables");
      }
      auto [it, inserted] = param_owner_.emplace(p.get(), f.get());
      if (!inserted && it->second != f.get()) {
        diags_.error(codes::kSharedParam, p->span,
                     "variable `" + p->name +
                         "` is a parameter of two functions; each function needs its own");
      }
    }
    if (!f->ret_struct_info) {
      report_missing_sinfo(f->span, "function has no return struct info");
    } else {
      check_sinfo(f->ret_struct_info, f->span);
    }
    if (f->is_pure && !f->attrs.get_bool("relax.force_pure", false) && f->body)
      check_purity(f->body, f);
    if (f->body) check_seq(f->body);
    // After the body, so that a shape is reported where it is first computed.
    if (f->ret_struct_info) check_sizes(f->ret_struct_info, f->span);
    vars_.pop();
    dataflow_vars_.pop();
    symbolic_.pop();
    in_dataflow_ = saved_in_dataflow;
    at_ = saved_at;
  }

  void check_seq(const Ref<ir::SeqExpr>& seq) {
    for (const auto& block : seq->blocks) {
      bool saved = in_dataflow_;
      in_dataflow_ = block->is_dataflow;
      for (const auto& b : block->bindings) check_binding(b);
      in_dataflow_ = saved;
      if (block->is_dataflow) dataflow_vars_.clear();
    }
    if (!is_leaf_or_tuple(seq->body)) {
      diags_.error(codes::kNotANF, span_of(seq->body, seq->span),
                   "the result of a function body or branch must be a variable, constant or tuple");
    }
    ir::Span saved_at = at_;
    if (seq->span.is_known()) at_ = seq->span;
    last_use_ = true;
    check_expr(seq->body);
    last_use_ = false;
    at_ = saved_at;
    check_has_sinfo(seq);
  }

  void check_binding(const Ref<ir::Binding>& b) {
    const Ref<ir::Var>& var = b->var;
    if (!var) return;
    ir::Span at = var->span.is_known() ? var->span : b->span;
    ir::Span saved_at = at_;
    at_ = b->span.is_known() ? b->span : at;
    if (auto mc = b.as_ptr<ir::MatchCast>()) {
      check_expr(b->value);
      define_symbolic(mc->struct_info);
      check_sinfo(mc->struct_info, b->span);
      check_sizes(mc->struct_info, b->span);
    } else if (auto f = b->value.as<ir::Function>()) {
      // A local function may call itself through its binding variable.
      recursive_.insert(var.get());
      check_function(f);
      recursive_.erase(var.get());
    } else {
      if (b->value.is<ir::SeqExpr>()) {
        diags_.error(codes::kNotANF, span_of(b->value, b->span),
                     "a sequence of bindings can only be a function body or an if branch");
      }
      check_expr(b->value);
    }
    if (var->is_dataflow() && !in_dataflow_) {
      diags_.error(codes::kDataflowVarOutside, at,
                   "dataflow variable `" + var->name + "` is defined outside a dataflow block");
    }
    check_sinfo(var->struct_info, at);
    check_sizes(var->struct_info, at);
    if (!var->is_dataflow()) check_no_dataflow_shape(var, at);
    define_var(var, at);
    at_ = saved_at;
  }

  void define_var(const Ref<ir::Var>& var, ir::Span at) {
    if (var->is_dataflow()) {
      if (!dataflow_vars_.insert(var.get())) {
        diags_.error(codes::kDuplicateVar, at,
                     "dataflow variable `" + var->name + "` is defined more than once");
      }
    } else if (!vars_.insert(var.get())) {
      diags_.error(codes::kDuplicateVar, at,
                   "variable `" + var->name + "` is defined more than once");
    }
    if (!var->struct_info)
      report_missing_sinfo(at, "variable `" + var->name + "` has no struct info");
  }

  // --- Expressions ---

  void check_expr(const Ref<ir::Expr>& e) {
    if (!e) return;
    switch (e->kind()) {
      case ir::ObjectKind::kVar: {
        auto v = e.as_ptr<ir::Var>();
        if (!vars_.contains(v) && !recursive_.count(v)) {
          diags_
              .error(codes::kUndefinedVar, use_span(e),
                     "variable `" + v->name + "` is not defined here")
              .note(v->span.is_known()
                        ? "it is bound in another scope (a branch, a function or a later line)"
                        : "it is bound in another scope");
        }
        break;
      }
      case ir::ObjectKind::kDataflowVar: {
        auto v = e.as_ptr<ir::Var>();
        if (!in_dataflow_) {
          diags_
              .error(codes::kDataflowVarEscapes, use_span(e),
                     "dataflow variable `" + v->name + "` is used outside its dataflow block")
              .note("list it in R.output(...) to use it after the block");
        } else if (!dataflow_vars_.contains(v)) {
          diags_.error(codes::kUndefinedVar, use_span(e),
                       "dataflow variable `" + v->name + "` is not defined here");
        }
        break;
      }
      case ir::ObjectKind::kGlobalVar: {
        auto g = e.as_ptr<ir::GlobalVar>();
        const auto* member = module_.find(g->name);
        if (!member && !options_.ignore_missing_globals.count(g->name)) {
          diags_.error(codes::kUndefinedGlobal, use_span(e),
                       "the module has no function `" + g->name + "`");
        }
        break;
      }
      case ir::ObjectKind::kTuple:
        for (const auto& f : e.as_ptr<ir::Tuple>()->fields) {
          if (!is_leaf_or_tuple(f)) {
            diags_.error(codes::kNotANF, span_of(f, e->span),
                         "a tuple field must be a variable, constant or tuple");
          }
          check_expr(f);
        }
        break;
      case ir::ObjectKind::kTupleGetItem: {
        const auto& t = e.as_ptr<ir::TupleGetItem>()->tuple;
        if (!is_leaf_or_tuple(t)) {
          diags_.error(codes::kNotANF, span_of(t, e->span),
                       "the indexed tuple must be a variable or tuple");
        }
        check_expr(t);
        break;
      }
      case ir::ObjectKind::kCall:
        check_call(e.as<ir::Call>());
        break;
      case ir::ObjectKind::kIf: {
        auto node = e.as_ptr<ir::If>();
        if (in_dataflow_) {
          diags_
              .error(codes::kIfInDataflow, e->span,
                     "if/else is not allowed inside a dataflow block")
              .note("end the dataflow block before the if, and start a new one after it");
        }
        if (!is_leaf_or_tuple(node->condition)) {
          diags_.error(codes::kNotANF, span_of(node->condition, e->span),
                       "the condition must be a variable or constant");
        }
        check_expr(node->condition);
        for (const auto& branch : {node->true_branch, node->false_branch}) {
          if (!branch) continue;
          vars_.push(false);
          symbolic_.push(false);
          check_seq(branch);
          vars_.pop();
          symbolic_.pop();
        }
        break;
      }
      case ir::ObjectKind::kSeqExpr:
        diags_.error(codes::kNotANF, e->span,
                     "a sequence of bindings can only be a function body or an if branch");
        check_seq(e.as<ir::SeqExpr>());
        return;
      case ir::ObjectKind::kFunction:
        check_function(e.as<ir::Function>());
        return;
      case ir::ObjectKind::kShapeExpr:
        for (const auto& v : e.as_ptr<ir::ShapeExpr>()->values) {
          check_prim(v, e->span);
          if (v && !v->dtype.is_int() && !v->dtype.is_uint()) {
            diags_.error(codes::kShapeNotInt, e->span,
                         "shape dimensions must be integers, got a " + v->dtype.str() + " value");
          }
        }
        break;
      case ir::ObjectKind::kPrimValue:
        check_prim(e.as_ptr<ir::PrimValue>()->value, e->span);
        break;
      default:
        break;
    }
    if (!e.is<ir::Op>()) {
      check_has_sinfo(e);
      check_sinfo(e->struct_info, UseSpan(e, at_, last_use_));
    }
  }

  void check_call(const Ref<ir::Call>& call) {
    if (!is_leaf_or_tuple(call->op)) {
      diags_.error(codes::kNotANF, span_of(call->op, call->span),
                   "the callee must be a variable or function name");
    }
    check_expr(call->op);
    for (const auto& a : call->args) {
      if (!is_leaf_or_tuple(a)) {
        diags_.error(codes::kNotANF, span_of(a, call->span),
                     "a call argument must be a variable, constant or tuple; bind the nested call "
                     "to a variable first");
      }
      check_expr(a);
    }
    for (const auto& s : call->sinfo_args) check_sinfo(s, call->span);
    if (in_dataflow_ && is_impure(*call)) {
      diags_
          .error(
              codes::kImpureInDataflow, call->span,
              "the impure call " + callee_text(*call) + " is not allowed inside a dataflow block")
          .note(
              "move it out of the dataflow block, or use a pure variant (R.call_pure_packed, "
              "R.invoke_pure_closure)");
    }
    check_normalized(call);
  }

  // An op with a normalization rule must already be in normalized form.
  void check_normalized(const Ref<ir::Call>& call) {
    auto op = call->op.as_ptr<ir::Op>();
    if (!op) return;
    const OpInfo* info = registry_.find(op->name);
    if (!info || !info->normalize) return;
    // A call that does not fit the op's schema was reported when it was normalized; the hook
    // indexes arguments by position and must not see it.
    if (!arity_fits(*info, call->args.size())) return;
    for (const auto& a : call->args) {
      if (!a) return;
    }
    std::vector<Ref<StructInfo>> arg_sinfo;
    for (const auto& a : call->args) arg_sinfo.push_back(struct_info_of(a));
    ir::DiagnosticBag scratch;
    InferContext ctx(*info, call, std::move(arg_sinfo), analyzer_, scratch);
    Ref<ir::Call> normalized = info->normalize(ctx);
    // A rule may rebuild an equal call: only a change counts.
    if (normalized && !normalized.same_as(call) && !ir::structural_equal(normalized, call)) {
      auto& d = diags_.error(codes::kNotNormalized, call->span,
                             "this " + callee_text(*call) + " call is not in its normalized form");
      if (op->name.rfind("relax.call_tir", 0) == 0) {
        d.note("the arguments must be an inline tuple: (x, y)");
      }
    }
  }

  // --- Purity ---

  bool is_impure(const ir::Call& call) const {
    if (auto op = call.op.as_ptr<ir::Op>()) {
      const OpInfo* info = registry_.find(op->name);
      return info && !info->pure;
    }
    Ref<StructInfo> s = struct_info_of(call.op);
    if (auto f = s.as_ptr<ir::FuncStructInfo>()) return !f->purity;
    return false;
  }

  std::string callee_text(const ir::Call& call) const {
    if (auto op = call.op.as_ptr<ir::Op>()) return "R." + op->short_name();
    if (auto g = call.op.as_ptr<ir::GlobalVar>()) return "cls." + g->name;
    if (auto x = call.op.as_ptr<ir::ExternFunc>())
      return "R.call_packed(\"" + x->global_symbol + "\")";
    if (auto v = call.op.as_ptr<ir::Var>()) return "`" + v->name + "`";
    return "call";
  }

  // Every impure call of a pure function's own body (nested functions are values, not calls).
  void check_purity(const Ref<ir::SeqExpr>& seq, const Ref<ir::Function>& f) {
    std::function<void(const Ref<ir::Expr>&)> visit = [&](const Ref<ir::Expr>& e) {
      if (!e) return;
      if (auto call = e.as_ptr<ir::Call>()) {
        if (is_impure(*call)) {
          diags_
              .error(codes::kImpureInPure, call->span,
                     "the impure call " + callee_text(*call) + " is not allowed in a pure function")
              .note(
                  "declare the function @R.function(pure=False), set "
                  "R.func_attr({\"relax.force_pure\": True}), "
                  "or use a pure variant (R.call_pure_packed)");
        }
        return;
      }
      if (auto node = e.as_ptr<ir::If>()) {
        for (const auto& branch : {node->true_branch, node->false_branch}) {
          if (!branch) continue;
          for (const auto& block : branch->blocks) {
            for (const auto& b : block->bindings) visit(b->value);
          }
          visit(branch->body);
        }
      }
    };
    for (const auto& block : seq->blocks) {
      for (const auto& b : block->bindings) visit(b->value);
    }
    (void)f;
  }

  // --- Symbolic variables ---

  void define_symbolic(const Ref<StructInfo>& s) {
    for (const auto& v : definable_tir_vars(s)) symbolic_.insert(v.get());
  }

  // Every symbolic var `s` uses must be defined; a function struct info defines its own.
  void check_sinfo(const Ref<StructInfo>& s, const UseSpan& at) {
    if (!s) return;
    switch (s->kind()) {
      case ir::ObjectKind::kFuncStructInfo: {
        const auto& f = static_cast<const ir::FuncStructInfo&>(*s);
        std::unordered_set<const ir::tir::Var*> local;
        if (f.params) {
          for (const auto& p : *f.params) {
            for (const auto& v : definable_tir_vars(p)) local.insert(v.get());
          }
        }
        // As TVM: the parameters define their bare vars; only the result must be well defined.
        for (const auto& v : tir_vars_in(f.ret)) {
          if (!symbolic_.contains(v.get()) && !local.count(v.get()))
            report_undefined_symbolic(v, at);
        }
        return;
      }
      case ir::ObjectKind::kTupleStructInfo:
        for (const auto& f : static_cast<const ir::TupleStructInfo&>(*s).fields) check_sinfo(f, at);
        return;
      default:
        break;
    }
    for (const auto& v : tir_vars_in(s)) check_symbolic_use(v, at);
  }

  // The tensors of a struct info (through tuples): see check_tensor_size.
  void check_sizes(const Ref<StructInfo>& s, ir::Span at) {
    if (auto t = s.as_ptr<ir::TensorStructInfo>()) {
      check_tensor_size(*t, at);
    } else if (auto tu = s.as_ptr<ir::TupleStructInfo>()) {
      for (const auto& f : tu->fields) check_sizes(f, at);
    }
  }

  // A constant dimension below 0, or constant dimensions whose size in bytes overflows int64 or
  // passes kMaxTensorBytes, describe no tensor: the program would fail (or allocate wrapped
  // sizes) at run time. Reported once per shape, at the dimension when it has a position.
  void check_tensor_size(const ir::TensorStructInfo& t, ir::Span at) {
    const std::vector<Ref<ir::tir::PrimExpr>>* dims = t.shape_values();
    if (!dims || dims->empty()) return;
    const void* key = t.shape ? static_cast<const void*>(t.shape.get()) : dims;
    if (sized_shapes_.count(key)) return;
    int64_t bytes = t.is_unknown_dtype() ? 1 : t.dtype.bytes() * t.dtype.lanes();
    bool constant = true, overflow = false;
    for (const auto& d : *dims) {
      auto imm = d.as_ptr<ir::tir::IntImm>();
      if (!imm) {
        constant = false;
        continue;
      }
      if (imm->value < 0) {
        sized_shapes_.insert(key);
        diags_.error(codes::kImpossibleTensor, d->span.is_known() ? d->span : at,
                     "a tensor dimension cannot be negative, got " + std::to_string(imm->value));
        return;
      }
      overflow |= __builtin_mul_overflow(bytes, imm->value, &bytes);
    }
    if (!constant || (!overflow && bytes <= kMaxTensorBytes)) return;
    sized_shapes_.insert(key);
    std::string dims_text;
    for (const auto& d : *dims) {
      dims_text +=
          (dims_text.empty() ? "" : ", ") + std::to_string(d.as_ptr<ir::tir::IntImm>()->value);
    }
    diags_
        .error(codes::kImpossibleTensor, at,
               "a tensor of shape (" + dims_text + ") and dtype " +
                   (t.is_unknown_dtype() ? std::string("unknown") : t.dtype.str()) +
                   (overflow ? " has more bytes than int64 can count"
                             : " needs " + std::to_string(bytes) + " bytes"))
        .note("no tensor can be larger than 2^56 bytes (64 PiB), what a 64-bit address space maps");
  }

  // A variable that outlives its dataflow block cannot take its shape from a dataflow variable.
  void check_no_dataflow_shape(const Ref<ir::Var>& var, ir::Span at) {
    std::function<void(const Ref<StructInfo>&)> visit = [&](const Ref<StructInfo>& s) {
      if (auto t = s.as_ptr<ir::TensorStructInfo>()) {
        if (auto v = t->shape.as_ptr<ir::Var>(); v && v->is_dataflow()) {
          diags_
              .error(codes::kDataflowVarInSinfo, at,
                     "the struct info of `" + var->name +
                         "` takes its shape from dataflow variable `" + v->name +
                         "`, which ends with its dataflow block")
              .note("output the shape variable too, or annotate `" + var->name + "` with the dims");
        }
      } else if (auto tu = s.as_ptr<ir::TupleStructInfo>()) {
        for (const auto& f : tu->fields) visit(f);
      }
    };
    visit(var->struct_info);
  }

  void check_prim(const Ref<ir::tir::PrimExpr>& e, ir::Span at) {
    if (!e) return;
    std::vector<Ref<ir::tir::Var>> vars;
    auto shape = ir::make<ir::ShapeStructInfo>(std::vector<Ref<ir::tir::PrimExpr>>{e});
    for (const auto& v : tir_vars_in(shape)) check_symbolic_use(v, at);
  }

  void check_symbolic_use(const Ref<ir::tir::Var>& v, const UseSpan& at) {
    if (!symbolic_.contains(v.get())) {
      report_undefined_symbolic(v, at);
      return;
    }
    if (!top_) return;
    auto [it, inserted] = symbolic_owner_.emplace(v.get(), std::make_pair(top_, current_name_));
    if (!inserted && it->second.first != top_ && reported_shared_.insert(v.get()).second) {
      diags_
          .error(codes::kSharedSymbolic, ir::Span(at),
                 "symbolic variable `" + v->name + "` is used in function `" + it->second.second +
                     "` and in function `" + current_name_ + "`; each function needs its own")
          .note("declare it again in this function (`" + v->name +
                " = T.int64()`) or in its signature");
    }
  }

  void report_undefined_symbolic(const Ref<ir::tir::Var>& v, const UseSpan& at) {
    // One report per variable and function.
    if (!reported_symbolic_.insert({v.get(), top_}).second) return;
    diags_
        .error(codes::kUndefinedSymbolic, ir::Span(at),
               "symbolic variable `" + v->name + "` is not defined here")
        .note(
            "a symbolic variable is defined where it first appears alone as a dimension of a "
            "parameter's "
            "annotation or of an R.match_cast target");
  }

  // --- Struct info presence ---

  void check_has_sinfo(const Ref<ir::Expr>& e) {
    if (e && !e->struct_info && !e.is<ir::Op>())
      report_missing_sinfo(e->span, "an expression has no struct info");
  }

  void report_missing_sinfo(ir::Span at, const std::string& what) {
    if (missing_sinfo_reported_) return;
    missing_sinfo_reported_ = true;
    diags_.error(codes::kMissingSinfo, at, what + " (the function was not normalized)")
        .note("run struct-info inference (normalize) before checking well-formedness");
  }

  ir::Span span_of(const Ref<ir::Expr>& e, ir::Span fallback) const {
    return e && e->span.is_known() ? e->span : fallback;
  }
  // Variables are shared nodes whose span is their definition; a use is found by name in the
  // text of the binding (or result) being checked.
  ir::Span use_span(const Ref<ir::Expr>& e) const { return UseSpan(e, at_, last_use_); }

  const ir::IRModule& module_;
  ir::DiagnosticBag& diags_;
  const WellFormedOptions& options_;
  const OpRegistry& registry_;
  arith::Analyzer analyzer_;
  const ir::Function* top_ = nullptr;
  ir::Span at_;  // the binding (or function) being checked, where variable uses are searched
  bool last_use_ = false;  // a function's result: its use is the last occurrence (the return)
  std::string current_name_;
  bool in_dataflow_ = false;
  bool missing_sinfo_reported_ = false;
  ScopedSet<ir::Var> vars_, dataflow_vars_;
  std::unordered_set<const ir::Var*> recursive_;
  ScopedSet<ir::tir::Var> symbolic_;
  std::unordered_map<const ir::Var*, const ir::Function*> param_owner_;
  std::unordered_map<const ir::tir::Var*, std::pair<const ir::Function*, std::string>>
      symbolic_owner_;
  std::unordered_set<const ir::tir::Var*> reported_shared_;
  std::unordered_set<const void*> sized_shapes_;  // shapes check_tensor_size reported
  std::set<std::pair<const ir::tir::Var*, const ir::Function*>> reported_symbolic_;
};

// ---------------------------------------------------------------------------------------------
// TIR: index counts, defined variables, block iteration variables (rules E0420-E0422)

// Every buffer a prim_func mentions (its fields are in scope wherever the buffer is: legacy TIR
// binds them with buffer_bind_scope attributes rather than declarations).
class BufferCollector : public ir::tir::Visitor {
 public:
  std::vector<Ref<ir::tir::Buffer>> buffers;
  std::unordered_set<const ir::tir::Buffer*> seen;

  void add(const Ref<ir::tir::Buffer>& b) {
    if (b && seen.insert(b.get()).second) buffers.push_back(b);
  }
  void visit_buffer_load(const Ref<ir::tir::BufferLoad>& e) override {
    add(e->buffer);
    ir::tir::Visitor::visit_buffer_load(e);
  }
  void visit_buffer_store(const Ref<ir::tir::BufferStore>& s) override {
    add(s->buffer);
    ir::tir::Visitor::visit_buffer_store(s);
  }
  void visit_buffer_realize(const Ref<ir::tir::BufferRealize>& s) override {
    add(s->buffer);
    ir::tir::Visitor::visit_buffer_realize(s);
  }
  void visit_decl_buffer(const Ref<ir::tir::DeclBuffer>& s) override {
    add(s->buffer);
    ir::tir::Visitor::visit_decl_buffer(s);
  }
  void visit_attr_stmt(const Ref<ir::tir::AttrStmt>& s) override {
    add(s->node.as<ir::tir::Buffer>());
    if (auto arr = s->node.as_ptr<ir::ArrayValue>()) {
      for (const auto& item : arr->items) add(item.as<ir::tir::Buffer>());
    }
    ir::tir::Visitor::visit_attr_stmt(s);
  }
  void visit_block(const Ref<ir::tir::Block>& b) override {
    for (const auto& buf : b->alloc_buffers) add(buf);
    for (const auto& m : b->match_buffers) add(m->buffer);
    for (const auto& r : b->reads) add(r->buffer);
    for (const auto& r : b->writes) add(r->buffer);
    ir::tir::Visitor::visit_block(b);
  }
};

class TirChecker : public ir::tir::Visitor {
 public:
  TirChecker(std::string name, ir::DiagnosticBag& diags) : name_(std::move(name)), diags_(diags) {}

  void check(const ir::tir::PrimFunc& f) {
    at_ = f.body ? f.body->span : ir::Span::unknown();
    for (const auto& p : f.params) define(p);
    // A buffer's data pointer, strides and offset are fields of the buffer, defined with it.
    BufferCollector buffers;
    for (const auto& [param, buf] : f.buffer_map) buffers.add(buf);
    buffers.visit_stmt(f.body);
    for (const auto& buf : buffers.buffers) {
      define(buf->data);
      for (const auto& d : buf->strides) define(d.as<ir::tir::Var>());
      define(buf->elem_offset.as<ir::tir::Var>());
    }
    // Buffers of the signature define the variables that appear alone in their shapes.
    for (const auto& [param, buf] : f.buffer_map) define_buffer_vars(buf);
    for (const auto& [param, buf] : f.buffer_map) use_buffer_exprs(buf);
    visit_stmt(f.body);
  }

  void visit_stmt(const Ref<ir::tir::Stmt>& s) override {
    if (!s) return;
    ir::Span saved = at_;
    if (s->span.is_known()) at_ = s->span;
    ir::tir::Visitor::visit_stmt(s);
    at_ = saved;
  }

  void visit_expr(const Ref<ir::tir::PrimExpr>& e) override {
    if (!e) return;
    ir::Span saved = at_;
    // A variable's span is its definition, not this use.
    if (e->span.is_known() && !e.is<ir::tir::Var>()) at_ = e->span;
    ir::tir::Visitor::visit_expr(e);
    at_ = saved;
  }

  void visit_var(const Ref<ir::tir::Var>& v) override {
    // The innermost statement or expression with a span holds the use; find the name in it
    // when there is something to report (the search reads that text).
    auto use = [&] {
      ir::Span found = find_identifier(at_, v->name);
      return found.is_known() ? found : at_;
    };
    auto it = defined_.find(v.get());
    if (it == defined_.end() || it->second == 0) {
      if (reported_.insert(v.get()).second) {
        diags_.error(codes::kTirUndefinedVar, use(),
                     "variable `" + v->name + "` is used in prim_func `" + name_ +
                         "` where nothing defines it");
      }
      return;
    }
    auto loop = loop_depth_.find(v.get());
    if (loop != loop_depth_.end() && loop->second < block_depth_ &&
        reported_loop_.insert(v.get()).second) {
      diags_.error(codes::kTirLoopVarInBlock, use(),
                   "block `" + block_name_ + "` uses the loop variable `" + v->name +
                       "` of an enclosing loop directly; bind it to an iteration variable "
                       "(T.axis.*) and use that");
    }
  }

  void visit_for(const Ref<ir::tir::For>& s) override {
    visit_expr(s->min);
    visit_expr(s->extent);
    define(s->loop_var);
    loop_depth_[s->loop_var.get()] = block_depth_;
    visit_stmt(s->body);
    loop_depth_.erase(s->loop_var.get());
    undefine(s->loop_var);
  }

  void visit_let_stmt(const Ref<ir::tir::LetStmt>& s) override {
    visit_expr(s->value);
    define(s->var);
    visit_stmt(s->body);
    undefine(s->var);
  }

  void visit_let(const Ref<ir::tir::Let>& e) override {
    visit_expr(e->value);
    define(e->var);
    visit_expr(e->body);
    undefine(e->var);
  }

  void visit_attr_stmt(const Ref<ir::tir::AttrStmt>& s) override {
    Ref<ir::tir::Var> bound;
    if (auto iv = s->node.as<ir::tir::IterVar>()) bound = iv->var;  // thread launches
    visit_expr(s->value);
    if (bound) define(bound);
    visit_stmt(s->body);
    if (bound) undefine(bound);
  }

  void visit_allocate(const Ref<ir::tir::Allocate>& s) override {
    for (const auto& e : s->extents) visit_expr(e);
    visit_expr(s->condition);
    define(s->buffer_var);
    visit_stmt(s->body);
    undefine(s->buffer_var);
  }

  void visit_decl_buffer(const Ref<ir::tir::DeclBuffer>& s) override {
    use_buffer_exprs(s->buffer);
    visit_stmt(s->body);
  }

  void visit_buffer_load(const Ref<ir::tir::BufferLoad>& e) override {
    check_rank(e->buffer, e->indices.size());
    ir::tir::Visitor::visit_buffer_load(e);
  }

  void visit_buffer_store(const Ref<ir::tir::BufferStore>& s) override {
    check_rank(s->buffer, s->indices.size());
    ir::tir::Visitor::visit_buffer_store(s);
  }

  void visit_reduce(const Ref<ir::tir::Reduce>& r) override {
    for (const auto& iv : r->axis) {
      if (iv && iv->dom) {
        visit_expr(iv->dom->min);
        visit_expr(iv->dom->extent);
      }
    }
    for (const auto& iv : r->axis) define(iv->var);
    for (const auto& e : r->source) visit_expr(e);
    for (const auto& e : r->init) visit_expr(e);
    visit_expr(r->condition);
    for (const auto& iv : r->axis) undefine(iv->var);
  }

  void visit_block(const Ref<ir::tir::Block>& b) override {
    for (const auto& iv : b->iter_vars) {
      if (iv->dom) {
        visit_expr(iv->dom->min);
        visit_expr(iv->dom->extent);
      }
    }
    std::string saved_name = block_name_;
    int saved_depth = block_depth_;
    block_name_ = b->name_hint;
    // Only a block with iteration variables hides the enclosing loops (TVM's rule for
    // non-opaque blocks).
    if (!b->iter_vars.empty()) block_depth_ = ++block_counter_;
    for (const auto& iv : b->iter_vars) define(iv->var);
    for (const auto& buf : b->alloc_buffers) use_buffer_exprs(buf);
    for (const auto& m : b->match_buffers) {
      visit_region(m->source);
      define_buffer_vars(m->buffer);
      use_buffer_exprs(m->buffer);
    }
    // The body first: its uses have spans, the (often completed) access regions do not.
    visit_stmt(b->init);
    visit_stmt(b->body);
    for (const auto& r : b->reads) visit_region(r);
    for (const auto& r : b->writes) visit_region(r);
    for (const auto& m : b->match_buffers) undefine_buffer_vars(m->buffer);
    for (const auto& iv : b->iter_vars) undefine(iv->var);
    block_depth_ = saved_depth;
    block_name_ = saved_name;
  }

 private:
  void visit_region(const Ref<ir::tir::BufferRegion>& r) {
    if (!r) return;
    check_rank(r->buffer, r->region.size());
    ir::tir::Visitor::visit_region(r);
  }

  void check_rank(const Ref<ir::tir::Buffer>& buf, size_t indices) {
    if (!buf) return;
    size_t rank = buf->shape.size();
    // A flattened (1-D) access of a buffer with axis separators is counted per separated group.
    if (!buf->axis_separators.empty()) rank = buf->axis_separators.size() + 1;
    if (indices != rank && indices != buf->shape.size()) {
      diags_.error(codes::kTirIndexCount, at_,
                   "buffer `" + buf->name + "` has rank " + std::to_string(buf->shape.size()) +
                       " but is accessed with " + std::to_string(indices) + " index" +
                       (indices == 1 ? "" : "es"));
    }
  }

  void define(const Ref<ir::tir::Var>& v) {
    if (v) ++defined_[v.get()];
  }
  void undefine(const Ref<ir::tir::Var>& v) {
    if (!v) return;
    auto it = defined_.find(v.get());
    if (it != defined_.end() && it->second > 0) --it->second;
  }

  void define_buffer_vars(const Ref<ir::tir::Buffer>& buf) {
    if (!buf) return;
    define(buf->data);
    for (const auto& d : buf->shape) define(d.as<ir::tir::Var>());
    for (const auto& d : buf->strides) define(d.as<ir::tir::Var>());
    define(buf->elem_offset.as<ir::tir::Var>());
  }
  void undefine_buffer_vars(const Ref<ir::tir::Buffer>& buf) {
    if (!buf) return;
    undefine(buf->data);
    for (const auto& d : buf->shape) undefine(d.as<ir::tir::Var>());
    for (const auto& d : buf->strides) undefine(d.as<ir::tir::Var>());
    undefine(buf->elem_offset.as<ir::tir::Var>());
  }
  void use_buffer_exprs(const Ref<ir::tir::Buffer>& buf) {
    if (!buf) return;
    for (const auto& d : buf->shape) visit_expr(d);
    for (const auto& d : buf->strides) visit_expr(d);
    visit_expr(buf->elem_offset);
  }

  std::string name_;
  ir::DiagnosticBag& diags_;
  ir::Span at_;
  std::unordered_map<const ir::tir::Var*, int> defined_;
  std::unordered_map<const ir::tir::Var*, int> loop_depth_;
  int block_depth_ = 0;
  int block_counter_ = 0;
  std::string block_name_;
  std::unordered_set<const ir::tir::Var*> reported_, reported_loop_;
};

}  // namespace

void check_well_formed(const ir::IRModule& module, ir::DiagnosticBag& diags) {
  check_well_formed(module, diags, WellFormedOptions{});
}

void check_well_formed(const ir::IRModule& module, ir::DiagnosticBag& diags,
                       const WellFormedOptions& options) {
  RelaxChecker checker(module, diags, options);
  checker.run();
  for (const auto& member : module.functions) {
    if (auto pf = member.func.as_ptr<ir::tir::PrimFunc>()) {
      std::string name = member.gvar ? member.gvar->name : "";
      TirChecker tir(name, diags);
      tir.check(*pf);
      check_tir_bounds(*pf, name, diags);
    }
  }
}

}  // namespace relax::analysis
