// Structural equality and hashing over the field lists of reflect.h. Variables are matched on
// first sight (their definition in a well-formed program) and must stay matched afterwards.
#include "ir/structural_equal.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ir/module.h"
#include "ir/reflect.h"

namespace relax::ir {

namespace {

using Field = std::variant<ObjectRef, int64_t, double, std::string_view>;

class FieldCollector : public FieldVisitor {
 public:
  explicit FieldCollector(std::vector<Field>& out) : out_(out) {}
  void child(const ObjectRef& node) override { out_.emplace_back(node); }
  void value(int64_t v) override { out_.emplace_back(v); }
  void value(double v) override { out_.emplace_back(v); }
  void value(std::string_view v) override { out_.emplace_back(v); }
  using FieldVisitor::value;

 private:
  std::vector<Field>& out_;
};

std::vector<Field> fields_of(const Object& node) {
  std::vector<Field> out;
  FieldCollector collector(out);
  reflect_fields(node, collector);
  return out;
}

bool same_double(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

std::string describe(const Field& f) {
  if (auto* n = std::get_if<ObjectRef>(&f)) return *n ? kind_name((*n)->kind()) : "null";
  if (auto* i = std::get_if<int64_t>(&f)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&f)) return std::to_string(*d);
  return "\"" + std::string(std::get<std::string_view>(f)) + "\"";
}

class EqualChecker {
 public:
  explicit EqualChecker(bool explain) : explain_(explain) {}

  bool equal(const ObjectRef& a, const ObjectRef& b) {
    if (!a || !b) {
      if (a.get() == b.get()) return true;
      return fail(std::string("null vs ") + (a ? kind_name(a->kind()) : kind_name(b->kind())));
    }
    if (a->kind() != b->kind()) {
      return fail(std::string(kind_name(a->kind())) + " vs " + kind_name(b->kind()));
    }
    if (is_binding_node(*a)) {
      auto it = lhs_to_rhs_.find(a.get());
      if (it != lhs_to_rhs_.end()) {
        if (it->second == b.get()) return true;
        return fail(std::string(kind_name(a->kind())) + " bound to a different variable");
      }
      if (rhs_to_lhs_.count(b.get())) {
        return fail(std::string(kind_name(a->kind())) + " already bound to another variable");
      }
      lhs_to_rhs_[a.get()] = b.get();
      rhs_to_lhs_[b.get()] = a.get();
      return fields_equal(*a, *b);
    }
    if (a.get() == b.get() && !contains_unmapped_vars_possible(*a)) return true;
    if (a->kind() == ObjectKind::kIRModule) {
      return modules_equal(static_cast<const IRModule&>(*a), static_cast<const IRModule&>(*b));
    }
    return fields_equal(*a, *b);
  }

  const std::string& explanation() const { return explanation_; }

 private:
  // Shared subtrees can only be skipped when they cannot define variables that later
  // comparisons rely on; values and struct info without vars are the common safe case.
  static bool contains_unmapped_vars_possible(const Object& node) {
    switch (node.kind()) {
      case ObjectKind::kString:
      case ObjectKind::kBool:
      case ObjectKind::kInt:
      case ObjectKind::kFloat:
      case ObjectKind::kOp:
      case ObjectKind::kGlobalVar:
      case ObjectKind::kIntImm:
      case ObjectKind::kFloatImm:
      case ObjectKind::kTirStringImm:
      case ObjectKind::kStringImm:
      case ObjectKind::kDataTypeImm:
      case ObjectKind::kObjectStructInfo:
        return false;
      default:
        return true;
    }
  }

  bool fields_equal(const Object& a, const Object& b) {
    std::vector<Field> fa = fields_of(a);
    std::vector<Field> fb = fields_of(b);
    if (fa.size() != fb.size())
      return fail(std::string(kind_name(a.kind())) + ": field count differs");
    for (size_t i = 0; i < fa.size(); ++i) {
      if (fa[i].index() != fb[i].index()) {
        return fail(std::string(kind_name(a.kind())) + ": field " + std::to_string(i) + " differs");
      }
      bool ok = true;
      if (auto* na = std::get_if<ObjectRef>(&fa[i])) {
        ok = equal(*na, std::get<ObjectRef>(fb[i]));
        if (!ok) return fail_in(a, i);
        continue;
      }
      if (auto* ia = std::get_if<int64_t>(&fa[i])) {
        ok = *ia == std::get<int64_t>(fb[i]);
      } else if (auto* da = std::get_if<double>(&fa[i])) {
        ok = same_double(*da, std::get<double>(fb[i]));
      } else {
        ok = std::get<std::string_view>(fa[i]) == std::get<std::string_view>(fb[i]);
      }
      if (!ok) {
        return fail(std::string(kind_name(a.kind())) + ": field " + std::to_string(i) + ": " +
                    describe(fa[i]) + " vs " + describe(fb[i]));
      }
    }
    return true;
  }

  bool modules_equal(const IRModule& a, const IRModule& b) {
    if (a.functions.size() != b.functions.size()) return fail("IRModule: member count differs");
    for (const auto& member : a.functions) {
      const IRModule::Member* other = b.find(member.gvar->name);
      if (!other) return fail("IRModule: member " + member.gvar->name + " missing on the right");
      if (!equal(member.func, other->func)) return fail("IRModule member " + member.gvar->name);
    }
    IRModule ea, eb;  // compare the remaining fields through empty-function copies
    ea.attrs = a.attrs;
    eb.attrs = b.attrs;
    ea.global_infos = a.global_infos;
    eb.global_infos = b.global_infos;
    return fields_equal(ea, eb) || fail("IRModule attributes");
  }

  bool fail(std::string what) {
    if (explain_ && explanation_.empty()) explanation_ = std::move(what);
    return false;
  }
  bool fail_in(const Object& parent, size_t field) {
    if (explain_) {
      explanation_ = std::string(kind_name(parent.kind())) + "[" + std::to_string(field) + "] > " +
                     explanation_;
    }
    return false;
  }

  bool explain_;
  std::string explanation_;
  std::unordered_map<const Object*, const Object*> lhs_to_rhs_;
  std::unordered_map<const Object*, const Object*> rhs_to_lhs_;
};

class Hasher : public FieldVisitor {
 public:
  size_t hash(const ObjectRef& node) {
    if (!node) return 0x9e3779b97f4a7c15ull;
    size_t saved = state_;
    state_ = static_cast<size_t>(node->kind()) * 0x100000001b3ull + 0xcbf29ce484222325ull;
    if (is_binding_node(*node)) {
      auto it = var_index_.find(node.get());
      if (it != var_index_.end()) {
        mix(0x51ed27u + it->second);
        size_t result = state_;
        state_ = saved;
        return result;
      }
      var_index_.emplace(node.get(), var_index_.size());
    }
    if (node->kind() == ObjectKind::kIRModule) {
      // Order-independent over members: sum the members' hashes.
      const auto& m = static_cast<const IRModule&>(*node);
      size_t sum = 0;
      for (const auto& member : m.functions) {
        Hasher inner;
        sum += inner.hash(member.gvar) * 31 + inner.hash(member.func);
      }
      mix(sum);
    } else {
      reflect_fields(*node, *this);
    }
    size_t result = state_;
    state_ = saved;
    return result;
  }

  void child(const ObjectRef& node) override { mix(hash(node)); }
  void value(int64_t v) override { mix(static_cast<size_t>(v)); }
  void value(double v) override { mix(std::isnan(v) ? 0x7ff8ull : std::bit_cast<uint64_t>(v)); }
  void value(std::string_view v) override { mix(std::hash<std::string_view>()(v)); }
  using FieldVisitor::value;

 private:
  void mix(size_t v) { state_ = (state_ ^ v) * 0x100000001b3ull + (state_ << 6) + (state_ >> 2); }

  size_t state_ = 0;
  std::unordered_map<const Object*, size_t> var_index_;
};

}  // namespace

bool structural_equal(const ObjectRef& lhs, const ObjectRef& rhs) {
  EqualChecker checker(false);
  return checker.equal(lhs, rhs);
}

std::optional<std::string> structural_diff(const ObjectRef& lhs, const ObjectRef& rhs) {
  EqualChecker checker(true);
  if (checker.equal(lhs, rhs)) return std::nullopt;
  return checker.explanation();
}

size_t structural_hash(const ObjectRef& node) {
  Hasher hasher;
  return hasher.hash(node);
}

}  // namespace relax::ir
