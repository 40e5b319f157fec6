// The TIR verifier: scoped variable definitions, loop bounds, buffer access ranks, thread
// bindings on CPU, leftover blocks after lowering.
#include "compiler/tir/verify.h"

#include <unordered_set>

#include "ir/tir_visitor.h"

namespace relax::compiler::tir {

namespace {

using namespace ir::tir;
using ir::Ref;

class Verifier : public Visitor {
 public:
  Verifier(const PrimFunc& func, ir::DiagnosticBag& diags, const VerifyOptions& options)
      : func_(func), diags_(diags), options_(options) {}

  void run() {
    for (const auto& p : func_.params) define(p);
    for (const auto& [param, buffer] : func_.buffer_map) define_buffer_vars(buffer);
    visit_stmt(func_.body);
  }

  bool ok = true;

  void visit_var(const Ref<Var>& v) override {
    if (!defined_.count(v.get()) && reported_.insert(v.get()).second) {
      error("E0702", v->span, "variable `" + v->name + "` is used but not defined here");
    }
  }

  void visit_buffer_load(const Ref<BufferLoad>& load) override {
    check_access(*load->buffer, load->indices.size(), load->span);
    check_data(*load->buffer, load->span);
    Visitor::visit_buffer_load(load);
  }

  void visit_buffer_store(const Ref<BufferStore>& s) override {
    check_access(*s->buffer, s->indices.size(), s->span);
    check_data(*s->buffer, s->span);
    if (s->value && s->value->dtype.element_of() != s->buffer->dtype.element_of() &&
        !(s->buffer->dtype.is_bool() && s->value->dtype.is_bool())) {
      error("E0703", s->span,
            "a value of type " + s->value->dtype.str() + " is stored into buffer `" +
                s->buffer->name + "` of element type " + s->buffer->dtype.str());
    }
    Visitor::visit_buffer_store(s);
  }

  void visit_for(const Ref<For>& s) override {
    visit_expr(s->min);
    visit_expr(s->extent);
    if (!s->loop_var || !s->loop_var->dtype.is_integer_like() || s->loop_var->dtype.is_vector()) {
      error("E0704", s->span, "loop variable of a for loop must be a scalar integer");
    }
    if (!s->min || !s->extent || !s->min->dtype.is_integer_like() ||
        !s->extent->dtype.is_integer_like()) {
      error("E0704", s->span,
            "loop `" + (s->loop_var ? s->loop_var->name : std::string("?")) +
                "` must have integer bounds");
    }
    if (s->for_kind == ForKind::kThreadBinding && options_.cpu) {
      std::string tag = s->thread_binding ? s->thread_binding->thread_tag : "";
      error("E0700", s->span,
            "loop `" + s->loop_var->name + "` is bound to thread `" + tag +
                "`, which a CPU target cannot run; remove the binding or compile for a GPU target");
    }
    scoped(s->loop_var, [&] { visit_stmt(s->body); });
  }

  void visit_let_stmt(const Ref<LetStmt>& s) override {
    visit_expr(s->value);
    scoped(s->var, [&] { visit_stmt(s->body); });
  }

  void visit_let(const Ref<Let>& let) override {
    visit_expr(let->value);
    scoped(let->var, [&] { visit_expr(let->body); });
  }

  void visit_allocate(const Ref<Allocate>& s) override {
    for (const auto& e : s->extents) visit_expr(e);
    visit_expr(s->condition);
    scoped(s->buffer_var, [&] { visit_stmt(s->body); });
  }

  void visit_decl_buffer(const Ref<DeclBuffer>& s) override {
    visit_buffer_def(s->buffer);
    if (s->buffer->data) visit_var(s->buffer->data);
    visit_stmt(s->body);
  }

  void visit_attr_stmt(const Ref<AttrStmt>& s) override {
    if (s->attr_key == "thread_extent" || s->attr_key == "virtual_thread") {
      if (options_.cpu) {
        std::string tag;
        if (auto iv = s->node.as_ptr<IterVar>()) tag = iv->thread_tag;
        error("E0700", s->span, "a thread launch (`" + tag + "`) cannot run on a CPU target");
      }
      if (auto iv = s->node.as<IterVar>()) {
        visit_expr(s->value);
        scoped(iv->var, [&] { visit_stmt(s->body); });
        return;
      }
    }
    Visitor::visit_attr_stmt(s);
  }

  void visit_block_realize(const Ref<BlockRealize>& s) override {
    if (options_.lowered) {
      error("E0705", s->span, "block `" + s->block->name_hint + "` is left after lowering");
      return;
    }
    for (const auto& v : s->iter_values) visit_expr(v);
    visit_expr(s->predicate);
    if (s->iter_values.size() != s->block->iter_vars.size()) {
      error("E0705", s->span,
            "block `" + s->block->name_hint + "` has " +
                std::to_string(s->block->iter_vars.size()) + " iterators but " +
                std::to_string(s->iter_values.size()) + " bound values");
    }
    visit_stmt(s->block);
  }

  void visit_block(const Ref<Block>& b) override {
    std::vector<const Var*> added;
    auto def = [&](const Ref<Var>& v) {
      if (v && defined_.insert(v.get()).second) added.push_back(v.get());
    };
    for (const auto& iv : b->iter_vars) {
      visit_range(iv->dom);
      def(iv->var);
    }
    for (const auto& buf : b->alloc_buffers) {
      visit_buffer_def(buf);
      def(buf->data);
    }
    for (const auto& m : b->match_buffers) {
      visit_region(m->source);
      def(m->buffer->data);
      for (const auto& e : m->buffer->shape)
        if (auto v = e.as<Var>()) def(v);
      for (const auto& e : m->buffer->strides)
        if (auto v = e.as<Var>()) def(v);
      if (auto v = m->buffer->elem_offset.as<Var>()) def(v);
    }
    for (const auto& r : b->reads) visit_region(r);
    for (const auto& r : b->writes) visit_region(r);
    visit_stmt(b->init);
    visit_stmt(b->body);
    for (const Var* v : added) defined_.erase(v);
  }

 private:
  void define(const Ref<Var>& v) {
    if (v) defined_.insert(v.get());
  }
  void define_buffer_vars(const Ref<Buffer>& b) {
    define(b->data);
    for (const auto& e : b->shape)
      if (auto v = e.as<Var>()) define(v);
    for (const auto& e : b->strides)
      if (auto v = e.as<Var>()) define(v);
    if (auto v = b->elem_offset.as<Var>()) define(v);
  }
  template <class F>
  void scoped(const Ref<Var>& v, F&& body) {
    bool added = v && defined_.insert(v.get()).second;
    if (v && !added && redefined_.insert(v.get()).second) {
      error("E0702", v->span, "variable `" + v->name + "` is defined twice in nested scopes");
    }
    body();
    if (added) defined_.erase(v.get());
  }
  void check_access(const Buffer& b, size_t n, ir::Span span) {
    size_t rank = b.shape.size();
    if (n != rank && !(rank == 0 && n == 1)) {
      error("E0703", span,
            "buffer `" + b.name + "` has " + std::to_string(rank) + " dimension" +
                (rank == 1 ? "" : "s") + " but is accessed with " + std::to_string(n) + " index" +
                (n == 1 ? "" : "es"));
    }
  }
  void check_data(const Buffer& b, ir::Span span) {
    if (b.data && !defined_.count(b.data.get()) && reported_.insert(b.data.get()).second) {
      error("E0702", span, "buffer `" + b.name + "` is used outside the scope of its allocation");
    }
  }
  void error(const char* code, ir::Span span, const std::string& message) {
    ok = false;
    std::string prefix = "prim_func `" + options_.func_name + "`";
    if (!options_.stage.empty()) prefix += " after " + options_.stage;
    if (!span.is_known()) span = func_.span;
    diags_.error(code, span, prefix + ": " + message);
  }

  const PrimFunc& func_;
  ir::DiagnosticBag& diags_;
  const VerifyOptions& options_;
  std::unordered_set<const Var*> defined_;
  std::unordered_set<const Var*> reported_;
  std::unordered_set<const Var*> redefined_;
};

}  // namespace

bool verify_prim_func(const ir::tir::PrimFunc& func, ir::DiagnosticBag& diags,
                      const VerifyOptions& options) {
  Verifier v(func, diags, options);
  v.run();
  return v.ok;
}

}  // namespace relax::compiler::tir
