// The object model every IR node shares: an intrusive reference count, a closed kind enum for
// dispatch without RTTI, a source span, and Ref<T>, the smart pointer nodes are held by.
// Nodes are immutable once shared: passes build new nodes and reuse the untouched ones.
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "ir/span.h"

namespace relax::ir {

// Every node kind of the IR, one enum so that a switch can dispatch over any node. Ranges of
// related kinds are contiguous; the `kFirst*`/`kLast*` markers let classof() test a range.
enum class ObjectKind : uint16_t {
  // Plain values (attribute payloads, dictionary keys).
  kString,
  kBool,
  kInt,
  kFloat,
  kArray,
  kMap,
  // Struct info.
  kObjectStructInfo,
  kPrimStructInfo,
  kShapeStructInfo,
  kTensorStructInfo,
  kTupleStructInfo,
  kFuncStructInfo,
  kStructInfoOf,
  // Relax expressions.
  kVar,
  kDataflowVar,
  kGlobalVar,
  kConstant,
  kTuple,
  kTupleGetItem,
  kCall,
  kIf,
  kSeqExpr,
  kFunction,
  kExternFunc,
  kShapeExpr,
  kPrimValue,
  kStringImm,
  kDataTypeImm,
  kOp,
  // Relax bindings and blocks.
  kVarBinding,
  kMatchCast,
  kBindingBlock,
  // TIR expressions.
  kTirVar,
  kIntImm,
  kFloatImm,
  kTirStringImm,
  kCast,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kFloorDiv,
  kFloorMod,
  kMin,
  kMax,
  kEQ,
  kNE,
  kLT,
  kLE,
  kGT,
  kGE,
  kAnd,
  kOr,
  kNot,
  kSelect,
  kBufferLoad,
  kRamp,
  kBroadcast,
  kShuffle,
  kLet,
  kTirCall,
  kReduce,
  // TIR statements.
  kLetStmt,
  kAttrStmt,
  kAssertStmt,
  kBufferStore,
  kBufferRealize,
  kAllocate,
  kDeclBuffer,
  kSeqStmt,
  kIfThenElse,
  kEvaluate,
  kFor,
  kWhile,
  kBlock,
  kBlockRealize,
  // TIR helpers.
  kBuffer,
  kRange,
  kIterVar,
  kBufferRegion,
  kMatchBufferRegion,
  kIndexMap,
  kCommReducer,
  kPrimFunc,
  // Module level.
  kIRModule,
  kTarget,
  kVDevice,
  kDummyGlobalInfo,
  kOpaqueCall,

  kFirstStructInfo = kObjectStructInfo,
  kLastStructInfo = kStructInfoOf,
  kFirstRelaxExpr = kVar,
  kLastRelaxExpr = kOp,
  kFirstBinding = kVarBinding,
  kLastBinding = kMatchCast,
  kFirstPrimExpr = kTirVar,
  kLastPrimExpr = kReduce,
  kFirstBinaryOp = kAdd,
  kLastBinaryOp = kOr,
  kFirstStmt = kLetStmt,
  kLastStmt = kBlockRealize,
};

// The name of a kind, for debugging and error messages ("Call", "TirVar", ...).
const char* kind_name(ObjectKind kind);

class Object {
 public:
  Object(const Object& other) : span(other.span), kind_(other.kind_), ref_count_(0) {}
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  ObjectKind kind() const { return kind_; }
  uint32_t use_count() const { return ref_count_.load(std::memory_order_relaxed); }

  // Where the node came from in the source text; Span::unknown() for synthesised nodes.
  // Ignored by structural equality and hashing.
  Span span;

 protected:
  explicit Object(ObjectKind kind) : kind_(kind) {}

 private:
  template <class T>
  friend class Ref;
  void inc_ref() const { ref_count_.fetch_add(1, std::memory_order_relaxed); }
  void dec_ref() const {
    if (ref_count_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(this);
  }
  // Deletes a node whose last reference went away. Deleting a node releases its children, which
  // may delete them in turn: done directly, freeing a `x + x + ... + x` chain of 100,000 nested
  // calls would recurse as deep. The children a deletion frees are queued and deleted after it,
  // in a loop, so the stack stays flat whatever the depth of the tree (object.cc).
  static void destroy(const Object* node);

  ObjectKind kind_;
  mutable std::atomic<uint32_t> ref_count_{0};
};

// True when `obj` (non-null) is an instance of T, tested through T::classof.
template <class T>
inline bool isa(const Object* obj) {
  if constexpr (std::is_same_v<T, Object>) {
    return obj != nullptr;
  } else {
    return obj != nullptr && T::classof(obj);
  }
}

// A counted reference to a node of class T (or a subclass). May be null.
template <class T>
class Ref {
 public:
  using element_type = T;

  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT: null converts implicitly, as for pointers.
  explicit Ref(T* ptr) : ptr_(ptr) {
    if (ptr_) ptr_->inc_ref();
  }
  Ref(const Ref& other) : ptr_(other.ptr_) {
    if (ptr_) ptr_->inc_ref();
  }
  Ref(Ref&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
  template <class U>
  requires std::is_base_of_v<T, U> Ref(const Ref<U>& other)
      : ptr_(other.get()) {  // NOLINT: upcasts are implicit.
    if (ptr_) ptr_->inc_ref();
  }
  template <class U>
  requires std::is_base_of_v<T, U> Ref(Ref<U>&& other)
  noexcept : ptr_(other.release()) {}  // NOLINT
  ~Ref() {
    if (ptr_) ptr_->dec_ref();
  }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  T* get() const { return ptr_; }
  T* operator->() const {
    assert(ptr_ != nullptr);
    return ptr_;
  }
  T& operator*() const {
    assert(ptr_ != nullptr);
    return *ptr_;
  }
  explicit operator bool() const { return ptr_ != nullptr; }
  bool defined() const { return ptr_ != nullptr; }

  // Downcast: the node as a U when it is one, otherwise null.
  template <class U>
  Ref<U> as() const {
    if (ptr_ && isa<U>(ptr_)) return Ref<U>(static_cast<U*>(ptr_));
    return Ref<U>();
  }
  // Downcast to a raw pointer (no count change): the node as a U when it is one, else nullptr.
  template <class U>
  const U* as_ptr() const {
    if (ptr_ && isa<U>(ptr_)) return static_cast<const U*>(ptr_);
    return nullptr;
  }
  template <class U>
  bool is() const {
    return ptr_ && isa<U>(ptr_);
  }

  // Gives up ownership without decrementing; used by the converting move constructor.
  T* release() {
    T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }

  bool same_as(const Object* other) const { return ptr_ == other; }
  template <class U>
  bool same_as(const Ref<U>& other) const {
    return static_cast<const Object*>(ptr_) == static_cast<const Object*>(other.get());
  }

 private:
  T* ptr_ = nullptr;
};

template <class T, class U>
bool operator==(const Ref<T>& a, const Ref<U>& b) {
  return static_cast<const Object*>(a.get()) == static_cast<const Object*>(b.get());
}
template <class T>
bool operator==(const Ref<T>& a, std::nullptr_t) {
  return a.get() == nullptr;
}

// Allocates a node and returns the first reference to it.
template <class T, class... Args>
Ref<T> make(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

// A shallow copy of a node, to build a changed version of it: `auto c = copy(call); c->args = ..`.
template <class T>
Ref<T> copy(const Ref<T>& node) {
  assert(node);
  return Ref<T>(new T(*node));
}

using ObjectRef = Ref<Object>;

// Hash and equality on node identity, for maps keyed by a node.
struct RefHash {
  template <class T>
  size_t operator()(const Ref<T>& r) const {
    return std::hash<const void*>()(static_cast<const void*>(r.get()));
  }
};

}  // namespace relax::ir

template <class T>
struct std::hash<relax::ir::Ref<T>> {
  size_t operator()(const relax::ir::Ref<T>& r) const {
    return std::hash<const void*>()(static_cast<const void*>(r.get()));
  }
};
