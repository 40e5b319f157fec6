// The heap objects register values point to (tensors, storage, shapes, tuples, closures,
// strings): an intrusive, atomic reference count and a closed kind tag, so a Value is 16 bytes
// and copying one costs an increment. Ref<T> is the owning pointer.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace relax::vm {

// Every kind a register can hold. Kinds before kFirstObject are stored inline in the Value.
enum class ValueKind : uint8_t {
  kNull,
  kInt,       // int64 (also bools and prim values)
  kFloat,     // double
  kDType,     // DLDataType
  kFunction,  // an entry of the executable's function table (a closure with nothing captured)
  kOpaque,    // a raw pointer the runtime does not own (e.g. the VM context)
  kTensor,    // kFirstObject
  kStorage,
  kShape,
  kTuple,
  kClosure,
  kString,
};
inline constexpr ValueKind kFirstObject = ValueKind::kTensor;

const char* value_kind_name(ValueKind kind);

class Object {
 public:
  explicit Object(ValueKind kind) : kind_(kind) {}
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  ValueKind kind() const { return kind_; }
  void inc_ref() const noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void dec_ref() const noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  int32_t use_count() const { return refs_.load(std::memory_order_relaxed); }

 private:
  mutable std::atomic<int32_t> refs_{0};
  ValueKind kind_;
};

template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT
  explicit Ref(T* p) : p_(p) {
    if (p_) p_->inc_ref();
  }
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) p_->inc_ref();
  }
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
  Ref(const Ref<U>& o) : Ref(o.get()) {}  // NOLINT: upcast
  ~Ref() {
    if (p_) p_->dec_ref();
  }
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const Ref& o) const { return p_ == o.p_; }

 private:
  T* p_ = nullptr;
};

template <class T, class... A>
Ref<T> make_ref(A&&... args) {
  return Ref<T>(new T(std::forward<A>(args)...));
}

}  // namespace relax::vm
