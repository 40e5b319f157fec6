// The measures of nesting behind ir::kTirCompileNesting (PrimExprs) and ir::kStructInfoNesting:
// post-order walks over an explicit stack, with the height of each node remembered so that
// shared nodes cost once.
#include "ir/depth_limit.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/reflect.h"

namespace relax::ir {

namespace {

bool is_prim_expr(const Object* o) {
  return o->kind() >= ObjectKind::kFirstPrimExpr && o->kind() <= ObjectKind::kLastPrimExpr;
}

// The child nodes of one node, in reflection order.
class Children : public FieldVisitor {
 public:
  explicit Children(std::vector<const Object*>& out) : out_(out) {}
  void child(const ObjectRef& node) override {
    if (node) out_.push_back(node.get());
  }
  void value(int64_t) override {}
  void value(double) override {}
  void value(std::string_view) override {}

 private:
  std::vector<const Object*>& out_;
};

}  // namespace

uint32_t prim_expr_height(const Object& root, const Object** deepest) {
  // Per node: the height of the PrimExpr chain it starts (0 for other nodes).
  std::unordered_map<const Object*, uint32_t> height;
  uint32_t best = 0;
  const Object* best_node = nullptr;
  struct Frame {
    const Object* node;
    std::vector<const Object*> children;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  auto enter = [&](const Object* o) {
    Frame f{o, {}};
    Children visitor(f.children);
    reflect_fields(*o, visitor);
    stack.push_back(std::move(f));
  };
  height[&root] = 0;
  enter(&root);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.children.size()) {
      const Object* child = top.children[top.next++];
      if (height.emplace(child, 0).second) enter(child);  // `top` is invalid from here
      continue;
    }
    uint32_t h = 0;
    if (is_prim_expr(top.node)) {
      uint32_t below = 0;
      for (const Object* c : top.children) {
        if (is_prim_expr(c)) below = std::max(below, height[c]);
      }
      h = below + 1;
      if (h > best) {
        best = h;
        best_node = top.node;
      }
    }
    height[top.node] = h;
    stack.pop_back();
  }
  if (deepest) *deepest = best_node;
  return best;
}

uint32_t struct_info_height(const StructInfo& root) {
  std::unordered_map<const StructInfo*, uint32_t> height;  // 0 while a node is being walked
  struct Frame {
    const StructInfo* node;
    std::vector<const StructInfo*> fields;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  auto enter = [&](const StructInfo* s) {
    height[s] = 0;
    Frame f{s, {}};
    if (isa<TupleStructInfo>(s)) {
      for (const auto& field : static_cast<const TupleStructInfo*>(s)->fields)
        if (field) f.fields.push_back(field.get());
    } else if (isa<FuncStructInfo>(s)) {
      const auto* fn = static_cast<const FuncStructInfo*>(s);
      if (fn->params)
        for (const auto& param : *fn->params)
          if (param) f.fields.push_back(param.get());
      if (fn->ret) f.fields.push_back(fn->ret.get());
    }
    stack.push_back(std::move(f));
  };
  enter(&root);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.fields.size()) {
      const StructInfo* field = top.fields[top.next++];
      if (!height.count(field)) enter(field);  // `top` is invalid from here
      continue;
    }
    uint32_t below = 0;
    for (const StructInfo* f : top.fields) below = std::max(below, height[f]);
    height[top.node] = below + 1;
    stack.pop_back();
  }
  return height[&root];
}

}  // namespace relax::ir
