// IRModule: the unit the toolkit parses, analyses, transforms and compiles. It maps global
// names to Relax functions, TIR prim_funcs and extern functions, and carries module attributes
// and global infos (virtual devices).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
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

  // The members in the order they were added, indexed by name so that a lookup takes constant
  // time whatever the module's size. Read access is a vector's; edits go through push_back,
  // erase, set_func and assignment, which keep the index exact (there is no mutable access to a
  // member, whose global var could otherwise be swapped behind the index's back).
  class Members {
   public:
    using value_type = Member;
    using const_iterator = std::vector<Member>::const_iterator;
    using iterator = const_iterator;

    Members() = default;
    Members(std::vector<Member> items) { assign(std::move(items)); }  // NOLINT: implicit
    Members& operator=(std::vector<Member> items) {
      assign(std::move(items));
      return *this;
    }
    operator const std::vector<Member>&() const { return items_; }  // NOLINT: implicit

    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    const_iterator begin() const { return items_.begin(); }
    const_iterator end() const { return items_.end(); }
    const Member& operator[](size_t i) const { return items_[i]; }
    const Member& front() const { return items_.front(); }
    const Member& back() const { return items_.back(); }

    void push_back(Member m);
    const_iterator erase(const_iterator it);
    void clear() { assign({}); }
    // Replaces the function of member `i`, keeping its global var.
    void set_func(size_t i, ObjectRef func) { items_[i].func = std::move(func); }
    // Replaces member `i` (its name may change).
    void set(size_t i, Member m);
    // The first member named `name`, or null.
    const Member* find(std::string_view name) const;
    // Its position, or size() when absent.
    size_t position(std::string_view name) const;

   private:
    struct NameHash {
      using is_transparent = void;
      size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    void assign(std::vector<Member> items);
    void reindex();

    std::vector<Member> items_;
    std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> index_;
  };

  IRModule() : Object(ObjectKind::kIRModule) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIRModule; }

  // The class name (`class Module:`); printers use it for `cls = Module`.
  std::string name = "Module";
  // Members in the order they were added (printers sort as TVM does).
  Members functions;
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
