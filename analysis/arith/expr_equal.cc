// Identity-of-variables equality and hashing for PrimExprs. Past kMaxDepth nesting levels both
// functions fall back to node identity, so that pathological trees cannot exhaust the stack; the
// cut-off is the same in both, which keeps them consistent.
#include "analysis/arith/expr_equal.h"

#include <bit>
#include <functional>

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;
using ir::Ref;
namespace tir = ir::tir;

constexpr int kMaxDepth = 256;

size_t mix(size_t h, size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

size_t dtype_hash(ir::DataType t) {
  return (static_cast<size_t>(t.code()) << 24) ^ (static_cast<size_t>(t.bits()) << 16) ^
         static_cast<size_t>(static_cast<uint16_t>(t.lanes()));
}

bool equal_at(const tir::PrimExpr* a, const tir::PrimExpr* b, int depth);

bool equal_ref(const Ref<tir::PrimExpr>& a, const Ref<tir::PrimExpr>& b, int depth) {
  if (!a || !b) return a.get() == b.get();
  return equal_at(a.get(), b.get(), depth);
}

bool equal_list(const std::vector<Ref<tir::PrimExpr>>& a, const std::vector<Ref<tir::PrimExpr>>& b,
                int depth) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!equal_ref(a[i], b[i], depth)) return false;
  }
  return true;
}

bool equal_at(const tir::PrimExpr* a, const tir::PrimExpr* b, int depth) {
  if (a == b) return true;
  if (a->kind() != b->kind() || a->dtype != b->dtype) return false;
  if (depth >= kMaxDepth) return false;
  ++depth;
  switch (a->kind()) {
    case ObjectKind::kTirVar:
      return false;  // distinct nodes are distinct variables
    case ObjectKind::kIntImm:
      return static_cast<const tir::IntImm*>(a)->value == static_cast<const tir::IntImm*>(b)->value;
    case ObjectKind::kFloatImm:
      return std::bit_cast<uint64_t>(static_cast<const tir::FloatImm*>(a)->value) ==
             std::bit_cast<uint64_t>(static_cast<const tir::FloatImm*>(b)->value);
    case ObjectKind::kTirStringImm:
      return static_cast<const tir::StringImm*>(a)->value ==
             static_cast<const tir::StringImm*>(b)->value;
    case ObjectKind::kCast:
      return equal_ref(static_cast<const tir::Cast*>(a)->value,
                       static_cast<const tir::Cast*>(b)->value, depth);
    case ObjectKind::kNot:
      return equal_ref(static_cast<const tir::Not*>(a)->a, static_cast<const tir::Not*>(b)->a,
                       depth);
    case ObjectKind::kSelect: {
      auto* x = static_cast<const tir::Select*>(a);
      auto* y = static_cast<const tir::Select*>(b);
      return equal_ref(x->condition, y->condition, depth) &&
             equal_ref(x->true_value, y->true_value, depth) &&
             equal_ref(x->false_value, y->false_value, depth);
    }
    case ObjectKind::kBufferLoad: {
      auto* x = static_cast<const tir::BufferLoad*>(a);
      auto* y = static_cast<const tir::BufferLoad*>(b);
      return x->buffer == y->buffer && equal_list(x->indices, y->indices, depth) &&
             equal_ref(x->predicate, y->predicate, depth);
    }
    case ObjectKind::kRamp: {
      auto* x = static_cast<const tir::Ramp*>(a);
      auto* y = static_cast<const tir::Ramp*>(b);
      return equal_ref(x->base, y->base, depth) && equal_ref(x->stride, y->stride, depth) &&
             equal_ref(x->lanes, y->lanes, depth);
    }
    case ObjectKind::kBroadcast: {
      auto* x = static_cast<const tir::Broadcast*>(a);
      auto* y = static_cast<const tir::Broadcast*>(b);
      return equal_ref(x->value, y->value, depth) && equal_ref(x->lanes, y->lanes, depth);
    }
    case ObjectKind::kShuffle: {
      auto* x = static_cast<const tir::Shuffle*>(a);
      auto* y = static_cast<const tir::Shuffle*>(b);
      return equal_list(x->vectors, y->vectors, depth) && equal_list(x->indices, y->indices, depth);
    }
    case ObjectKind::kLet: {
      auto* x = static_cast<const tir::Let*>(a);
      auto* y = static_cast<const tir::Let*>(b);
      return x->var == y->var && equal_ref(x->value, y->value, depth) &&
             equal_ref(x->body, y->body, depth);
    }
    case ObjectKind::kTirCall: {
      auto* x = static_cast<const tir::Call*>(a);
      auto* y = static_cast<const tir::Call*>(b);
      return x->op == y->op && equal_list(x->args, y->args, depth);
    }
    case ObjectKind::kReduce:
      return false;  // compared by identity only
    default: {
      auto* x = static_cast<const tir::BinaryOp*>(a);
      auto* y = static_cast<const tir::BinaryOp*>(b);
      return equal_ref(x->a, y->a, depth) && equal_ref(x->b, y->b, depth);
    }
  }
}

size_t hash_at(const tir::PrimExpr* e, int depth);

size_t hash_ref(const Ref<tir::PrimExpr>& e, int depth) {
  return e ? hash_at(e.get(), depth) : 0x51ed27;
}

size_t hash_list(size_t h, const std::vector<Ref<tir::PrimExpr>>& list, int depth) {
  h = mix(h, list.size());
  for (const auto& e : list) h = mix(h, hash_ref(e, depth));
  return h;
}

size_t hash_at(const tir::PrimExpr* e, int depth) {
  size_t h = mix(static_cast<size_t>(e->kind()), dtype_hash(e->dtype));
  if (depth >= kMaxDepth || e->kind() == ObjectKind::kTirVar || e->kind() == ObjectKind::kReduce) {
    return mix(h, std::hash<const void*>()(e));
  }
  ++depth;
  switch (e->kind()) {
    case ObjectKind::kIntImm:
      return mix(h, static_cast<size_t>(static_cast<const tir::IntImm*>(e)->value));
    case ObjectKind::kFloatImm:
      return mix(h, std::bit_cast<uint64_t>(static_cast<const tir::FloatImm*>(e)->value));
    case ObjectKind::kTirStringImm:
      return mix(h, std::hash<std::string>()(static_cast<const tir::StringImm*>(e)->value));
    case ObjectKind::kCast:
      return mix(h, hash_ref(static_cast<const tir::Cast*>(e)->value, depth));
    case ObjectKind::kNot:
      return mix(h, hash_ref(static_cast<const tir::Not*>(e)->a, depth));
    case ObjectKind::kSelect: {
      auto* x = static_cast<const tir::Select*>(e);
      h = mix(h, hash_ref(x->condition, depth));
      h = mix(h, hash_ref(x->true_value, depth));
      return mix(h, hash_ref(x->false_value, depth));
    }
    case ObjectKind::kBufferLoad: {
      auto* x = static_cast<const tir::BufferLoad*>(e);
      h = mix(h, std::hash<const void*>()(x->buffer.get()));
      h = hash_list(h, x->indices, depth);
      return mix(h, hash_ref(x->predicate, depth));
    }
    case ObjectKind::kRamp: {
      auto* x = static_cast<const tir::Ramp*>(e);
      h = mix(h, hash_ref(x->base, depth));
      h = mix(h, hash_ref(x->stride, depth));
      return mix(h, hash_ref(x->lanes, depth));
    }
    case ObjectKind::kBroadcast: {
      auto* x = static_cast<const tir::Broadcast*>(e);
      h = mix(h, hash_ref(x->value, depth));
      return mix(h, hash_ref(x->lanes, depth));
    }
    case ObjectKind::kShuffle: {
      auto* x = static_cast<const tir::Shuffle*>(e);
      return hash_list(hash_list(h, x->vectors, depth), x->indices, depth);
    }
    case ObjectKind::kLet: {
      auto* x = static_cast<const tir::Let*>(e);
      h = mix(h, std::hash<const void*>()(x->var.get()));
      h = mix(h, hash_ref(x->value, depth));
      return mix(h, hash_ref(x->body, depth));
    }
    case ObjectKind::kTirCall: {
      auto* x = static_cast<const tir::Call*>(e);
      return hash_list(mix(h, std::hash<std::string>()(x->op)), x->args, depth);
    }
    default: {
      auto* x = static_cast<const tir::BinaryOp*>(e);
      h = mix(h, hash_ref(x->a, depth));
      return mix(h, hash_ref(x->b, depth));
    }
  }
}

}  // namespace

bool expr_equal(const Ref<tir::PrimExpr>& a, const Ref<tir::PrimExpr>& b) {
  return equal_ref(a, b, 0);
}

size_t expr_hash(const Ref<tir::PrimExpr>& e) {
  return hash_ref(e, 0);
}

}  // namespace relax::analysis::arith
