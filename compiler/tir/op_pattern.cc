// Classification of PrimFuncs by fusion pattern (op_pattern.h).
#include "compiler/tir/op_pattern.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

#include "analysis/arith/expr_equal.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::tir {

using namespace ir;
using namespace ir::tir;

namespace {

bool same_index(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  return a.same_as(b) || analysis::arith::expr_equal(a, b);  // variables by identity
}

bool is_const(const Ref<PrimExpr>& e, int64_t v) {
  auto imm = e.as_ptr<IntImm>();
  return imm && imm->value == v;
}

// Whether `e` reads a variable for which `pred` holds.
bool uses_var_where(const Ref<PrimExpr>& e, const std::function<bool(const Var*)>& pred) {
  struct Finder : Visitor {
    const std::function<bool(const Var*)>* pred = nullptr;
    bool found = false;
    void visit_var(const Ref<Var>& v) override { found = found || (*pred)(v.get()); }
  } f;
  f.pred = &pred;
  f.visit_expr(e);
  return f.found;
}

bool same_indices(const std::vector<Ref<PrimExpr>>& a, const std::vector<Ref<PrimExpr>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_index(a[i], b[i])) return false;
  return true;
}

bool is_elemwise(const BufferStore& store, const BufferLoad& load) {
  return same_indices(store.indices, load.indices);
}

// The load's indices, without unit dims read at 0, appear in order among the store's indices.
bool is_broadcast(const BufferStore& store, const BufferLoad& load) {
  size_t j = 0;
  for (size_t i = 0; i < load.indices.size(); ++i) {
    if (i < load.buffer->shape.size() && is_const(load.buffer->shape[i], 1) &&
        is_const(load.indices[i], 0))
      continue;
    while (j < store.indices.size() && !same_index(store.indices[j], load.indices[i])) ++j;
    if (j == store.indices.size()) return false;
    ++j;
  }
  return true;
}

// The store's indices are variables and the load's indices use no other variable.
bool is_injective(const BufferStore& store, const BufferLoad& load) {
  std::unordered_set<const Var*> vars;
  for (const auto& idx : store.indices) {
    auto v = idx.as_ptr<Var>();
    if (!v) return false;
    vars.insert(v);
  }
  for (const auto& idx : load.indices)
    if (uses_var_where(idx, [&](const Var* v) { return !vars.count(v); })) return false;
  return true;
}

// Every index that uses a reduce variable is that variable alone.
bool is_pure_reduce(const std::vector<const Var*>& reduce_vars, const BufferLoad& load) {
  for (const auto& idx : load.indices) {
    auto is_reduce = [&](const Var* v) {
      return std::find(reduce_vars.begin(), reduce_vars.end(), v) != reduce_vars.end();
    };
    if (!uses_var_where(idx, is_reduce)) continue;
    auto v = idx.as_ptr<Var>();
    if (!v || !is_reduce(v)) return false;
  }
  return true;
}

// out[...] = out[...] + a * b (matmul, convolution).
bool is_multiply_accumulate(const Ref<Stmt>& body) {
  auto store = body.as_ptr<BufferStore>();
  if (!store || store->value->kind() != ObjectKind::kAdd) return false;
  auto add = store->value.as_ptr<BinaryOp>();
  auto acc = add->a.as_ptr<BufferLoad>();
  if (!acc || acc->buffer.get() != store->buffer.get() || !is_elemwise(*store, *acc)) return false;
  return add->b->kind() == ObjectKind::kMul;
}

class Classifier : public Visitor {
 public:
  OpPattern kind = OpPattern::kElemWise;
  bool saw_block = false;

  void visit_block(const Ref<Block>& block) override {
    if (block->iter_vars.empty() && block->name_hint == "root") {
      visit_stmt(block->body);
      return;
    }
    saw_block = true;
    loads_.clear();
    store_ = nullptr;
    multiple_stores_ = false;
    visit_stmt(block->body);
    if (!store_ || multiple_stores_) {
      kind = OpPattern::kOpaque;
      return;
    }
    OpPattern pair = OpPattern::kElemWise;
    bool has_elemwise = false;
    for (const BufferLoad* load : loads_) {
      if (is_elemwise(*store_, *load)) {
        has_elemwise = true;
      } else if (is_broadcast(*store_, *load)) {
        pair = std::max(pair, OpPattern::kBroadcast);
      } else if (is_injective(*store_, *load)) {
        pair = std::max(pair, OpPattern::kInjective);
      } else {
        pair = OpPattern::kOpaque;
        break;
      }
    }
    if (pair == OpPattern::kBroadcast && has_elemwise) pair = OpPattern::kElemWise;

    std::vector<const Var*> reduce_vars;
    for (const auto& iv : block->iter_vars)
      if (iv->iter_type == IterType::kCommReduce) reduce_vars.push_back(iv->var.get());
    if (!reduce_vars.empty()) {
      if (is_multiply_accumulate(block->body)) {
        kind = std::max(kind, OpPattern::kOutEWiseFusable);
        return;
      }
      for (const BufferLoad* load : loads_) {
        if (!is_pure_reduce(reduce_vars, *load)) {
          kind = std::max(kind, OpPattern::kOutEWiseFusable);
          return;
        }
      }
      kind = std::max(kind, OpPattern::kCommReduce);
      return;
    }
    // An elementwise or injective block after a reduction (softmax's normalization).
    if (kind == OpPattern::kCommReduce && pair <= OpPattern::kInjective) {
      kind = OpPattern::kOutEWiseFusable;
      return;
    }
    kind = std::max(kind, pair);
  }

  void visit_buffer_store(const Ref<BufferStore>& s) override {
    if (store_ && store_ != s.get() &&
        (store_->buffer.get() != s->buffer.get() || !same_indices(store_->indices, s->indices)))
      multiple_stores_ = true;
    store_ = s.get();
    Visitor::visit_buffer_store(s);
  }

  void visit_buffer_load(const Ref<BufferLoad>& load) override {
    loads_.push_back(load.get());
    Visitor::visit_buffer_load(load);
  }

 private:
  std::vector<const BufferLoad*> loads_;
  const BufferStore* store_ = nullptr;
  bool multiple_stores_ = false;
};

}  // namespace

OpPattern classify_op_pattern(const PrimFunc& func) {
  if (!func.body) return OpPattern::kOpaque;
  Classifier c;
  c.visit_stmt(func.body);
  if (!c.saw_block) return OpPattern::kOpaque;
  return c.kind;
}

std::string_view op_pattern_name(OpPattern p) {
  switch (p) {
    case OpPattern::kElemWise:
      return "ElemWise";
    case OpPattern::kBroadcast:
      return "Broadcast";
    case OpPattern::kInjective:
      return "Injective";
    case OpPattern::kCommReduce:
      return "CommReduce";
    case OpPattern::kOutEWiseFusable:
      return "OutEWiseFusable";
    case OpPattern::kTuple:
      return "Tuple";
    case OpPattern::kOpaque:
      return "Opaque";
  }
  return "Opaque";
}

}  // namespace relax::compiler::tir
