// Values and the small object kinds.
#include "vm/value.h"

#include "vm/io/summary.h"

namespace relax::vm {

const char* value_kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kFloat:
      return "float";
    case ValueKind::kDType:
      return "dtype";
    case ValueKind::kFunction:
      return "function";
    case ValueKind::kOpaque:
      return "opaque pointer";
    case ValueKind::kTensor:
      return "tensor";
    case ValueKind::kStorage:
      return "storage";
    case ValueKind::kShape:
      return "shape";
    case ValueKind::kTuple:
      return "tuple";
    case ValueKind::kClosure:
      return "closure";
    case ValueKind::kString:
      return "string";
  }
  return "?";
}

TupleObj::TupleObj(std::vector<Value> fields)
    : Object(ValueKind::kTuple), fields_(std::move(fields)) {}
TupleObj::~TupleObj() = default;
std::span<const Value> TupleObj::fields() const {
  return fields_;
}
size_t TupleObj::size() const {
  return fields_.size();
}
const Value& TupleObj::operator[](size_t i) const {
  return fields_[i];
}

ClosureObj::ClosureObj(int64_t function, std::vector<Value> captured)
    : Object(ValueKind::kClosure), function_(function), captured_(std::move(captured)) {}
ClosureObj::~ClosureObj() = default;
std::span<const Value> ClosureObj::captured() const {
  return captured_;
}

Value::Value(std::string s) : Value(static_cast<Object*>(new StringObj(std::move(s)))) {}
Value::Value(const char* s) : Value(std::string(s)) {}

Value Value::function(int64_t index) {
  Value v;
  v.kind_ = ValueKind::kFunction;
  v.i_ = index;
  return v;
}

Value Value::opaque(void* p) {
  Value v;
  v.kind_ = ValueKind::kOpaque;
  v.ptr_ = p;
  return v;
}

Value Value::shape(std::vector<int64_t> dims) {
  return Value(static_cast<Object*>(new ShapeObj(std::move(dims))));
}

Value Value::tuple(std::vector<Value> fields) {
  return Value(static_cast<Object*>(new TupleObj(std::move(fields))));
}

static std::string tuple_text(std::span<const int64_t> dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + (dims.size() == 1 ? ",)" : ")");
}

std::string describe_value(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kInt:
      return "an int " + std::to_string(v.as_int());
    case ValueKind::kFloat:
      return "a float " + format_scalar(v.as_float());
    case ValueKind::kDType:
      return "a dtype " + dtype_name(v.as_dtype());
    case ValueKind::kFunction:
      return "a function";
    case ValueKind::kOpaque:
      return "an opaque pointer";
    case ValueKind::kTensor: {
      auto* t = v.as_tensor();
      return "a tensor " + dtype_name(t->dtype()) + shape_string(t->shape());
    }
    case ValueKind::kStorage:
      return "a storage of " + std::to_string(v.as_storage()->nbytes()) + " bytes";
    case ValueKind::kShape:
      return "a shape " + tuple_text(v.as_shape()->dims());
    case ValueKind::kTuple:
      return "a tuple of " + std::to_string(v.as_tuple()->size());
    case ValueKind::kClosure:
      return "a closure";
    case ValueKind::kString:
      return "a string";
  }
  return "?";
}

std::string value_to_string(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return "None";
    case ValueKind::kInt:
      return std::to_string(v.as_int());
    case ValueKind::kFloat:
      return format_scalar(v.as_float());
    case ValueKind::kDType:
      return dtype_name(v.as_dtype());
    case ValueKind::kString:
      return v.as_string()->str();
    case ValueKind::kShape:
      return tuple_text(v.as_shape()->dims());
    case ValueKind::kTensor:
      return summarize_tensor(*v.as_tensor());
    case ValueKind::kTuple: {
      std::string s = "(";
      auto* t = v.as_tuple();
      for (size_t i = 0; i < t->size(); ++i) {
        if (i) s += ", ";
        s += value_to_string((*t)[i]);
      }
      return s + (t->size() == 1 ? ",)" : ")");
    }
    default:
      return "<" + std::string(value_kind_name(v.kind())) + ">";
  }
}

}  // namespace relax::vm
