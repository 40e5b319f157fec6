// Relax expression helpers: op interning, struct-info constructors, target names.
#include "ir/expr.h"

#include <mutex>
#include <unordered_map>

namespace relax::ir {

Ref<Op> Op::get(const std::string& op_name) {
  static std::mutex mutex;
  static std::unordered_map<std::string, Ref<Op>>* table =
      new std::unordered_map<std::string, Ref<Op>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = table->find(op_name);
  if (it != table->end()) return it->second;
  auto op = make<Op>(op_name);
  table->emplace(op_name, op);
  return op;
}

std::string Op::short_name() const {
  constexpr std::string_view kPrefix = "relax.";
  if (std::string_view(name).starts_with(kPrefix)) return name.substr(kPrefix.size());
  return name;
}

const std::string& Call::op_name() const {
  static const std::string kEmpty;
  if (auto o = op.as_ptr<Op>()) return o->name;
  return kEmpty;
}

const std::vector<Ref<PrimExpr>>* TensorStructInfo::shape_values() const {
  if (!shape) return nullptr;
  if (auto s = shape.as_ptr<ShapeExpr>()) return &s->values;
  if (shape->struct_info) {
    if (auto s = shape->struct_info.as_ptr<ShapeStructInfo>(); s && s->values) return &*s->values;
  }
  return nullptr;
}

std::string Target::kind_name() const {
  if (!config) return "";
  if (auto s = config->find("kind").as_ptr<StringValue>()) return s->value;
  return "";
}

Ref<TensorStructInfo> tensor_sinfo(std::vector<Ref<PrimExpr>> shape, DataType dtype,
                                   Ref<VDevice> vdevice) {
  int ndim = static_cast<int>(shape.size());
  return make<TensorStructInfo>(make<ShapeExpr>(std::move(shape)), dtype, ndim, std::move(vdevice));
}

Ref<TensorStructInfo> tensor_sinfo(int ndim, DataType dtype, Ref<VDevice> vdevice) {
  return make<TensorStructInfo>(nullptr, dtype, ndim, std::move(vdevice));
}

Ref<TupleStructInfo> void_sinfo() {
  return make<TupleStructInfo>();
}

bool is_void_sinfo(const Ref<StructInfo>& s) {
  auto t = s.as_ptr<TupleStructInfo>();
  return t && t->fields.empty();
}

}  // namespace relax::ir
