// Statement-level T.* builtins that act on the frames of the statement parser: block
// signatures (T.axis.*, T.reads/T.writes, T.where, T.block_attr), function attributes, buffer
// declarations (match_buffer, alloc_buffer, decl_buffer, allocate), threads (launch_thread,
// env_thread), the concise scoping builtins (T.attr, T.realize, T.LetStmt, T.Assert) and
// T.meta_var bindings.
#include <algorithm>

#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_stmt_parser.h"

namespace relax::syntax::tirfe {

using ir::make;

namespace {

ir::Attrs sorted_attrs(Frontend& fe, const Value& dict, bool& ok) {
  ir::Attrs attrs;
  if (!dict.is_dict()) {
    fe.error("E0608", dict.span(), "expected a dictionary of attributes, got " + dict.describe());
    ok = false;
    return attrs;
  }
  std::vector<ir::Attrs::Entry> entries;
  for (const auto& [k, v] : dict.entries()) {
    auto key = fe.to_string(k);
    auto value = fe.to_attr_value(v);
    if (!key || !value) {
      ok = false;
      continue;
    }
    entries.emplace_back(*key, *value);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [k, v] : entries) attrs.set(k, v);
  return attrs;
}

std::vector<Value> splat_single_sequence(const std::vector<Value>& args) {
  if (args.size() == 1 && args[0].is_sequence()) return args[0].items();
  return args;
}

}  // namespace

bool StmtParser::frame_builtin(const std::string& name, const CallArgs& call,
                               const std::vector<Node>& targets, StmtSink& sink) {
  auto poison = [&] {
    for (Node t : targets) fe_.poison(std::string(t.text()));
  };
  auto single_target = [&](const char* what) -> std::string {
    if (targets.size() > 1) {
      fe_.error("E0604", targets[1], std::string("`") + what + "` defines a single name");
      return "";
    }
    return targets.empty() ? "" : std::string(targets[0].text());
  };
  if (name.starts_with("T.axis.")) return axis_builtin(name, call, targets);
  if (name == "T.reads" || name == "T.writes") {
    BlockFrame* frame = current_block(call.node, name.c_str());
    if (!frame) return true;
    bool& seen = name == "T.reads" ? frame->has_reads : frame->has_writes;
    if (seen) {
      fe_.error("E0613", call.node, "duplicate `" + name + "` in a block");
      return true;
    }
    if (!call.kwargs.empty())
      fe_.error("E0214", call.kwarg_nodes[0], "`" + name + "` takes no keyword arguments");
    std::vector<Ref<BufferRegion>> regions;
    for (const Value& v : splat_single_sequence(call.args)) {
      if (auto r = to_region(fe_, v)) regions.push_back(r);
    }
    seen = true;
    (name == "T.reads" ? frame->block->reads : frame->block->writes) = std::move(regions);
    return true;
  }
  if (name == "T.where") {
    BlockFrame* frame = current_block(call.node, "T.where");
    ArgBinder args(fe_, call, {"predicate"});
    if (!frame || !args.ok()) return true;
    if (frame->predicate) {
      fe_.error("E0613", call.node, "duplicate `T.where` in a block");
      return true;
    }
    Ref<PrimExpr> p = to_expr(fe_, *args.get("predicate"));
    if (p && !p->dtype.is_bool()) {
      fe_.error("E0608", args.node_of("predicate"),
                "T.where needs a boolean condition, got " + p->dtype.str());
      return true;
    }
    frame->predicate = p;
    return true;
  }
  if (name == "T.block_attr" || name == "T.sblock_attr") {
    BlockFrame* frame = current_block(call.node, name.c_str());
    ArgBinder args(fe_, call, {"attrs"});
    if (!frame || !args.ok()) return true;
    if (frame->has_attrs) {
      fe_.error("E0613", call.node, "duplicate `" + name + "` in a block");
      return true;
    }
    bool ok = true;
    ir::Attrs attrs = sorted_attrs(fe_, *args.get("attrs"), ok);
    frame->has_attrs = true;
    frame->block->annotations = attrs;
    return true;
  }
  if (name == "T.func_attr") {
    ArgBinder args(fe_, call, {"attrs"});
    if (!args.ok()) return true;
    bool ok = true;
    ir::Attrs attrs = sorted_attrs(fe_, *args.get("attrs"), ok);
    // "tirx.noalias" (TVM >= v0.24) is the current spelling of "tir.noalias": one attribute.
    for (const auto& [k, v] : attrs)
      func_->attrs.set(k.starts_with("tirx.") ? "tir." + k.substr(5) : k, v);
    return true;
  }
  if (name == "T.match_buffer" || name == "T.alloc_buffer" || name == "T.sblock_alloc_buffer" ||
      name == "T.alloc_shared" || name == "T.alloc_local" || name == "T.decl_buffer" ||
      name == "T.allocate") {
    buffer_decl_builtin(name, call, targets, sink);
    return true;
  }
  if (name == "T.launch_thread" || name == "T.env_thread") {
    thread_builtin(name, call, targets, sink);
    return true;
  }
  if (name == "T.attr") {
    if (!targets.empty()) fe_.error("E0604", targets[0], "T.attr defines no name");
    bool ok = true;
    CallArgs copy = call;
    // Validate now so errors show at the statement, then wrap the rest.
    Ref<Stmt> probe = attr_stmt(copy, make<Evaluate>(int32(0)), ok);
    if (!ok) return true;
    auto attr = probe.as<AttrStmt>();
    sink.open([attr](Ref<Stmt> body) -> Ref<Stmt> {
      auto s = make<AttrStmt>(attr->node, attr->attr_key, attr->value, body);
      s->span = attr->span;
      return s;
    });
    return true;
  }
  if (name == "T.realize") {
    ArgBinder args(fe_, call, {"buffer_slice", "scope", "condition="});
    if (!args.ok()) return true;
    Ref<BufferRegion> region = to_region(fe_, *args.get("buffer_slice"));
    auto scope = fe_.to_string(*args.get("scope"));
    Ref<PrimExpr> cond = bool_imm(true);
    if (const Value* c = args.get("condition")) cond = to_expr(fe_, *c);
    if (!region || !scope || !cond) return true;
    ir::Span span = call.span();
    std::string scope_str = *scope;
    sink.open([region, scope_str, cond, span](Ref<Stmt> body) -> Ref<Stmt> {
      auto realize = make<BufferRealize>();
      realize->buffer = region->buffer;
      realize->bounds = region->region;
      realize->condition = cond;
      realize->body = body;
      auto attr =
          make<AttrStmt>(region->buffer, "realize_scope", make<StringImm>(scope_str), realize);
      attr->span = span;
      return attr;
    });
    return true;
  }
  if (name == "T.LetStmt") {
    ArgBinder args(fe_, call, {"value", "type_annotation=", "*", "var="});
    std::string target = single_target("T.LetStmt");
    if (!args.ok()) {
      poison();
      return true;
    }
    Ref<PrimExpr> value = to_expr(fe_, *args.get("value"));
    if (!value) {
      poison();
      return true;
    }
    Ref<Var> var;
    if (const Value* v = args.get("var"); v && !v->is_none()) {
      var = v->as<Var>();
      if (!var) {
        fe_.error("E0608", args.node_of("var"), "`var` must be a variable");
        return true;
      }
    } else {
      DataType t = value->dtype;
      if (const Value* a = args.get("type_annotation"); a && !a->is_none()) {
        if (a->is_namespace()) {
          auto d = fe_.to_dtype(*a);
          if (!d) return true;
          t = *d;
        } else if (auto tv = a->as<Var>()) {
          t = tv->dtype;
        }
      }
      var = make<Var>(target.empty() ? "v" : target, t);
    }
    if (!target.empty()) fe_.define(target, Value::object(var, targets[0].span()));
    sink.open(
        [var, value](Ref<Stmt> body) -> Ref<Stmt> { return make<LetStmt>(var, value, body); });
    return true;
  }
  if (name == "T.Assert") {
    ArgBinder args(fe_, call, {"condition", "message"});
    if (!args.ok()) return true;
    Ref<PrimExpr> cond = to_expr(fe_, *args.get("condition"));
    Ref<PrimExpr> msg = to_expr(fe_, *args.get("message"));
    if (!cond || !msg) return true;
    sink.open(
        [cond, msg](Ref<Stmt> body) -> Ref<Stmt> { return make<AssertStmt>(cond, msg, body); });
    return true;
  }
  return false;
}

Ref<Stmt> StmtParser::attr_stmt(const CallArgs& call, Ref<Stmt> body, bool& ok) {
  ArgBinder args(fe_, call, {"node", "attr_key", "value"});
  if (!args.ok()) {
    ok = false;
    return nullptr;
  }
  const Value& node_v = *args.get("node");
  ir::ObjectRef node;
  if (node_v.is_string()) {
    node = ir::make_string(node_v.as_string());
  } else if (!node_v.is_none()) {
    auto o = fe_.to_attr_value(node_v);
    if (!o) {
      ok = false;
      return nullptr;
    }
    node = *o;
  }
  auto key = fe_.to_string(*args.get("attr_key"));
  const Value& value_v = *args.get("value");
  Ref<PrimExpr> value = to_expr(fe_, value_v);
  if (!key || !value) {
    ok = false;
    return nullptr;
  }
  auto s = make<AttrStmt>(node, *key, value, body);
  s->span = call.span();
  return s;
}

bool StmtParser::axis_builtin(const std::string& name, const CallArgs& call,
                              const std::vector<Node>& targets) {
  BlockFrame* frame = current_block(call.node, name.c_str());
  auto poison = [&] {
    for (Node t : targets) fe_.poison(std::string(t.text()));
  };
  if (!frame) {
    poison();
    return true;
  }
  if (name == "T.axis.remap") {
    ArgBinder args(fe_, call, {"kinds", "bindings", "dtype="});
    if (!args.ok()) {
      poison();
      return true;
    }
    auto kinds = fe_.to_string(*args.get("kinds"));
    auto bindings = fe_.to_sequence(*args.get("bindings"), "T.axis.remap bindings");
    if (!kinds || !bindings) {
      poison();
      return true;
    }
    if (kinds->size() != bindings->size()) {
      fe_.error("E0611", call.node,
                "T.axis.remap has " + std::to_string(kinds->size()) + " kinds but " +
                    std::to_string(bindings->size()) + " bindings");
      poison();
      return true;
    }
    if (targets.size() != bindings->size()) {
      fe_.error("E0604", call.node,
                "T.axis.remap defines " + std::to_string(bindings->size()) + " names but " +
                    std::to_string(targets.size()) + " are given");
      poison();
      return true;
    }
    for (size_t i = 0; i < bindings->size(); ++i) {
      const Value& b = (*bindings)[i];
      auto var = b.as<Var>();
      char kind = (*kinds)[i];
      Ref<Range> dom;
      if (var) {
        for (const auto& [loop_var, range] : loops_) {
          if (loop_var == var.get()) {
            dom = range;
            break;
          }
        }
      }
      if (!dom) {
        fe_.error("E0611", b.span(),
                  "T.axis.remap binds loop variables only; `" +
                      (var ? var->name : std::string("this value")) +
                      "` is not a variable of an enclosing loop");
        fe_.poison(std::string(targets[i].text()));
        continue;
      }
      if (kind != 'S' && kind != 'R') {
        fe_.error("E0611", args.node_of("kinds"),
                  std::string("unknown axis kind '") + kind +
                      "': T.axis.remap takes S (spatial) and R (reduce)");
        fe_.poison(std::string(targets[i].text()));
        continue;
      }
      auto iv_var = make<Var>(std::string(targets[i].text()), var->dtype);
      iv_var->span = targets[i].span();
      auto iv =
          make<IterVar>(dom, iv_var, kind == 'S' ? IterType::kDataPar : IterType::kCommReduce);
      frame->block->iter_vars.push_back(iv);
      frame->iter_values.push_back(var);
      fe_.define(iv_var->name, Value::object(iv_var, targets[i].span()));
      fe_.symbols.set_kind(iv_var.get(), SymbolKind::kBlockVar);
    }
    return true;
  }
  ArgBinder args(fe_, call, {"dom", "binding", "dtype="});
  if (!args.ok()) {
    poison();
    return true;
  }
  if (targets.size() > 1) {
    fe_.error("E0604", targets[1], "`" + name + "` defines a single name");
    poison();
    return true;
  }
  const Value& dom_v = *args.get("dom");
  Ref<Range> dom;
  if (auto r = dom_v.as<Range>()) {
    dom = r;
  } else if (dom_v.is_sequence() && dom_v.items().size() == 2) {
    Ref<PrimExpr> lo = to_dim(fe_, dom_v.items()[0]);
    Ref<PrimExpr> hi = to_dim(fe_, dom_v.items()[1]);
    if (lo && hi) dom = make<Range>(lo, simplify_extent(lo, hi));
  } else {
    Ref<PrimExpr> extent = to_dim(fe_, dom_v);
    if (extent)
      dom =
          make<Range>(int_imm(dom_v.is<PrimExpr>() ? extent->dtype : DataType::Int32(), 0), extent);
  }
  Ref<PrimExpr> binding = to_expr(fe_, *args.get("binding"));
  DataType dtype = DataType::Int32();
  if (const Value* d = args.get("dtype")) {
    auto t = fe_.to_dtype(*d);
    if (!t) {
      poison();
      return true;
    }
    dtype = *t;
  }
  if (!dom || !binding) {
    poison();
    return true;
  }
  int bits = std::max({dom->min->dtype.bits(), dom->extent->dtype.bits(), dtype.bits()});
  IterType type = IterType::kDataPar;
  if (name == "T.axis.reduce" || name == "T.axis.R")
    type = IterType::kCommReduce;
  else if (name == "T.axis.scan")
    type = IterType::kOrdered;
  else if (name == "T.axis.opaque")
    type = IterType::kOpaque;
  std::string var_name = targets.empty() ? "" : std::string(targets[0].text());
  auto var = make<Var>(var_name, dtype.with_bits(bits));
  if (!targets.empty()) var->span = targets[0].span();
  frame->block->iter_vars.push_back(make<IterVar>(dom, var, type));
  frame->iter_values.push_back(binding);
  if (!targets.empty()) {
    fe_.define(var_name, Value::object(var, targets[0].span()));
    fe_.symbols.set_kind(var.get(), SymbolKind::kBlockVar);
  }
  return true;
}

void StmtParser::buffer_decl_builtin(const std::string& name, const CallArgs& call,
                                     const std::vector<Node>& targets, StmtSink& sink) {
  auto poison = [&] {
    for (Node t : targets) fe_.poison(std::string(t.text()));
  };
  if (targets.size() > 1) {
    fe_.error("E0604", targets[1], "`" + name + "` defines a single name");
    poison();
    return;
  }
  std::string target = targets.empty() ? "" : std::string(targets[0].text());
  if (name == "T.allocate") {
    ArgBinder args(fe_, call, {"extents", "dtype", "scope=", "condition=", "annotations="});
    if (!args.ok()) {
      poison();
      return;
    }
    auto extents = to_shape(fe_, *args.get("extents"));
    auto dtype = fe_.to_dtype(*args.get("dtype"));
    std::optional<std::string> scope = std::string("global");
    if (const Value* s = args.get("scope")) scope = fe_.to_string(*s);
    Ref<PrimExpr> cond = bool_imm(true);
    if (const Value* c = args.get("condition"); c && !c->is_none()) {
      cond = c->is_bool() ? Ref<PrimExpr>(bool_imm(c->as_bool())) : to_expr(fe_, *c);
    }
    ir::Attrs annotations;
    bool ok = true;
    if (const Value* a = args.get("annotations"); a && !a->is_none())
      annotations = sorted_attrs(fe_, *a, ok);
    if (!extents || !dtype || !scope || !cond || !ok) {
      poison();
      return;
    }
    auto var = make<Var>(target, DataType::Handle());
    var->pointer = PointerType{*dtype, *scope};
    if (!targets.empty()) var->span = targets[0].span();
    DataType t = *dtype;
    std::vector<Ref<PrimExpr>> ext = *extents;
    ir::Span span = call.span();
    sink.open([var, t, ext, cond, annotations, span](Ref<Stmt> body) -> Ref<Stmt> {
      auto a = make<Allocate>();
      a->buffer_var = var;
      a->dtype = t;
      a->extents = ext;
      a->condition = cond;
      a->annotations = annotations;
      a->body = body;
      a->span = span;
      return a;
    });
    if (!target.empty()) fe_.define(target, Value::object(var, targets[0].span()));
    return;
  }
  bool is_match = name == "T.match_buffer";
  std::optional<ArgBinder> binder;
  if (is_match) {
    binder.emplace(fe_, call,
                   std::initializer_list<std::string_view>{
                       "param", "shape=", "dtype=", "data=", "strides=", "elem_offset=", "scope=",
                       "align=", "offset_factor=", "buffer_type=", "axis_separators=", "**"});
  } else {
    binder.emplace(fe_, call,
                   std::initializer_list<std::string_view>{
                       "shape", "dtype=", "data=", "strides=", "elem_offset=", "scope=", "align=",
                       "offset_factor=", "buffer_type=", "axis_separators=", "**"});
  }
  const ArgBinder& args = *binder;
  if (!args.ok()) {
    poison();
    return;
  }
  BufferSpec spec;
  Ref<BufferRegion> source;
  Ref<Var> param;
  if (is_match) {
    const Value& p = *args.get("param");
    if (auto v = p.as<Var>()) {
      param = v;
      bool is_param = false;
      for (const auto& fp : func_->params) is_param |= fp == v;
      if (!is_param || !v->dtype.is_handle()) {
        fe_.error("E0608", args.node_of("param"),
                  "T.match_buffer binds a handle parameter of the function or a buffer region; `" +
                      v->name + "` is not a handle parameter");
        poison();
        return;
      }
      for (const auto& [pv, b] : func_->buffer_map) {
        if (pv == v) {
          fe_.error("E0613", args.node_of("param"),
                    "parameter `" + v->name + "` is already bound to buffer `" + b->name + "`");
          poison();
          return;
        }
      }
      if (!args.has("shape")) {
        fe_.error("E0215", call.node, "T.match_buffer of a parameter needs a shape");
        poison();
        return;
      }
    } else {
      source = to_region(fe_, p);
      if (!source) {
        poison();
        return;
      }
      if (!args.has("shape")) {
        for (const auto& r : source->region) spec.shape.push_back(r->extent);
        spec.dtype = source->buffer->dtype;
      }
    }
  } else if (name == "T.alloc_shared") {
    spec.scope = "shared";
  } else if (name == "T.alloc_local") {
    spec.scope = "local";
  }
  if (!read_buffer_spec(fe_, args, spec, !is_match || args.has("shape"))) {
    poison();
    return;
  }
  if (is_match && source && !args.has("shape") && !args.has("dtype"))
    spec.dtype = source->buffer->dtype;
  Ref<Buffer> buffer = make_buffer(spec, target);
  buffer->span = call.span();
  name_buffer(buffer, target);
  if (is_match) {
    if (param) {
      func_->buffer_map.emplace_back(param, buffer);
    } else {
      BlockFrame* frame = current_block(call.node, "T.match_buffer of a region");
      if (!frame) {
        poison();
        return;
      }
      frame->block->match_buffers.push_back(make<MatchBufferRegion>(buffer, source));
    }
  } else if (name == "T.decl_buffer") {
    bool allocated = spec.data.defined();
    ir::Span span = call.span();
    sink.open([buffer, allocated, span](Ref<Stmt> body) -> Ref<Stmt> {
      auto decl = make<DeclBuffer>(buffer, body);
      decl->span = span;
      if (allocated) return decl;
      auto a = make<Allocate>();
      a->buffer_var = buffer->data;
      a->dtype = buffer->dtype;
      a->extents = buffer->shape;
      a->condition = bool_imm(true);
      a->body = decl;
      a->span = span;
      return a;
    });
  } else if (!blocks_.empty()) {
    blocks_.back()->block->alloc_buffers.push_back(buffer);
  } else {
    root_allocs_.push_back(buffer);
  }
  if (!target.empty()) fe_.define(target, Value::object(buffer, targets[0].span()));
}

void StmtParser::thread_builtin(const std::string& name, const CallArgs& call,
                                const std::vector<Node>& targets, StmtSink& sink, Node with_body) {
  (void)with_body;
  auto poison = [&] {
    for (Node t : targets) fe_.poison(std::string(t.text()));
  };
  if (targets.size() > 1) {
    fe_.error("E0604", targets[1], "`" + name + "` defines a single name");
    poison();
    return;
  }
  std::string target = targets.empty() ? "" : std::string(targets[0].text());
  if (name == "T.env_thread") {
    ArgBinder args(fe_, call, {"thread_tag", "dtype="});
    if (!args.ok()) {
      poison();
      return;
    }
    auto tag = fe_.to_string(*args.get("thread_tag"));
    DataType t = DataType::Int32();
    if (const Value* d = args.get("dtype")) {
      auto dt = fe_.to_dtype(*d);
      if (!dt) {
        poison();
        return;
      }
      t = *dt;
    }
    if (!tag) {
      poison();
      return;
    }
    auto var = make<Var>(target, t);
    auto iv = make<IterVar>(nullptr, var, IterType::kThreadIndex, *tag);
    env_threads_[var.get()] = iv;
    if (!target.empty()) fe_.define(target, Value::object(var, targets[0].span()));
    return;
  }
  ArgBinder args(fe_, call, {"thread", "extent"});
  if (!args.ok()) {
    poison();
    return;
  }
  const Value& thread = *args.get("thread");
  Ref<PrimExpr> extent = to_expr(fe_, *args.get("extent"));
  if (!extent) {
    poison();
    return;
  }
  Ref<IterVar> iv;
  if (thread.is_string()) {
    auto var = make<Var>(target, extent->dtype);
    iv = make<IterVar>(nullptr, var, IterType::kThreadIndex, thread.as_string());
    env_threads_[var.get()] = iv;
  } else if (auto var = thread.as<Var>()) {
    auto it = env_threads_.find(var.get());
    if (it == env_threads_.end()) {
      fe_.error("E0610", args.node_of("thread"),
                "`" + var->name + "` is not a thread created with T.env_thread(...)");
      poison();
      return;
    }
    iv = it->second;
  } else {
    if (!thread.is_error()) {
      fe_.error("E0610", args.node_of("thread"),
                "T.launch_thread takes a thread tag such as \"threadIdx.x\" or a T.env_thread "
                "variable, got " +
                    thread.describe());
    }
    poison();
    return;
  }
  if (!iv->dom) iv->dom = make<Range>(int_imm(extent->dtype, 0), extent);
  std::string key = iv->thread_tag == "vthread" ? "virtual_thread" : "thread_extent";
  ir::Span span = call.span();
  sink.open([iv, key, extent, span](Ref<Stmt> body) -> Ref<Stmt> {
    auto s = make<AttrStmt>(iv, key, extent, body);
    s->span = span;
    return s;
  });
  if (!target.empty()) fe_.define(target, Value::object(iv->var, targets[0].span()));
}

// `n = T.meta_var(v)`: the name stands for the value itself while parsing (a Python number
// stays one, an expression is inlined at each use); no let binding is made. A sequence unpacks
// into several names.
void StmtParser::bind_meta_var(Node left, const std::vector<Node>& targets, Node call_node) {
  CallArgs call;
  call.name = "T.meta_var";
  auto poison = [&] {
    for (Node t : targets) fe_.poison(std::string(t.text()));
  };
  if (!eval_call(call_node, call)) return poison();
  ArgBinder args(fe_, call, {"value"});
  if (!args.ok()) return poison();
  const Value& value = *args.get("value");
  if (targets.size() == 1 && left.kind() == NodeKind::kIdentifier) {
    fe_.define(std::string(targets[0].text()), value);
    return;
  }
  if (!value.is_sequence() || value.items().size() != targets.size()) {
    fe_.error(
        "E0604", call_node,
        "cannot unpack " + value.describe() + " into " + std::to_string(targets.size()) + " names");
    return poison();
  }
  for (size_t i = 0; i < targets.size(); ++i)
    fe_.define(std::string(targets[i].text()), value.items()[i]);
}

}  // namespace relax::syntax::tirfe
