// Value: what evaluating an expression of the text format gives the front end. TVMScript is
// Python that is never run; the front end evaluates its expressions into Python-like values
// (numbers, strings, tuples, namespaces such as `R.nn`) and IR objects (Relax expressions,
// PrimExprs, struct info, buffers, ...), which statements then turn into IR.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/object.h"
#include "ir/span.h"
#include "ir/tir.h"
#include "syntax/cst.h"

namespace relax::syntax {

class Value {
 public:
  enum class Kind : uint8_t {
    kError,      // evaluation failed and was reported: consumers stay silent
    kNone,       // Python None
    kBool,       // Python True/False
    kInt,        // a Python int literal (arbitrary ints are limited to int64)
    kFloat,      // a Python float literal
    kString,     // a Python string literal
    kTuple,      // (a, b) or a bare a, b
    kList,       // [a, b]
    kDict,       // {k: v}
    kSlice,      // a:b:c inside a subscript; items = {start, stop, step}, kNone where absent
    kNamespace,  // a builtin path: "R", "R.nn", "T.axis", "I" (canonical prefixes R, T, I)
    kModuleRef,  // the module class (`Module`, or `cls` after `cls = Module`)
    kTypeVar,    // `N = TypeVar("N")`: a name for a symbolic dim, bound per function
    kLambda,     // an unevaluated lambda: node holds it
    kObject,     // an IR object: Relax Expr, PrimExpr, StructInfo, Buffer, BufferRegion, ...
  };

  Value() = default;

  static Value error(ir::Span span = {}) { return Value(Kind::kError, span); }
  static Value none(ir::Span span = {}) { return Value(Kind::kNone, span); }
  static Value boolean(bool b, ir::Span span = {}) {
    Value v(Kind::kBool, span);
    v.b_ = b;
    return v;
  }
  static Value integer(int64_t i, ir::Span span = {}) {
    Value v(Kind::kInt, span);
    v.i_ = i;
    return v;
  }
  static Value floating(double f, ir::Span span = {}) {
    Value v(Kind::kFloat, span);
    v.f_ = f;
    return v;
  }
  static Value string(std::string s, ir::Span span = {}) {
    Value v(Kind::kString, span);
    v.str_ = std::move(s);
    return v;
  }
  static Value tuple(std::vector<Value> items, ir::Span span = {}) {
    return sequence(Kind::kTuple, std::move(items), span);
  }
  static Value list(std::vector<Value> items, ir::Span span = {}) {
    return sequence(Kind::kList, std::move(items), span);
  }
  static Value slice(Value start, Value stop, Value step, ir::Span span = {}) {
    return sequence(Kind::kSlice, {std::move(start), std::move(stop), std::move(step)}, span);
  }
  static Value dict(std::vector<std::pair<Value, Value>> entries, ir::Span span = {}) {
    Value v(Kind::kDict, span);
    v.entries_ = std::make_shared<const std::vector<std::pair<Value, Value>>>(std::move(entries));
    return v;
  }
  static Value ns(std::string path, ir::Span span = {}) {
    Value v(Kind::kNamespace, span);
    v.str_ = std::move(path);
    return v;
  }
  // A method bound to an object: `x.astype` is the builtin "R.Expr.astype" with self = x.
  static Value method(std::string path, Value self, ir::Span span = {}) {
    Value v = ns(std::move(path), span);
    v.items_ = std::make_shared<const std::vector<Value>>(std::vector<Value>{std::move(self)});
    return v;
  }
  static Value module_ref(ir::Span span = {}) { return Value(Kind::kModuleRef, span); }
  static Value type_var(std::string name, ir::Span span = {}) {
    Value v(Kind::kTypeVar, span);
    v.str_ = std::move(name);
    return v;
  }
  static Value lambda(Node node) {
    Value v(Kind::kLambda, node.span());
    v.node_ = node;
    return v;
  }
  static Value object(ir::ObjectRef obj, ir::Span span = {}) {
    if (!obj) return Value::error(span);
    Value v(Kind::kObject, span);
    v.obj_ = std::move(obj);
    return v;
  }

  // A load written with slices without steps (`A[0:4]`): TVMScript reads the same subscript as
  // the region `region` where a region is expected (T.reads, T.writes).
  static Value sliced_load(ir::ObjectRef load, ir::ObjectRef region, ir::Span span = {}) {
    Value v = object(std::move(load), span);
    v.items_ = std::make_shared<const std::vector<Value>>(
        std::vector<Value>{object(std::move(region), span)});
    return v;
  }

  Kind kind() const { return kind_; }
  ir::Span span() const { return span_; }
  Value with_span(ir::Span span) const {
    Value v = *this;
    v.span_ = span;
    return v;
  }

  bool is_error() const { return kind_ == Kind::kError; }
  bool is_none() const { return kind_ == Kind::kNone; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_int() const { return kind_ == Kind::kInt; }
  bool is_float() const { return kind_ == Kind::kFloat; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  bool is_list() const { return kind_ == Kind::kList; }
  bool is_sequence() const { return kind_ == Kind::kTuple || kind_ == Kind::kList; }
  bool is_dict() const { return kind_ == Kind::kDict; }
  bool is_slice() const { return kind_ == Kind::kSlice; }
  bool is_namespace() const { return kind_ == Kind::kNamespace; }
  bool is_module_ref() const { return kind_ == Kind::kModuleRef; }
  bool is_type_var() const { return kind_ == Kind::kTypeVar; }
  bool is_lambda() const { return kind_ == Kind::kLambda; }
  bool is_object() const { return kind_ == Kind::kObject; }
  // A Python number or bool (usable where a PrimExpr is expected).
  bool is_python_number() const {
    return kind_ == Kind::kInt || kind_ == Kind::kFloat || kind_ == Kind::kBool;
  }
  template <class T>
  bool is() const {
    return kind_ == Kind::kObject && obj_.is<T>();
  }

  bool as_bool() const { return b_; }
  int64_t as_int() const { return i_; }
  double as_float() const { return kind_ == Kind::kInt ? static_cast<double>(i_) : f_; }
  const std::string& as_string() const { return str_; }  // string, namespace path, type var name
  const std::vector<Value>& items() const { return *items_; }  // tuple, list, slice
  const std::vector<std::pair<Value, Value>>& entries() const { return *entries_; }
  Node node() const { return node_; }
  // The object a bound method was taken from, or null.
  const Value* bound_self() const {
    return kind_ == Kind::kNamespace && items_ ? &(*items_)[0] : nullptr;
  }
  const ir::ObjectRef& object() const { return obj_; }
  // The region a sliced load also denotes (sliced_load), or null.
  ir::ObjectRef slice_region() const {
    return kind_ == Kind::kObject && items_ ? (*items_)[0].obj_ : ir::ObjectRef();
  }
  template <class T>
  ir::Ref<T> as() const {
    return kind_ == Kind::kObject ? obj_.as<T>() : ir::Ref<T>();
  }

  // A short description for messages: "an int", "a string", "R.Tensor", "a Relax expression".
  std::string describe() const;

 private:
  Value(Kind kind, ir::Span span) : kind_(kind), span_(span) {}
  static Value sequence(Kind kind, std::vector<Value> items, ir::Span span) {
    Value v(kind, span);
    v.items_ = std::make_shared<const std::vector<Value>>(std::move(items));
    return v;
  }

  Kind kind_ = Kind::kNone;
  ir::Span span_;
  bool b_ = false;
  int64_t i_ = 0;
  double f_ = 0;
  std::string str_;
  std::shared_ptr<const std::vector<Value>> items_;
  std::shared_ptr<const std::vector<std::pair<Value, Value>>> entries_;
  ir::ObjectRef obj_;
  Node node_;
};

}  // namespace relax::syntax
