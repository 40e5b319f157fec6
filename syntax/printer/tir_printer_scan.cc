// Analyses the TIR printer runs before printing: the common path to all uses of each variable
// and buffer (visiting fields in TVM's reflection order, each shared node once, as TVM's
// SetCommonPrefix does), and parameter occurrence counts (TVM's CountVarOccurrence).
#include "syntax/printer/tir_printer.h"

namespace relax::syntax::tirprint {

using ir::Object;
using ir::ObjectKind;

namespace {

class PrefixCollector {
 public:
  std::unordered_map<const Object*, std::vector<const Object*>> prefix;

  // Depth-first from `root`, children in field order, a variable or buffer handled after its
  // own fields. A loop over an explicit stack (`stack_` is the path): expressions can be chains
  // of thousands of terms.
  void visit(const Object* root) {
    std::vector<Frame> frames;
    enter(root, frames);
    while (!frames.empty()) {
      Frame& top = frames.back();
      if (top.next < top.children.size()) {
        const Object* child = top.children[top.next++];
        enter(child, frames);  // `top` is invalid from here
        continue;
      }
      if (is_var(top.node)) handle(top.node);
      stack_.pop_back();
      frames.pop_back();
    }
  }

 private:
  struct Frame {
    const Object* node;
    std::vector<const Object*> children;
    size_t next = 0;
  };
  static bool is_var(const Object* o) {
    return o->kind() == ObjectKind::kTirVar || o->kind() == ObjectKind::kBuffer;
  }
  void enter(const Object* o, std::vector<Frame>& frames) {
    if (!o) return;
    if (!visited_.insert(o).second) {
      if (is_var(o)) handle(o);
      return;
    }
    stack_.push_back(o);
    frames.push_back({o, {}});
    children_ = &frames.back().children;
    fields(o);
  }

  // What fields() lists a node's children with (into `children_`).
  void visit_child(const Object* o) { children_->push_back(o); }
  void visit_attrs(const ir::Attrs& attrs) {
    for (const auto& [k, v] : attrs) visit_child(v.get());
  }
  template <class T>
  void all(const std::vector<Ref<T>>& xs) {
    for (const auto& x : xs) visit_child(x.get());
  }

  void handle(const Object* var) {
    auto it = prefix.find(var);
    if (it == prefix.end()) {
      prefix.emplace(var, stack_);
      return;
    }
    // Both are paths from the root in the tree of this walk (each node is entered once), so
    // once they part they never meet again: the common length is found by bisection, not by a
    // scan that would make a chain of N uses cost N^2.
    auto& path = it->second;
    size_t lo = 0, hi = std::min(path.size(), stack_.size());
    while (lo < hi) {
      size_t mid = (lo + hi + 1) / 2;
      if (path[mid - 1] == stack_[mid - 1])
        lo = mid;
      else
        hi = mid - 1;
    }
    path.resize(lo);
  }

  void fields(const Object* o) {
    switch (o->kind()) {
      case ObjectKind::kPrimFunc: {
        auto f = static_cast<const PrimFunc*>(o);
        all(f->params);
        visit_child(f->body.get());
        for (const auto& [p, b] : f->buffer_map) {
          visit_child(p.get());
          visit_child(b.get());
        }
        visit_attrs(f->attrs);
        return;
      }
      case ObjectKind::kArray:
        all(static_cast<const ir::ArrayValue*>(o)->items);
        return;
      case ObjectKind::kMap:
        for (const auto& [k, v] : static_cast<const ir::MapValue*>(o)->entries) {
          visit_child(k.get());
          visit_child(v.get());
        }
        return;
      case ObjectKind::kCast:
        visit_child(static_cast<const Cast*>(o)->value.get());
        return;
      case ObjectKind::kNot:
        visit_child(static_cast<const Not*>(o)->a.get());
        return;
      case ObjectKind::kSelect: {
        auto s = static_cast<const Select*>(o);
        visit_child(s->condition.get());
        visit_child(s->true_value.get());
        visit_child(s->false_value.get());
        return;
      }
      case ObjectKind::kBufferLoad: {
        auto l = static_cast<const BufferLoad*>(o);
        visit_child(l->buffer.get());
        all(l->indices);
        visit_child(l->predicate.get());
        return;
      }
      case ObjectKind::kRamp: {
        auto r = static_cast<const Ramp*>(o);
        visit_child(r->base.get());
        visit_child(r->stride.get());
        visit_child(r->lanes.get());
        return;
      }
      case ObjectKind::kBroadcast:
        visit_child(static_cast<const Broadcast*>(o)->value.get());
        visit_child(static_cast<const Broadcast*>(o)->lanes.get());
        return;
      case ObjectKind::kShuffle:
        all(static_cast<const Shuffle*>(o)->vectors);
        all(static_cast<const Shuffle*>(o)->indices);
        return;
      case ObjectKind::kLet: {
        auto l = static_cast<const Let*>(o);
        visit_child(l->var.get());
        visit_child(l->value.get());
        visit_child(l->body.get());
        return;
      }
      case ObjectKind::kTirCall:
        all(static_cast<const Call*>(o)->args);
        return;
      case ObjectKind::kReduce: {
        auto r = static_cast<const Reduce*>(o);
        visit_child(r->combiner.get());
        all(r->source);
        all(r->init);
        all(r->axis);
        visit_child(r->condition.get());
        return;
      }
      case ObjectKind::kLetStmt: {
        auto s = static_cast<const LetStmt*>(o);
        visit_child(s->var.get());
        visit_child(s->value.get());
        visit_child(s->body.get());
        return;
      }
      case ObjectKind::kAttrStmt: {
        auto s = static_cast<const AttrStmt*>(o);
        visit_child(s->node.get());
        visit_child(s->value.get());
        visit_child(s->body.get());
        return;
      }
      case ObjectKind::kAssertStmt: {
        auto s = static_cast<const AssertStmt*>(o);
        visit_child(s->condition.get());
        visit_child(s->message.get());
        visit_child(s->body.get());
        return;
      }
      case ObjectKind::kBufferStore: {
        auto s = static_cast<const BufferStore*>(o);
        visit_child(s->buffer.get());
        visit_child(s->value.get());
        all(s->indices);
        visit_child(s->predicate.get());
        return;
      }
      case ObjectKind::kBufferRealize: {
        auto s = static_cast<const BufferRealize*>(o);
        visit_child(s->buffer.get());
        all(s->bounds);
        visit_child(s->condition.get());
        visit_child(s->body.get());
        return;
      }
      case ObjectKind::kAllocate: {
        auto s = static_cast<const Allocate*>(o);
        visit_child(s->buffer_var.get());
        all(s->extents);
        visit_child(s->condition.get());
        visit_child(s->body.get());
        visit_attrs(s->annotations);
        return;
      }
      case ObjectKind::kDeclBuffer:
        visit_child(static_cast<const DeclBuffer*>(o)->buffer.get());
        visit_child(static_cast<const DeclBuffer*>(o)->body.get());
        return;
      case ObjectKind::kSeqStmt:
        all(static_cast<const SeqStmt*>(o)->seq);
        return;
      case ObjectKind::kIfThenElse: {
        auto s = static_cast<const IfThenElse*>(o);
        visit_child(s->condition.get());
        visit_child(s->then_case.get());
        visit_child(s->else_case.get());
        return;
      }
      case ObjectKind::kEvaluate:
        visit_child(static_cast<const Evaluate*>(o)->value.get());
        return;
      case ObjectKind::kFor: {
        auto s = static_cast<const For*>(o);
        visit_child(s->loop_var.get());
        visit_child(s->min.get());
        visit_child(s->extent.get());
        visit_child(s->body.get());
        visit_child(s->thread_binding.get());
        visit_attrs(s->annotations);
        return;
      }
      case ObjectKind::kWhile:
        visit_child(static_cast<const While*>(o)->condition.get());
        visit_child(static_cast<const While*>(o)->body.get());
        return;
      case ObjectKind::kBlock: {
        auto b = static_cast<const Block*>(o);
        all(b->iter_vars);
        all(b->reads);
        all(b->writes);
        visit_child(b->body.get());
        visit_child(b->init.get());
        all(b->alloc_buffers);
        all(b->match_buffers);
        visit_attrs(b->annotations);
        return;
      }
      case ObjectKind::kBlockRealize: {
        auto r = static_cast<const BlockRealize*>(o);
        all(r->iter_values);
        visit_child(r->predicate.get());
        visit_child(r->block.get());
        return;
      }
      case ObjectKind::kBuffer: {
        auto b = static_cast<const Buffer*>(o);
        visit_child(b->data.get());
        all(b->shape);
        all(b->strides);
        visit_child(b->elem_offset.get());
        return;
      }
      case ObjectKind::kRange:
        visit_child(static_cast<const Range*>(o)->min.get());
        visit_child(static_cast<const Range*>(o)->extent.get());
        return;
      case ObjectKind::kIterVar:
        visit_child(static_cast<const IterVar*>(o)->dom.get());
        visit_child(static_cast<const IterVar*>(o)->var.get());
        return;
      case ObjectKind::kBufferRegion:
        visit_child(static_cast<const BufferRegion*>(o)->buffer.get());
        all(static_cast<const BufferRegion*>(o)->region);
        return;
      case ObjectKind::kMatchBufferRegion:
        visit_child(static_cast<const MatchBufferRegion*>(o)->buffer.get());
        visit_child(static_cast<const MatchBufferRegion*>(o)->source.get());
        return;
      case ObjectKind::kIndexMap: {
        auto m = static_cast<const IndexMap*>(o);
        all(m->initial_indices);
        all(m->final_indices);
        visit_child(m->inverse.get());
        return;
      }
      case ObjectKind::kCommReducer: {
        auto r = static_cast<const CommReducer*>(o);
        all(r->lhs);
        all(r->rhs);
        all(r->result);
        all(r->identity_element);
        return;
      }
      default:
        break;
    }
    if (BinaryOp::classof(o)) {
      auto b = static_cast<const BinaryOp*>(o);
      visit_child(b->a.get());
      visit_child(b->b.get());
    }
  }

  std::unordered_set<const Object*> visited_;
  std::vector<const Object*> stack_;
  std::vector<const Object*>* children_ = nullptr;
};

// Counts the occurrences of variables as TVM's OccurrenceCounter (a StmtExprVisitor that
// also visits the fields of buffers that are loaded, stored or declared).
class Counter {
 public:
  // Counts the variables that are keys of `counts`.
  explicit Counter(std::unordered_map<const Var*, int>& counts) : counts_(counts) {}

  void expr(const Ref<PrimExpr>& root) {
    // Down the left operands of a chain in a loop (a count does not depend on the order).
    Ref<PrimExpr> e = root;
    while (auto b = e.as_ptr<BinaryOp>()) {
      expr(b->b);
      e = b->a;
    }
    if (!e) return;
    switch (e->kind()) {
      case ObjectKind::kTirVar:
        if (auto it = counts_.find(static_cast<const Var*>(e.get())); it != counts_.end())
          ++it->second;
        return;
      case ObjectKind::kCast:
        expr(e.as_ptr<Cast>()->value);
        return;
      case ObjectKind::kNot:
        expr(e.as_ptr<Not>()->a);
        return;
      case ObjectKind::kSelect:
        expr(e.as_ptr<Select>()->condition);
        expr(e.as_ptr<Select>()->true_value);
        expr(e.as_ptr<Select>()->false_value);
        return;
      case ObjectKind::kBufferLoad:
        buffer(*e.as_ptr<BufferLoad>()->buffer);
        for (const auto& i : e.as_ptr<BufferLoad>()->indices) expr(i);
        expr(e.as_ptr<BufferLoad>()->predicate);
        return;
      case ObjectKind::kRamp:
        expr(e.as_ptr<Ramp>()->base);
        expr(e.as_ptr<Ramp>()->stride);
        return;
      case ObjectKind::kBroadcast:
        expr(e.as_ptr<Broadcast>()->value);
        return;
      case ObjectKind::kShuffle:
        for (const auto& x : e.as_ptr<Shuffle>()->vectors) expr(x);
        for (const auto& x : e.as_ptr<Shuffle>()->indices) expr(x);
        return;
      case ObjectKind::kLet:
        expr(e.as_ptr<Let>()->var);
        expr(e.as_ptr<Let>()->value);
        expr(e.as_ptr<Let>()->body);
        return;
      case ObjectKind::kTirCall:
        for (const auto& a : e.as_ptr<Call>()->args) expr(a);
        return;
      default:
        break;
    }
  }

  void buffer(const Buffer& b) {
    expr(b.data);
    for (const auto& s : b.shape) expr(s);
    for (const auto& s : b.strides) expr(s);
    expr(b.elem_offset);
  }

  void region(const Ref<BufferRegion>& r) {
    for (const auto& range : r->region) {
      expr(range->min);
      expr(range->extent);
    }
  }

  void stmt(const Ref<Stmt>& s) {
    if (!s) return;
    switch (s->kind()) {
      case ObjectKind::kLetStmt:
        expr(s.as_ptr<LetStmt>()->value);
        stmt(s.as_ptr<LetStmt>()->body);
        return;
      case ObjectKind::kAttrStmt:
        expr(s.as_ptr<AttrStmt>()->value);
        stmt(s.as_ptr<AttrStmt>()->body);
        return;
      case ObjectKind::kAssertStmt:
        expr(s.as_ptr<AssertStmt>()->condition);
        expr(s.as_ptr<AssertStmt>()->message);
        stmt(s.as_ptr<AssertStmt>()->body);
        return;
      case ObjectKind::kBufferStore: {
        auto st = s.as_ptr<BufferStore>();
        buffer(*st->buffer);
        expr(st->value);
        for (const auto& i : st->indices) expr(i);
        expr(st->predicate);
        return;
      }
      case ObjectKind::kBufferRealize: {
        auto r = s.as_ptr<BufferRealize>();
        for (const auto& b : r->bounds) {
          expr(b->min);
          expr(b->extent);
        }
        expr(r->condition);
        stmt(r->body);
        return;
      }
      case ObjectKind::kAllocate: {
        auto a = s.as_ptr<Allocate>();
        for (const auto& e : a->extents) expr(e);
        expr(a->condition);
        stmt(a->body);
        return;
      }
      case ObjectKind::kDeclBuffer:
        buffer(*s.as_ptr<DeclBuffer>()->buffer);
        stmt(s.as_ptr<DeclBuffer>()->body);
        return;
      case ObjectKind::kSeqStmt:
        for (const auto& x : s.as_ptr<SeqStmt>()->seq) stmt(x);
        return;
      case ObjectKind::kIfThenElse:
        expr(s.as_ptr<IfThenElse>()->condition);
        stmt(s.as_ptr<IfThenElse>()->then_case);
        stmt(s.as_ptr<IfThenElse>()->else_case);
        return;
      case ObjectKind::kEvaluate:
        expr(s.as_ptr<Evaluate>()->value);
        return;
      case ObjectKind::kFor:
        expr(s.as_ptr<For>()->min);
        expr(s.as_ptr<For>()->extent);
        stmt(s.as_ptr<For>()->body);
        return;
      case ObjectKind::kWhile:
        expr(s.as_ptr<While>()->condition);
        stmt(s.as_ptr<While>()->body);
        return;
      case ObjectKind::kBlock: {
        auto b = s.as_ptr<Block>();
        for (const auto& iv : b->iter_vars) {
          if (iv->dom) {
            expr(iv->dom->min);
            expr(iv->dom->extent);
          }
        }
        for (const auto& r : b->reads) region(r);
        for (const auto& r : b->writes) region(r);
        for (const auto& m : b->match_buffers) region(m->source);
        stmt(b->init);
        stmt(b->body);
        return;
      }
      case ObjectKind::kBlockRealize: {
        auto r = s.as_ptr<BlockRealize>();
        for (const auto& v : r->iter_values) expr(v);
        expr(r->predicate);
        stmt(r->block);
        return;
      }
      default:
        return;
    }
  }

 private:
  std::unordered_map<const Var*, int>& counts_;
};

}  // namespace

std::unordered_map<const Object*, std::vector<const Object*>> common_prefixes(
    const PrimFunc& func) {
  PrefixCollector c;
  // The function itself is the root of every path (its frame is the outermost).
  c.visit(&func);
  return std::move(c.prefix);
}

std::unordered_map<const Var*, int> count_var_occurrences(const PrimFunc& func,
                                                          const std::vector<const Var*>& vars) {
  std::unordered_map<const Var*, int> counts;
  for (const Var* v : vars) counts.emplace(v, 0);
  Counter c(counts);
  c.stmt(func.body);
  for (const auto& p : func.params) c.expr(p);
  for (const auto& [p, b] : func.buffer_map) {
    c.expr(p);
    c.buffer(*b);
  }
  return counts;
}

bool has_vars(const Ref<PrimExpr>& expr) {
  // Down the left operands of a chain in a loop (the answer does not depend on the order).
  Ref<PrimExpr> e = expr;
  while (auto b = e.as_ptr<BinaryOp>()) {
    if (has_vars(b->b)) return true;
    e = b->a;
  }
  if (!e) return false;
  switch (e->kind()) {
    case ObjectKind::kTirVar:
      return true;
    case ObjectKind::kIntImm:
    case ObjectKind::kFloatImm:
    case ObjectKind::kTirStringImm:
      return false;
    case ObjectKind::kCast:
      return has_vars(e.as_ptr<Cast>()->value);
    default:
      break;
  }
  return true;
}

}  // namespace relax::syntax::tirprint
