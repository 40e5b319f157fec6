// The TIR printer: a prim_func as TVM v0.20's printer writes it (legacy profile) or with the
// current spellings. Follows TVM's IRDocsifier: frames per scope, names unique per live frame,
// free variables and buffers defined in the lowest frame enclosing all their uses, concise
// scoping for the last statement of a body, buffers inlined in the signature when simple.
#include "syntax/printer/tir_printer.h"

#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_internal.h"

namespace relax::syntax {

void print_prim_func(PrinterContext& ctx, const ir::tir::PrimFunc& func, const std::string& name,
                     bool standalone) {
  (void)standalone;
  ctx.uses_tir = true;
  tirprint::TirPrinter printer(ctx);
  printer.print_function(func, name);
}

namespace tirprint {

using ir::make;
using ir::Object;
using ir::ObjectKind;

namespace {

Doc line(std::string text) {
  return Doc{std::move(text), {}, false};
}
Doc scope(std::string header, std::vector<Doc> body) {
  return Doc{std::move(header), std::move(body), true};
}

bool is_one(const Ref<PrimExpr>& e) {
  return is_const_int(e, 1);
}
bool is_zero(const Ref<PrimExpr>& e) {
  return is_const_int(e, 0);
}

bool contains_block_realize(const Ref<Stmt>& s) {
  if (!s) return false;
  switch (s->kind()) {
    case ObjectKind::kBlockRealize:
      return true;
    case ObjectKind::kBlock:
      return contains_block_realize(s.as_ptr<Block>()->body) ||
             contains_block_realize(s.as_ptr<Block>()->init);
    case ObjectKind::kSeqStmt:
      for (const auto& x : s.as_ptr<SeqStmt>()->seq) {
        if (contains_block_realize(x)) return true;
      }
      return false;
    case ObjectKind::kFor:
      return contains_block_realize(s.as_ptr<For>()->body);
    case ObjectKind::kWhile:
      return contains_block_realize(s.as_ptr<While>()->body);
    case ObjectKind::kIfThenElse:
      return contains_block_realize(s.as_ptr<IfThenElse>()->then_case) ||
             contains_block_realize(s.as_ptr<IfThenElse>()->else_case);
    case ObjectKind::kLetStmt:
      return contains_block_realize(s.as_ptr<LetStmt>()->body);
    case ObjectKind::kAttrStmt:
      return contains_block_realize(s.as_ptr<AttrStmt>()->body);
    case ObjectKind::kAssertStmt:
      return contains_block_realize(s.as_ptr<AssertStmt>()->body);
    case ObjectKind::kAllocate:
      return contains_block_realize(s.as_ptr<Allocate>()->body);
    case ObjectKind::kDeclBuffer:
      return contains_block_realize(s.as_ptr<DeclBuffer>()->body);
    case ObjectKind::kBufferRealize:
      return contains_block_realize(s.as_ptr<BufferRealize>()->body);
    default:
      return false;
  }
}

// The implicit root block of a body, when TVM's printer shows it as the `# with T.block("root"):`
// comment rather than a block.
const Block* implicit_root(const PrimFunc& func) {
  auto realize = func.body.as_ptr<BlockRealize>();
  if (!realize || !realize->iter_values.empty() || !is_one(realize->predicate)) return nullptr;
  const Block* root = realize->block.get();
  if (!root->annotations.empty() || !root->match_buffers.empty() || !root->reads.empty() ||
      !root->writes.empty() || root->init) {
    return nullptr;
  }
  auto inner = root->body.as_ptr<BlockRealize>();
  if (!root->alloc_buffers.empty() || (inner && !inner->block->iter_vars.empty()) ||
      (!inner && contains_block_realize(root->body))) {
    return root;
  }
  return nullptr;
}

bool is_simple_buffer(const Buffer& b) {
  if (!b.strides.empty()) return false;
  for (const auto& d : b.shape) {
    if (has_vars(d)) return false;
  }
  if (b.elem_offset && (has_vars(b.elem_offset) || !is_zero(b.elem_offset))) return false;
  return b.scope() == "global" && b.data_alignment == 64 && b.offset_factor == 1 &&
         b.buffer_type == BufferType::kDefault && b.axis_separators.empty();
}

void collect_vars(const Ref<PrimExpr>& e, std::unordered_map<const Object*, int>& count) {
  if (!e) return;
  switch (e->kind()) {
    case ObjectKind::kTirVar:
      ++count[e.get()];
      return;
    case ObjectKind::kCast:
      collect_vars(e.as_ptr<Cast>()->value, count);
      return;
    case ObjectKind::kNot:
      collect_vars(e.as_ptr<Not>()->a, count);
      return;
    case ObjectKind::kSelect:
      collect_vars(e.as_ptr<Select>()->condition, count);
      collect_vars(e.as_ptr<Select>()->true_value, count);
      collect_vars(e.as_ptr<Select>()->false_value, count);
      return;
    case ObjectKind::kBufferLoad:
      for (const auto& i : e.as_ptr<BufferLoad>()->indices) collect_vars(i, count);
      return;
    case ObjectKind::kTirCall:
      for (const auto& a : e.as_ptr<Call>()->args) collect_vars(a, count);
      return;
    default:
      break;
  }
  if (auto b = e.as_ptr<BinaryOp>()) {
    collect_vars(b->a, count);
    collect_vars(b->b, count);
  }
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  return out;
}

std::string tuple(const std::vector<std::string>& items) {
  if (items.size() == 1) return "(" + items[0] + ",)";
  return "(" + join(items) + ")";
}

}  // namespace

TirPrinter::TirPrinter(PrinterContext& ctx) : PrimExprPrinter(ctx, false) {
  for (const char* reserved : {"T", "R", "I"}) taken_.insert(reserved);
}

// --- Frames and definitions -------------------------------------------------------------------

TirPrinter::Frame& TirPrinter::push_frame(const Object* tir) {
  frames_.push_back(std::make_unique<Frame>());
  frames_.back()->tir = tir;
  return *frames_.back();
}

void TirPrinter::pop_frame() {
  Frame& f = *frames_.back();
  for (const Object* o : f.defs) defs_.erase(o);
  for (const std::string& n : f.names) taken_.erase(n);
  frames_.pop_back();
}

std::string TirPrinter::define(const Object* o, Frame& f, const std::string& hint) {
  // A node defined twice (invalid IR, e.g. a buffer declared in two places) keeps its name.
  if (defined(o)) return doc_of(o);
  std::string base = hint.empty() ? "v" : hint;
  for (char& c : base) {
    bool ok =
        c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!ok) c = '_';
  }
  std::string name = base;
  for (int i = 1; taken_.count(name); ++i) name = base + "_" + std::to_string(i);
  taken_.insert(name);
  f.names.push_back(name);
  f.defs.push_back(o);
  defs_[o] = Def{name, nullptr, ""};
  return name;
}

void TirPrinter::define_inline(const Object* o, Frame& f, const Object* owner,
                               const std::string& suffix) {
  f.defs.push_back(o);
  defs_[o] = Def{"", owner, suffix};
}

std::string TirPrinter::doc_of(const Object* o) {
  auto it = defs_.find(o);
  if (it == defs_.end()) return "";
  if (it->second.owner) return doc_of(it->second.owner) + it->second.suffix;
  return it->second.name;
}

TirPrinter::Frame* TirPrinter::lowest_frame(const Object* o) {
  auto it = prefix_.find(o);
  if (it == prefix_.end()) return frames_.empty() ? nullptr : frames_.front().get();
  std::unordered_map<const Object*, Frame*> by_tir;
  Frame* fallback = nullptr;
  for (size_t i = frames_.size(); i-- > 0;) {
    Frame* f = frames_[i].get();
    if (f->in_header) continue;
    if (f->tir)
      by_tir.emplace(f->tir, f);
    else if (!fallback)
      fallback = f;
  }
  const auto& path = it->second;
  for (size_t i = path.size(); i-- > 0;) {
    auto found = by_tir.find(path[i]);
    if (found != by_tir.end()) return found->second;
  }
  return fallback ? fallback : frames_.front().get();
}

bool TirPrinter::is_ancestor_of_all_uses(const Object* node, const Object* var) const {
  auto it = prefix_.find(var);
  if (it == prefix_.end()) return false;
  for (const Object* p : it->second) {
    if (p == node) return true;
  }
  return false;
}

// --- Expressions --------------------------------------------------------------------------------

std::string TirPrinter::var_creation(const Var& v) {
  if (v.pointer) {
    std::string out = tir("handle") + "(" + quote_string(v.pointer->element.str());
    if (!v.pointer->storage_scope.empty()) out += ", " + quote_string(v.pointer->storage_scope);
    return out + ")";
  }
  return tir(v.dtype.str()) + (v.is_size_var ? "(is_size_var=True)" : "()");
}

std::string TirPrinter::type_annotation(const Var& v) {
  if (v.pointer) {
    std::string out = tir("handle") + "(" + quote_string(v.pointer->element.str());
    if (!v.pointer->storage_scope.empty()) out += ", " + quote_string(v.pointer->storage_scope);
    return out + ")";
  }
  return tir(v.dtype.str());
}

std::string TirPrinter::var_name(const Var& v) {
  if (!defined(&v)) {
    if (Frame* f = lowest_frame(&v)) {
      std::string name = define(&v, *f, v.name);
      f->stmts.push_back(line(name + " = " + var_creation(v)));
    } else {
      return v.name.empty() ? "v" : v.name;
    }
  }
  return doc_of(&v);
}

std::string TirPrinter::buffer_name(const Buffer& b) {
  if (!defined(&b)) {
    if (Frame* f = lowest_frame(&b)) {
      std::string name = define_buffer(b, *f);
      std::string decl = buffer_decl(b, "Buffer", {}, *f, VarDefs::kDataPointer);
      f->stmts.push_back(line(name + " = " + decl));
    } else {
      return b.name.empty() ? "buffer" : b.name;
    }
  }
  return doc_of(&b);
}

std::string TirPrinter::buffer_index(const Ref<PrimExpr>& index) {
  if (auto r = index.as_ptr<Ramp>()) {
    if (auto stride = r->stride.as_ptr<IntImm>()) {
      std::string start = print(r->base);
      Ref<PrimExpr> stop =
          prim_arith(ObjectKind::kAdd, r->base, prim_arith(ObjectKind::kMul, r->lanes, r->stride));
      std::string out = start + ":" + print(stop);
      if (stride->value != 1) out += ":" + print(r->stride);
      return out;
    }
  }
  return print(index);
}

std::string TirPrinter::region(const BufferRegion& r) {
  std::string name = buffer_name(*r.buffer);
  std::vector<std::string> idx;
  for (const auto& range : r.region) {
    std::string lo = print(range->min);
    if (is_one(range->extent)) {
      idx.push_back(lo);
    } else {
      idx.push_back(lo + ":" + print(prim_arith(ObjectKind::kAdd, range->min, range->extent)));
    }
  }
  return name + "[" + (idx.empty() ? "()" : join(idx)) + "]";
}

// --- Buffers
// --------------------------------------------------------------------------------------

std::vector<std::pair<std::string, std::string>> TirPrinter::buffer_attrs(const Buffer& b, Frame& f,
                                                                          VarDefs defs) {
  std::vector<std::pair<std::string, std::string>> kw;
  std::vector<std::string> def_lhs, def_rhs;
  std::unordered_map<const Object*, int> uses;
  collect_vars(b.elem_offset, uses);
  collect_vars(b.data, uses);
  for (const auto& s : b.strides) collect_vars(s, uses);
  for (const auto& s : b.shape) collect_vars(s, uses);
  auto is_new_var = [&](const Ref<PrimExpr>& e) {
    return e && e->kind() == ObjectKind::kTirVar && !defined(e.get());
  };
  auto out_of_line = [&](const Var& v) {
    def_lhs.push_back(define(&v, f, v.name));
    def_rhs.push_back(var_creation(v));
  };
  auto try_inline = [&](const Var& v, const std::string& suffix) {
    if (uses[&v] == 1) {
      define_inline(&v, f, &b, suffix);
      return true;
    }
    out_of_line(v);
    return false;
  };
  // Shape.
  {
    std::vector<std::string> dims;
    for (const auto& d : b.shape) {
      if (is_new_var(d)) out_of_line(*d.as_ptr<Var>());
      dims.push_back(print(d));
    }
    kw.emplace_back("shape", tuple(dims));
  }
  if (b.dtype != ir::DataType::Float32()) kw.emplace_back("dtype", quote_string(b.dtype.str()));
  // Data pointer: defined with the buffer (as `A.data`) when only the buffer uses it.
  bool inline_data = false;
  if (is_new_var(b.data)) {
    if (defs != VarDefs::kNone)
      inline_data = try_inline(*b.data, ".data");
    else
      out_of_line(*b.data);
  }
  if (!inline_data) kw.emplace_back("data", print(b.data));
  if (!b.strides.empty()) {
    std::vector<std::string> strides;
    for (size_t i = 0; i < b.strides.size(); ++i) {
      const auto& s = b.strides[i];
      if (is_new_var(s) && try_inline(*s.as_ptr<Var>(), ".strides[" + std::to_string(i) + "]")) {
        strides.push_back(quote_string(s.as_ptr<Var>()->name));
        continue;
      }
      strides.push_back(print(s));
    }
    kw.emplace_back("strides", tuple(strides));
  }
  bool print_factor = false;
  if (b.elem_offset) {
    if (auto imm = b.elem_offset.as_ptr<IntImm>()) {
      if (imm->value != 0) kw.emplace_back("elem_offset", print(b.elem_offset));
    } else if (is_new_var(b.elem_offset)) {
      try_inline(*b.elem_offset.as_ptr<Var>(), ".elem_offset");
      print_factor = true;
    } else {
      kw.emplace_back("elem_offset", print(b.elem_offset));
    }
  }
  if (b.scope() != "global") kw.emplace_back("scope", quote_string(b.scope()));
  if (b.data_alignment != 64) kw.emplace_back("align", std::to_string(b.data_alignment));
  if (print_factor || b.offset_factor != 1)
    kw.emplace_back("offset_factor", std::to_string(b.offset_factor));
  if (b.buffer_type != BufferType::kDefault) kw.emplace_back("buffer_type", "\"auto\"");
  if (!b.axis_separators.empty()) {
    std::vector<std::string> seps;
    for (int64_t s : b.axis_separators) seps.push_back(std::to_string(s));
    kw.emplace_back("axis_separators", "[" + join(seps) + "]");
  }
  if (def_lhs.size() == 1)
    f.stmts.push_back(line(def_lhs[0] + " = " + def_rhs[0]));
  else if (def_lhs.size() > 1)
    f.stmts.push_back(line(join(def_lhs) + " = " + join(def_rhs)));
  return kw;
}

std::string TirPrinter::buffer_decl(const Buffer& b, const std::string& method,
                                    const std::vector<std::string>& args, Frame& f, VarDefs defs) {
  auto kw = buffer_attrs(b, f, defs);
  std::vector<std::string> parts = args;
  for (const char* key : {"shape", "dtype"}) {
    for (const auto& [k, v] : kw) {
      if (k == key) parts.push_back(v);
    }
  }
  for (const char* key : {"data", "strides", "elem_offset", "scope", "align", "offset_factor",
                          "buffer_type", "axis_separators"}) {
    for (const auto& [k, v] : kw) {
      if (k == key) parts.push_back(k + "=" + v);
    }
  }
  return tir(method) + "(" + join(parts) + ")";
}

std::string TirPrinter::buffer_annotation(const Buffer& b, Frame& f) {
  auto kw = buffer_attrs(b, f, VarDefs::kDataPointer);
  std::string shape, dtype = quote_string(b.dtype.str());
  for (const auto& [k, v] : kw) {
    if (k == "shape") shape = v;
  }
  return tir("Buffer") + "(" + shape + ", " + dtype + ")";
}

// --- Function -----------------------------------------------------------------------------------

void TirPrinter::print_function(const PrimFunc& func, const std::string& name) {
  prefix_ = common_prefixes(func);
  Frame& f = push_frame(&func);
  std::unordered_map<const Var*, int> data_count;
  for (const auto& [p, b] : func.buffer_map) ++data_count[b->data.get()];
  std::vector<std::string> args;
  std::vector<std::string> param_docs;
  std::unordered_set<const Buffer*> inlined;
  std::vector<const Var*> param_vars;
  for (const auto& param : func.params) param_vars.push_back(param.get());
  auto occurrences = count_var_occurrences(func, param_vars);
  for (const auto& param : func.params) {
    Ref<Buffer> buffer = func.buffer_of(param);
    if (buffer && occurrences[param.get()] == 2 && is_simple_buffer(*buffer) &&
        data_count[buffer->data.get()] == 1) {
      std::string lhs = define_buffer(*buffer, f);
      args.push_back(lhs + ": " + buffer_annotation(*buffer, f));
      param_docs.push_back(lhs);
      inlined.insert(buffer.get());
      continue;
    }
    std::string lhs = define(param.get(), f, param->name);
    args.push_back(
        lhs + ": " +
        (param->dtype.is_handle() && !param->pointer ? tir("handle") : type_annotation(*param)));
    param_docs.push_back(lhs);
  }
  // Attributes; the global symbol is implied when it equals the printed name.
  if (!func.attrs.empty()) {
    ir::Attrs shown;
    for (const auto& [k, v] : func.attrs) {
      if (k == "global_symbol") {
        auto s = v.as_ptr<ir::StringValue>();
        if (s && s->value == name) continue;
      }
      std::string key = k;
      if (!legacy() && key.starts_with("tir.")) key = "tirx." + key.substr(4);
      shown.set(key, v);
    }
    if (!shown.empty()) {
      std::vector<std::pair<std::string, std::string>> entries;
      for (const auto& [k, v] : shown) entries.emplace_back(k, attr_value(v));
      std::stable_sort(entries.begin(), entries.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      std::string dict = "{";
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i) dict += ", ";
        dict += quote_string(entries[i].first) + ": " + entries[i].second;
      }
      f.stmts.push_back(line(tir("func_attr") + "(" + dict + "})"));
    }
  }
  // Buffers bound with T.match_buffer, in parameter order.
  for (size_t i = 0; i < func.params.size(); ++i) {
    Ref<Buffer> buffer = func.buffer_of(func.params[i]);
    if (!buffer || inlined.count(buffer.get())) continue;
    std::string lhs = define_buffer(*buffer, f);
    std::string rhs =
        buffer_decl(*buffer, "match_buffer", {param_docs[i]}, f, VarDefs::kMatchBuffer);
    f.stmts.push_back(line(lhs + " = " + rhs));
  }
  const Block* root = implicit_root(func);
  if (root) {
    f.stmts.push_back(line("# with T." + block_word() + "(\"root\"):"));
    for (const auto& b : root->alloc_buffers) {
      std::string lhs = define_buffer(*b, f);
      std::string rhs = buffer_decl(*b, legacy() ? "alloc_buffer" : "sblock_alloc_buffer", {}, f,
                                    VarDefs::kDataPointer);
      f.stmts.push_back(line(lhs + " = " + rhs));
    }
    body(root->body, f);
  } else {
    body(func.body, f);
  }
  std::string decorator = tir("prim_func");
  std::vector<std::string> flags;
  if (!func.attrs.contains("global_symbol")) flags.push_back("private=True");
  if (!legacy() && contains_block_realize(func.body)) flags.push_back("s_tir=True");
  if (!flags.empty()) decorator += "(" + join(flags) + ")";
  std::string header = "def " + name + "(" + join(args) + ")";
  if (!func.ret_type.is_void()) header += " -> " + tir(func.ret_type.str());
  std::vector<Doc> stmts = std::move(f.stmts);
  pop_frame();
  ctx_.writer.line("@" + decorator);
  emit(scope(header + ":", std::move(stmts)));
}

void TirPrinter::emit(const Doc& d) {
  ctx_.writer.line(d.text);
  if (!d.scope) return;
  ctx_.writer.indent();
  if (d.body.empty()) ctx_.writer.line("pass");
  for (const Doc& b : d.body) emit(b);
  ctx_.writer.dedent();
}

// --- Statements
// -----------------------------------------------------------------------------------

void TirPrinter::body(const Ref<Stmt>& s, Frame& f) {
  auto append = [&](const Ref<Stmt>& x) {
    std::vector<Doc> docs = stmt(x);
    for (Doc& d : docs) f.stmts.push_back(std::move(d));
  };
  if (auto seq = s.as_ptr<SeqStmt>()) {
    for (size_t i = 0; i < seq->seq.size(); ++i) {
      f.concise = i + 1 == seq->seq.size();
      append(seq->seq[i]);
    }
    return;
  }
  f.concise = true;
  append(s);
}

std::vector<Doc> TirPrinter::concise_scope(const std::string* lhs, const std::string& rhs,
                                           std::vector<Doc> stmts, bool concise) {
  if (concise) {
    std::vector<Doc> out;
    out.push_back(line(lhs ? *lhs + " = " + rhs : rhs));
    for (Doc& d : stmts) out.push_back(std::move(d));
    return out;
  }
  return {scope("with " + rhs + (lhs ? " as " + *lhs : "") + ":", std::move(stmts))};
}

std::vector<Doc> TirPrinter::stmt(const Ref<Stmt>& s) {
  if (!s) return {};
  switch (s->kind()) {
    case ObjectKind::kLetStmt:
      return let_stmt(*s.as_ptr<LetStmt>());
    case ObjectKind::kAttrStmt:
      return attr_stmt(*s.as_ptr<AttrStmt>());
    case ObjectKind::kAssertStmt:
      return assert_stmt(*s.as_ptr<AssertStmt>());
    case ObjectKind::kBufferStore:
      return buffer_store(*s.as_ptr<BufferStore>());
    case ObjectKind::kBufferRealize:
      return buffer_realize(*s.as_ptr<BufferRealize>());
    case ObjectKind::kAllocate:
      return allocate(*s.as_ptr<Allocate>());
    case ObjectKind::kDeclBuffer:
      return decl_buffer(*s.as_ptr<DeclBuffer>());
    case ObjectKind::kIfThenElse:
      return if_then_else(*s.as_ptr<IfThenElse>());
    case ObjectKind::kEvaluate:
      return evaluate(*s.as_ptr<Evaluate>());
    case ObjectKind::kFor:
      return for_loop(*s.as_ptr<For>());
    case ObjectKind::kWhile:
      return while_loop(*s.as_ptr<While>());
    case ObjectKind::kBlockRealize: {
      auto r = s.as_ptr<BlockRealize>();
      return block(*r->block, r);
    }
    case ObjectKind::kBlock:
      return block(*s.as_ptr<Block>(), nullptr);
    case ObjectKind::kSeqStmt: {
      Frame& f = push_frame(s.get());
      body(s, f);
      std::vector<Doc> out = std::move(f.stmts);
      pop_frame();
      return out;
    }
    default:
      return {line("# <unsupported statement>")};
  }
}

std::vector<Doc> TirPrinter::let_stmt(const LetStmt& s) {
  bool concise = top().concise;
  std::string type = type_annotation(*s.var);
  std::string rhs = print(s.value);
  Frame& f = push_frame(&s);
  bool var_defined = defined(s.var.get());
  if (!var_defined) define(s.var.get(), f, s.var->name);
  std::string lhs = print(s.var);
  body(s.body, f);
  std::vector<Doc> out;
  if (var_defined) {
    out.push_back(
        scope("with " + tir("LetStmt") + "(" + rhs + ", var=" + lhs + "):", std::move(f.stmts)));
  } else if (concise) {
    std::string ann = legacy() ? type : tir("let") + "[" + type + "]";
    out.push_back(line(lhs + ": " + ann + " = " + rhs));
    for (Doc& d : f.stmts) out.push_back(std::move(d));
  } else {
    out.push_back(
        scope("with " + tir("LetStmt") + "(" + rhs + ") as " + lhs + ":", std::move(f.stmts)));
  }
  pop_frame();
  return out;
}

std::string TirPrinter::realize_call(const BufferRealize& r, const std::string* value) {
  std::string name = buffer_name(*r.buffer);
  std::vector<std::string> bounds;
  for (const auto& range : r.bounds) {
    std::string lo = print(range->min);
    bounds.push_back(lo + ":" + print(prim_arith(ObjectKind::kAdd, range->min, range->extent)));
  }
  std::string out = tir("realize") + "(" + name + "[" + join(bounds) + "]";
  if (value) out += ", " + *value;
  if (!is_one(r.condition)) out += ", condition=" + print(r.condition);
  return out + ")";
}

std::vector<Doc> TirPrinter::attr_stmt(const AttrStmt& s) {
  bool concise = top().concise;
  std::string rhs;
  const Var* define_var = nullptr;
  Ref<Stmt> inner = s.body;
  if (s.attr_key == "realize_scope") {
    if (auto realize = s.body.as_ptr<BufferRealize>(); realize && s.node.same_as(realize->buffer)) {
      std::string value = print(s.value);
      rhs = realize_call(*realize, &value);
      inner = realize->body;
    }
  }
  if (s.attr_key == "thread_extent" || s.attr_key == "virtual_thread") {
    if (auto iv = s.node.as_ptr<IterVar>()) {
      if (!defined(iv->var.get())) {
        if (is_ancestor_of_all_uses(&s, iv->var.get())) {
          define_var = iv->var.get();
          std::string value = print(s.value);
          rhs = tir("launch_thread") + "(" + quote_string(iv->thread_tag) + ", " + value + ")";
        } else if (Frame* f = lowest_frame(iv->var.get())) {
          std::string name = define(iv->var.get(), *f, iv->var->name);
          f->stmts.push_back(
              line(name + " = " + tir("env_thread") + "(" + quote_string(iv->thread_tag) + ")"));
        }
      }
      if (rhs.empty()) {
        std::string var = print(iv->var);
        std::string value = print(s.value);
        rhs = tir("launch_thread") + "(" + var + ", " + value + ")";
      }
    }
  }
  if (rhs.empty()) {
    std::string node = attr_value(s.node);
    std::string value = print(s.value);
    rhs = tir("attr") + "(" + node + ", " + quote_string(s.attr_key) + ", " + value + ")";
  }
  Frame& f = push_frame(&s);
  std::string lhs;
  if (define_var) lhs = define(define_var, f, define_var->name);
  body(inner, f);
  std::vector<Doc> out =
      concise_scope(define_var ? &lhs : nullptr, rhs, std::move(f.stmts), concise);
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::assert_stmt(const AssertStmt& s) {
  bool concise = top().concise;
  std::string cond = print(s.condition);
  std::string msg = print(s.message);
  Frame& f = push_frame(&s);
  body(s.body, f);
  std::vector<Doc> out;
  if (concise) {
    if (!legacy() && s.message.is<StringImm>()) msg = "(\"RuntimeError\", [" + msg + "])";
    out.push_back(line("assert " + cond + ", " + msg));
    for (Doc& d : f.stmts) out.push_back(std::move(d));
  } else {
    out.push_back(
        scope("with " + tir("Assert") + "(" + cond + ", " + msg + "):", std::move(f.stmts)));
  }
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::buffer_store(const BufferStore& s) {
  std::string buffer = buffer_name(*s.buffer);
  std::string value = print(s.value);
  if (s.predicate) {
    std::string idx = list(s.indices);
    std::string pred = print(s.predicate);
    return {line(buffer + ".vstore([" + idx + "], " + value + ", predicate=" + pred + ")")};
  }
  std::vector<std::string> idx;
  for (const auto& i : s.indices) idx.push_back(buffer_index(i));
  return {line(buffer + "[" + (idx.empty() ? "()" : join(idx)) + "] = " + value)};
}

std::vector<Doc> TirPrinter::buffer_realize(const BufferRealize& s) {
  bool concise = top().concise;
  std::string rhs = realize_call(s, nullptr);
  Frame& f = push_frame(&s);
  body(s.body, f);
  std::vector<Doc> out = concise_scope(nullptr, rhs, std::move(f.stmts), concise);
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::allocate(const Allocate& s) {
  bool concise = top().concise;
  if (auto decl = s.body.as_ptr<DeclBuffer>()) {
    const Buffer& b = *decl->buffer;
    bool pattern = b.data == s.buffer_var && b.dtype == s.dtype &&
                   s.extents.size() == b.shape.size() && is_one(s.condition) &&
                   s.annotations.empty();
    for (size_t i = 0; pattern && i < s.extents.size(); ++i) {
      pattern = tirfe::expr_equal(s.extents[i], b.shape[i]);
    }
    if (pattern) return decl_buffer(*decl);
  }
  std::string extents = "[" + list(s.extents) + "]";
  std::string scope_name = s.buffer_var->pointer ? s.buffer_var->pointer->storage_scope : "global";
  std::string rhs_args =
      extents + ", " + quote_string(s.dtype.str()) + ", " + quote_string(scope_name);
  if (!is_one(s.condition)) rhs_args += ", " + print(s.condition);
  if (!s.annotations.empty()) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (const auto& [k, v] : s.annotations) entries.emplace_back(k, attr_value(v));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string dict = "{";
    for (size_t i = 0; i < entries.size(); ++i)
      dict += (i ? ", " : "") + quote_string(entries[i].first) + ": " + entries[i].second;
    rhs_args += ", annotations=" + dict + "}";
  }
  std::string lhs = define(s.buffer_var.get(), top(), s.buffer_var->name);
  Frame& f = push_frame(&s);
  std::string rhs = tir("allocate") + "(" + rhs_args + ")";
  body(s.body, f);
  std::vector<Doc> out = concise_scope(&lhs, rhs, std::move(f.stmts), concise);
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::decl_buffer(const DeclBuffer& s) {
  bool concise = top().concise;
  std::string rhs = buffer_decl(*s.buffer, "decl_buffer", {}, top(), VarDefs::kDataPointer);
  Frame& f = push_frame(&s);
  std::string lhs = define_buffer(*s.buffer, f);
  body(s.body, f);
  std::vector<Doc> out = concise_scope(&lhs, rhs, std::move(f.stmts), concise);
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::if_then_else(const IfThenElse& s) {
  std::string cond = print(s.condition);
  std::vector<Doc> then_docs, else_docs;
  if (s.then_case) {
    Frame& f = push_frame(s.then_case.get());
    body(s.then_case, f);
    then_docs = std::move(f.stmts);
    pop_frame();
  }
  if (s.else_case) {
    Frame& f = push_frame(s.else_case.get());
    body(s.else_case, f);
    else_docs = std::move(f.stmts);
    pop_frame();
  }
  std::vector<Doc> out;
  out.push_back(scope("if " + cond + ":", std::move(then_docs)));
  if (!else_docs.empty()) out.push_back(scope("else:", std::move(else_docs)));
  return out;
}

std::vector<Doc> TirPrinter::evaluate(const Evaluate& s) {
  if (auto c = s.value.as_ptr<Call>(); c && c->op == "tir.ret" && c->args.size() == 1) {
    return {line("return " + print(c->args[0]))};
  }
  std::string value = print(s.value);
  if (s.value.is<Call>()) return {line(value)};
  return {line(tir("evaluate") + "(" + value + ")")};
}

std::vector<Doc> TirPrinter::for_loop(const For& loop) {
  // A perfect nest of zero-based, annotation-free serial loops whose extents do not depend on
  // each other prints as one T.grid.
  std::vector<const For*> grid;
  std::unordered_set<const Object*> grid_vars;
  auto depends = [&](const Ref<PrimExpr>& e) {
    std::unordered_map<const Object*, int> used;
    collect_vars(e, used);
    for (const auto& [v, n] : used) {
      if (grid_vars.count(v)) return true;
    }
    return false;
  };
  for (const For* l = &loop; l; l = l->body.as_ptr<For>()) {
    if (l->for_kind != ForKind::kSerial || !is_zero(l->min) || !l->annotations.empty() ||
        depends(l->extent))
      break;
    grid.push_back(l);
    grid_vars.insert(l->loop_var.get());
  }
  Frame& f = push_frame(&loop);
  if (grid.size() > 1) {
    std::vector<std::string> lhs, rhs;
    for (const For* l : grid) lhs.push_back(define(l->loop_var.get(), f, l->loop_var->name));
    f.in_header = true;
    for (const For* l : grid) rhs.push_back(print(l->extent));
    f.in_header = false;
    body(grid.back()->body, f);
    std::vector<Doc> out{scope("for " + join(lhs) + " in " + tir("grid") + "(" + join(rhs) + "):",
                               std::move(f.stmts))};
    pop_frame();
    return out;
  }
  std::string lhs = define(loop.loop_var.get(), f, loop.loop_var->name);
  std::vector<std::string> args;
  f.in_header = true;
  if (is_zero(loop.min)) {
    args.push_back(print(loop.extent));
  } else {
    args.push_back(print(loop.min));
    args.push_back(print(prim_arith(ObjectKind::kAdd, loop.min, loop.extent)));
  }
  std::string annotations;
  if (!loop.annotations.empty()) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (const auto& [k, v] : loop.annotations) entries.emplace_back(k, attr_value(v));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    annotations = "{";
    for (size_t i = 0; i < entries.size(); ++i)
      annotations += (i ? ", " : "") + quote_string(entries[i].first) + ": " + entries[i].second;
    annotations += "}";
  }
  std::string prefix;
  switch (loop.for_kind) {
    case ForKind::kSerial:
      prefix = loop.annotations.empty() ? "range" : tir("serial");
      break;
    case ForKind::kParallel:
      prefix = tir("parallel");
      break;
    case ForKind::kUnrolled:
      prefix = tir("unroll");
      break;
    case ForKind::kVectorized:
      prefix = tir("vectorized");
      break;
    case ForKind::kThreadBinding:
      prefix = tir("thread_binding");
      args.push_back("thread=" +
                     quote_string(loop.thread_binding ? loop.thread_binding->thread_tag : ""));
      break;
  }
  f.in_header = false;
  if (!annotations.empty()) args.push_back("annotations=" + annotations);
  body(loop.body, f);
  std::vector<Doc> out{
      scope("for " + lhs + " in " + prefix + "(" + join(args) + "):", std::move(f.stmts))};
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::while_loop(const While& s) {
  std::string cond = print(s.condition);
  Frame& f = push_frame(&s);
  body(s.body, f);
  std::vector<Doc> out{scope("while " + cond + ":", std::move(f.stmts))};
  pop_frame();
  return out;
}

std::vector<Doc> TirPrinter::block(const Block& b, const BlockRealize* realize) {
  Frame& f = push_frame(&b);
  // Loop variables of the enclosing loops (a T.grid frame covers its whole nest).
  std::unordered_map<const Object*, const For*> loop_vars;
  for (const auto& frame : frames_) {
    if (!frame->tir || frame->tir->kind() != ObjectKind::kFor) continue;
    for (const For* l = static_cast<const For*>(frame->tir); l; l = l->body.as_ptr<For>()) {
      loop_vars.emplace(l->loop_var.get(), l);
    }
  }
  std::vector<size_t> remap;
  auto remappable = [&](size_t i) {
    if (!realize) return false;
    const IterVar& iv = *b.iter_vars[i];
    if (iv.iter_type != IterType::kDataPar && iv.iter_type != IterType::kCommReduce) return false;
    auto var = realize->iter_values[i].as_ptr<Var>();
    if (!var) return false;
    auto it = loop_vars.find(var);
    if (it == loop_vars.end() || !iv.dom) return false;
    return tirfe::expr_equal(it->second->min, iv.dom->min) &&
           tirfe::expr_equal(it->second->extent, iv.dom->extent);
  };
  auto single = [&](size_t i) {
    const IterVar& iv = *b.iter_vars[i];
    const char* kind = iv.iter_type == IterType::kDataPar      ? "spatial"
                       : iv.iter_type == IterType::kCommReduce ? "reduce"
                       : iv.iter_type == IterType::kOrdered    ? "scan"
                                                               : "opaque";
    std::string dom;
    if (iv.dom && is_zero(iv.dom->min)) {
      dom = print(iv.dom->extent);
    } else if (iv.dom) {
      std::string lo = print(iv.dom->min);
      dom =
          "(" + lo + ", " + print(prim_arith(ObjectKind::kAdd, iv.dom->min, iv.dom->extent)) + ")";
    }
    std::string rhs = tir("axis") + "." + kind + "(" + dom;
    if (realize) rhs += ", " + print(realize->iter_values[i]);
    rhs += ")";
    std::string lhs = define(iv.var.get(), f, iv.var->name);
    f.stmts.push_back(line(lhs + " = " + rhs));
  };
  auto flush = [&] {
    if (remap.empty()) return;
    if (remap.size() == 1) {
      single(remap[0]);
      remap.clear();
      return;
    }
    std::vector<std::string> lhs, values;
    std::string kinds;
    for (size_t i : remap) {
      const IterVar& iv = *b.iter_vars[i];
      lhs.push_back(define(iv.var.get(), f, iv.var->name));
      values.push_back(print(realize->iter_values[i]));
      kinds += iv.iter_type == IterType::kDataPar ? "S" : "R";
    }
    f.stmts.push_back(line(join(lhs) + " = " + tir("axis") + ".remap(\"" + kinds + "\", [" +
                           join(values) + "])"));
    remap.clear();
  };
  for (size_t i = 0; i < b.iter_vars.size(); ++i) {
    if (remappable(i)) {
      remap.push_back(i);
    } else {
      flush();
      single(i);
    }
  }
  flush();
  if (realize && !is_one(realize->predicate)) {
    f.stmts.push_back(line(tir("where") + "(" + print(realize->predicate) + ")"));
  }
  {
    std::vector<std::string> reads, writes;
    for (const auto& r : b.reads) reads.push_back(region(*r));
    f.stmts.push_back(line(tir("reads") + "(" + join(reads) + ")"));
    for (const auto& w : b.writes) writes.push_back(region(*w));
    f.stmts.push_back(line(tir("writes") + "(" + join(writes) + ")"));
  }
  if (!b.annotations.empty()) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (const auto& [k, v] : b.annotations) entries.emplace_back(k, attr_value(v));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::string dict = "{";
    for (size_t i = 0; i < entries.size(); ++i)
      dict += (i ? ", " : "") + quote_string(entries[i].first) + ": " + entries[i].second;
    f.stmts.push_back(line(tir(legacy() ? "block_attr" : "sblock_attr") + "(" + dict + "})"));
  }
  for (const auto& a : b.alloc_buffers) {
    std::string lhs = define_buffer(*a, f);
    std::string rhs = buffer_decl(*a, legacy() ? "alloc_buffer" : "sblock_alloc_buffer", {}, f,
                                  VarDefs::kDataPointer);
    f.stmts.push_back(line(lhs + " = " + rhs));
  }
  for (const auto& m : b.match_buffers) {
    std::string lhs = define_buffer(*m->buffer, f);
    std::string src = region(*m->source);
    std::string rhs = buffer_decl(*m->buffer, "match_buffer", {src}, f, VarDefs::kMatchBuffer);
    f.stmts.push_back(line(lhs + " = " + rhs));
  }
  if (b.init) {
    Frame& init = push_frame(b.init.get());
    body(b.init, init);
    std::vector<Doc> init_docs = std::move(init.stmts);
    pop_frame();
    f.stmts.push_back(scope("with " + tir("init") + "():", std::move(init_docs)));
  }
  body(b.body, f);
  std::string header = "with " + tir(block_word()) + "(" + quote_string(b.name_hint) +
                       (realize ? "" : ", no_realize=True") + "):";
  std::vector<Doc> out{scope(header, std::move(f.stmts))};
  pop_frame();
  return out;
}

}  // namespace tirprint

}  // namespace relax::syntax
