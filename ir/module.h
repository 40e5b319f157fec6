// IRModule: the unit the toolkit parses, analyses, transforms and compiles. It maps global
// names to Relax functions, TIR prim_funcs and extern functions, and carries module attributes
// and global infos (virtual devices).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/tir.h"
#include "ir/value.h"

namespace relax::ir {

class IRModule : public Object {
 public:
  // One member: its global var and the function (a Function, a tir::PrimFunc or an ExternFunc).
  struct Member {
    Ref<GlobalVar> gvar;
    ObjectRef func;
  };

  IRModule() : Object(ObjectKind::kIRModule) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIRModule; }

  // The class name (`class Module:`); printers use it for `cls = Module`.
  std::string name = "Module";
  // Members in the order they were added (printers sort as TVM does).
  std::vector<Member> functions;
  Attrs attrs;  // `I.module_attrs({...})`
  // `I.module_global_infos({"vdevice": [...], ...})`, in order.
  std::vector<std::pair<std::string, std::vector<ObjectRef>>> global_infos;

  // Lookups by name; null when absent.
  const Member* find(std::string_view name) const;
  Ref<GlobalVar> global_var(std::string_view name) const;
  ObjectRef lookup(std::string_view name) const;
  // Adds a member or replaces the function of an existing one with that name.
  void add(Ref<GlobalVar> gvar, ObjectRef func);
  bool remove(std::string_view name);

  // The virtual devices declared in global infos, in order.
  std::vector<Ref<VDevice>> vdevices() const;
};

// The Relax function, prim_func or extern func held by a module member, when it is one.
inline Ref<Function> as_relax_function(const ObjectRef& f) {
  return f.as<Function>();
}
inline Ref<tir::PrimFunc> as_prim_func(const ObjectRef& f) {
  return f.as<tir::PrimFunc>();
}

}  // namespace relax::ir
