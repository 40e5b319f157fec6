// What a VM register holds: a 16-byte tagged value. Scalars (int, float, dtype), function
// references and opaque pointers are stored inline; tensors, storage, shapes, tuples, closures
// and strings are reference-counted objects. Copying a Value is an increment, moving it free.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vm/object.h"
#include "vm/tensor.h"

namespace relax::vm {

class ShapeObj final : public Object {
 public:
  explicit ShapeObj(std::vector<int64_t> dims)
      : Object(ValueKind::kShape), dims_(std::move(dims)) {}
  std::span<const int64_t> dims() const { return dims_; }
  size_t size() const { return dims_.size(); }
  int64_t operator[](size_t i) const { return dims_[i]; }

 private:
  std::vector<int64_t> dims_;
};

class StringObj final : public Object {
 public:
  explicit StringObj(std::string s) : Object(ValueKind::kString), str_(std::move(s)) {}
  const std::string& str() const { return str_; }

 private:
  std::string str_;
};

class Value;

class TupleObj final : public Object {
 public:
  explicit TupleObj(std::vector<Value> fields);
  ~TupleObj() override;
  std::span<const Value> fields() const;
  size_t size() const;
  const Value& operator[](size_t i) const;

 private:
  std::vector<Value> fields_;
};

// A function of the executable's table with values bound to its last parameters.
class ClosureObj final : public Object {
 public:
  ClosureObj(int64_t function, std::vector<Value> captured);
  ~ClosureObj() override;
  int64_t function() const { return function_; }
  std::span<const Value> captured() const;

 private:
  int64_t function_;
  std::vector<Value> captured_;
};

class Value {
 public:
  Value() : kind_(ValueKind::kNull), i_(0) {}
  Value(int64_t i) : kind_(ValueKind::kInt), i_(i) {}           // NOLINT: implicit by design
  Value(int i) : Value(static_cast<int64_t>(i)) {}              // NOLINT
  Value(bool b) : Value(static_cast<int64_t>(b)) {}             // NOLINT
  Value(double f) : kind_(ValueKind::kFloat), f_(f) {}          // NOLINT
  Value(DLDataType t) : kind_(ValueKind::kDType), dtype_(t) {}  // NOLINT
  template <class T>
  Value(const Ref<T>& r) : Value(static_cast<Object*>(r.get())) {}  // NOLINT
  explicit Value(Object* obj) : kind_(obj ? obj->kind() : ValueKind::kNull), obj_(obj) {
    if (obj_) obj_->inc_ref();
  }
  Value(std::string s);  // NOLINT: a string object
  Value(const char* s);  // NOLINT
  static Value function(int64_t index);
  static Value opaque(void* p);
  static Value shape(std::vector<int64_t> dims);
  static Value tuple(std::vector<Value> fields);

  Value(const Value& o) : kind_(o.kind_), i_(o.i_) {
    if (is_object()) obj_->inc_ref();
  }
  Value(Value&& o) noexcept : kind_(o.kind_), i_(o.i_) { o.kind_ = ValueKind::kNull; }
  Value& operator=(const Value& o) {
    if (o.is_object()) o.obj_->inc_ref();
    release();
    kind_ = o.kind_;
    i_ = o.i_;
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      release();
      kind_ = o.kind_;
      i_ = o.i_;
      o.kind_ = ValueKind::kNull;
    }
    return *this;
  }
  ~Value() { release(); }
  void reset() {
    release();
    kind_ = ValueKind::kNull;
  }

  ValueKind kind() const { return kind_; }
  bool is_null() const { return kind_ == ValueKind::kNull; }
  bool is_object() const { return kind_ >= kFirstObject; }

  int64_t as_int() const { return i_; }  // kind kInt or kFunction (the function index)
  double as_float() const { return f_; }
  DLDataType as_dtype() const { return dtype_; }
  void* as_opaque() const { return ptr_; }
  // The object if the value has that kind, else null.
  TensorObj* as_tensor() const { return get<TensorObj>(ValueKind::kTensor); }
  StorageObj* as_storage() const { return get<StorageObj>(ValueKind::kStorage); }
  ShapeObj* as_shape() const { return get<ShapeObj>(ValueKind::kShape); }
  TupleObj* as_tuple() const { return get<TupleObj>(ValueKind::kTuple); }
  ClosureObj* as_closure() const { return get<ClosureObj>(ValueKind::kClosure); }
  StringObj* as_string() const { return get<StringObj>(ValueKind::kString); }
  Object* as_object() const { return is_object() ? obj_ : nullptr; }
  Tensor tensor() const { return Tensor(as_tensor()); }

 private:
  template <class T>
  T* get(ValueKind k) const {
    return kind_ == k ? static_cast<T*>(obj_) : nullptr;
  }
  void release() {
    if (is_object()) obj_->dec_ref();
  }

  ValueKind kind_;
  union {
    int64_t i_;
    double f_;
    DLDataType dtype_;
    void* ptr_;
    Object* obj_;
  };
};

static_assert(sizeof(Value) == 16);

// A short description for messages: "a tensor float32[2, 3]", "an int 5", "a shape (2, 3)".
std::string describe_value(const Value& v);
// The value as R.print shows it (tensors summarized, see io/summary.h).
std::string value_to_string(const Value& v);

}  // namespace relax::vm
