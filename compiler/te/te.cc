// The tensor-expression builder (see te.h).
#include "compiler/te/te.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "analysis/arith/expr_equal.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::te {

using namespace ir::tir;  // NOLINT
using ir::make;
using ir::ObjectKind;

Expr Tensor::operator()(const Exprs& indices) const {
  return make<BufferLoad>(buffer->dtype, buffer, indices);
}

Expr const_of(DataType dtype, double value) {
  if (dtype.is_bool()) return bool_imm(value != 0);
  if (dtype.is_floating()) return float_imm(dtype, value);
  return int_imm(dtype, static_cast<int64_t>(value));
}

Expr i64(int64_t v) {
  return int64(v);
}

Expr add(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kAdd, a, b);
}
Expr sub(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kSub, a, b);
}
Expr mul(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kMul, a, b);
}
Expr div(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kDiv, a, b);
}
Expr floordiv(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kFloorDiv, a, b);
}
Expr floormod(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kFloorMod, a, b);
}
Expr min(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kMin, a, b);
}
Expr max(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kMax, a, b);
}
Expr cmp(ObjectKind kind, const Expr& a, const Expr& b) {
  return binary(kind, a, b);
}
Expr logical_and(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kAnd, a, b);
}
Expr logical_or(const Expr& a, const Expr& b) {
  return binary(ObjectKind::kOr, a, b);
}
Expr logical_not(const Expr& a) {
  return make<Not>(a);
}
Expr select(const Expr& c, const Expr& t, const Expr& f) {
  return make<Select>(c, t, f);
}
Expr if_then_else(const Expr& c, const Expr& t, const Expr& f) {
  return make<Call>(t->dtype, "tir.if_then_else", Exprs{c, t, f});
}
Expr cast(DataType dtype, const Expr& v) {
  if (v->dtype == dtype) return v;
  return make<Cast>(dtype, v);
}
Expr call(const std::string& op, DataType dtype, Exprs args) {
  return make<Call>(dtype, op, std::move(args));
}
Expr call1(const std::string& op, const Expr& x) {
  return make<Call>(x->dtype, op, Exprs{x});
}

Expr reduce_identity(ReduceKind kind, DataType dtype) {
  switch (kind) {
    case ReduceKind::kSum:
      return const_of(dtype, 0);
    case ReduceKind::kProd:
      return const_of(dtype, 1);
    case ReduceKind::kMax:
    case ReduceKind::kMin: {
      bool lowest = kind == ReduceKind::kMax;
      if (dtype.is_bool()) return bool_imm(!lowest);
      if (dtype.is_floating()) {
        double m = dtype.bits() == 64   ? std::numeric_limits<double>::max()
                   : dtype.bits() == 16 ? 65504.0
                                        : static_cast<double>(std::numeric_limits<float>::max());
        return float_imm(dtype, lowest ? -m : m);
      }
      if (dtype.is_uint()) {
        uint64_t hi = dtype.bits() >= 64 ? std::numeric_limits<uint64_t>::max()
                                         : ((uint64_t{1} << dtype.bits()) - 1);
        return int_imm(dtype, lowest ? 0 : static_cast<int64_t>(hi));
      }
      int64_t hi = dtype.bits() >= 64 ? std::numeric_limits<int64_t>::max()
                                      : ((int64_t{1} << (dtype.bits() - 1)) - 1);
      return int_imm(dtype, lowest ? -hi - 1 : hi);
    }
  }
  return nullptr;
}

Expr reduce_combine(ReduceKind kind, const Expr& acc, const Expr& value) {
  switch (kind) {
    case ReduceKind::kSum:
      return add(acc, value);
    case ReduceKind::kProd:
      return mul(acc, value);
    case ReduceKind::kMax:
      return max(acc, value);
    case ReduceKind::kMin:
      return min(acc, value);
  }
  return nullptr;
}

Ref<Buffer> make_buffer(const Exprs& shape, DataType dtype, const std::string& name) {
  auto buffer = make<Buffer>();
  buffer->dtype = dtype;
  buffer->shape = shape;
  buffer->name = name;
  auto data = make<Var>(name, DataType::Handle());
  data->pointer = PointerType{dtype.is_bool() ? DataType::Int(8) : dtype, ""};
  buffer->data = data;
  return buffer;
}

Tensor Builder::placeholder(const Exprs& shape, DataType dtype, const std::string& name) {
  return Tensor{make_buffer(shape, dtype, name)};
}

namespace {

std::vector<std::string> default_names(size_t n, const std::string& prefix,
                                       std::vector<std::string> given) {
  if (given.size() == n) return given;
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

void add_axes(Stage& stage, const Exprs& extents, const std::vector<std::string>& names,
              IterType type, Exprs& block_vars) {
  for (size_t i = 0; i < extents.size(); ++i) {
    auto loop = make<Var>(names[i], DataType::Int64());
    auto v = make<Var>("v_" + names[i], DataType::Int64());
    stage.loop_vars.push_back(loop);
    stage.iter_vars.push_back(make<IterVar>(make<Range>(int64(0), extents[i]), v, type));
    block_vars.push_back(v);
  }
}

// Buffer accesses of an expression in first-use order, with each access's indices.
class AccessCollector : public Visitor {
 public:
  std::vector<std::pair<Ref<Buffer>, std::vector<Exprs>>> accesses;
  void visit_buffer_load(const Ref<BufferLoad>& load) override {
    Visitor::visit_buffer_load(load);
    for (auto& [b, list] : accesses) {
      if (b == load->buffer) {
        list.push_back(load->indices);
        return;
      }
    }
    accesses.push_back({load->buffer, {load->indices}});
  }
};

// The region a list of accesses covers: the point when every access uses the same indices,
// else the whole buffer.
Ref<BufferRegion> region_of(const Ref<Buffer>& buffer, const std::vector<Exprs>& uses) {
  bool same = true;
  for (const auto& u : uses) {
    // An access of the wrong rank (a legalization bug, which the TIR verifier then reports)
    // reads the whole buffer here.
    if (u.size() != buffer->shape.size()) same = false;
    for (size_t d = 0; d < u.size() && same; ++d)
      if (!analysis::arith::expr_equal(u[d], uses[0][d])) same = false;
  }
  std::vector<Ref<Range>> region;
  for (size_t d = 0; d < buffer->shape.size(); ++d) {
    if (same)
      region.push_back(make<Range>(uses[0][d], int64(1)));
    else
      region.push_back(make<Range>(int64(0), buffer->shape[d]));
  }
  return make<BufferRegion>(buffer, std::move(region));
}

Ref<BufferRegion> full_region(const Ref<Buffer>& buffer) {
  std::vector<Ref<Range>> region;
  for (const auto& d : buffer->shape) region.push_back(make<Range>(int64(0), d));
  return make<BufferRegion>(buffer, std::move(region));
}

Ref<Stmt> opaque_stmt(const Stage& stage) {
  auto block = make<Block>();
  block->name_hint = stage.out->name;
  for (const auto& b : stage.opaque_reads) block->reads.push_back(full_region(b));
  block->writes.push_back(full_region(stage.out));
  block->body = stage.opaque_body;
  auto realize = make<BlockRealize>();
  realize->block = block;
  realize->predicate = bool_imm(true);
  return realize;
}

Ref<Stmt> stage_stmt(const Stage& stage) {
  if (stage.opaque_body) return opaque_stmt(stage);
  auto block = make<Block>();
  block->name_hint = stage.out->name;
  block->iter_vars = stage.iter_vars;
  Exprs out_idx;
  for (const auto& iv : stage.iter_vars)
    if (iv->iter_type == IterType::kDataPar) out_idx.push_back(iv->var);
  AccessCollector collector;
  collector.visit_expr(stage.value);
  for (const auto& [buffer, uses] : collector.accesses) {
    if (buffer == stage.out) continue;
    block->reads.push_back(region_of(buffer, uses));
  }
  block->writes.push_back(region_of(stage.out, {out_idx}));
  if (stage.is_reduce) {
    block->init = make<BufferStore>(stage.out, stage.init, out_idx);
    Expr acc = make<BufferLoad>(stage.out->dtype, stage.out, out_idx);
    block->body =
        make<BufferStore>(stage.out, reduce_combine(stage.reduce_kind, acc, stage.value), out_idx);
  } else {
    block->body = make<BufferStore>(stage.out, stage.value, out_idx);
  }
  auto realize = make<BlockRealize>();
  realize->block = block;
  realize->predicate = bool_imm(true);
  for (const auto& v : stage.loop_vars) realize->iter_values.push_back(v);
  Ref<Stmt> body = realize;
  for (size_t i = stage.loop_vars.size(); i-- > 0;) {
    auto loop = make<For>();
    loop->loop_var = stage.loop_vars[i];
    loop->min = int64(0);
    loop->extent = stage.iter_vars[i]->dom->extent;
    loop->body = body;
    body = loop;
  }
  return body;
}

}  // namespace

Tensor Builder::compute(const Exprs& shape, DataType dtype, const std::string& name,
                        const std::function<Expr(const Exprs&)>& fn, const std::string& axis_prefix,
                        std::vector<std::string> axis_names) {
  Stage stage;
  stage.out = make_buffer(shape, dtype, name);
  Exprs vars;
  add_axes(stage, shape, default_names(shape.size(), axis_prefix, std::move(axis_names)),
           IterType::kDataPar, vars);
  stage.value = cast(dtype, fn(vars));
  stages_.push_back(stage);
  return Tensor{stage.out};
}

Tensor Builder::reduce(const Exprs& shape, const Exprs& reduce_extents, ReduceKind kind,
                       DataType dtype, const std::string& name,
                       const std::function<Expr(const Exprs&, const Exprs&)>& fn,
                       std::vector<std::string> axis_names, std::vector<std::string> reduce_names,
                       Expr init) {
  Stage stage;
  stage.out = make_buffer(shape, dtype, name);
  Exprs sp, rd;
  add_axes(stage, shape, default_names(shape.size(), "ax", std::move(axis_names)),
           IterType::kDataPar, sp);
  add_axes(stage, reduce_extents,
           default_names(reduce_extents.size(), "k", std::move(reduce_names)),
           IterType::kCommReduce, rd);
  stage.is_reduce = true;
  stage.reduce_kind = kind;
  stage.value = cast(dtype, fn(sp, rd));
  stage.init = init ? init : reduce_identity(kind, dtype);
  stages_.push_back(stage);
  return Tensor{stage.out};
}

Tensor Builder::opaque(const Exprs& shape, DataType dtype, const std::string& name,
                       const std::vector<Tensor>& reads,
                       const std::function<Ref<Stmt>(const Tensor&)>& body) {
  Stage stage;
  stage.out = make_buffer(shape, dtype, name);
  for (const auto& r : reads) stage.opaque_reads.push_back(r.buffer);
  stage.opaque_body = body(Tensor{stage.out});
  stages_.push_back(stage);
  return Tensor{stage.out};
}

Ref<Stmt> loop_nest(const Exprs& extents, const std::function<Ref<Stmt>(const Exprs&)>& fn,
                    const std::string& prefix) {
  auto names = default_names(extents.size(), prefix, {});
  Exprs vars;
  std::vector<Ref<Var>> loop_vars;
  for (size_t i = 0; i < extents.size(); ++i) {
    auto v = make<Var>(names[i], DataType::Int64());
    loop_vars.push_back(v);
    vars.push_back(v);
  }
  Ref<Stmt> body = fn(vars);
  for (size_t i = extents.size(); i-- > 0;) {
    auto loop = make<For>();
    loop->loop_var = loop_vars[i];
    loop->min = int64(0);
    loop->extent = extents[i];
    loop->body = body;
    body = loop;
  }
  return body;
}

Ref<Stmt> store(const Tensor& t, const Exprs& indices, const Expr& value) {
  return make<BufferStore>(t.buffer, cast(t.dtype(), value), indices);
}

Ref<Stmt> seq(std::vector<Ref<Stmt>> stmts) {
  if (stmts.size() == 1) return stmts[0];
  return make<SeqStmt>(std::move(stmts));
}

Ref<PrimFunc> Builder::build(const std::vector<Param>& params) const {
  auto func = make<PrimFunc>();
  std::vector<const Buffer*> param_buffers;
  for (const auto& p : params) {
    if (p.scalar) {
      func->params.push_back(p.scalar);
      continue;
    }
    const auto& b = p.tensor.buffer;
    bool is_static = true;
    for (const auto& d : b->shape)
      if (!d.is<IntImm>()) is_static = false;
    auto handle = make<Var>(is_static ? b->name + "_handle" : "var_" + b->name, DataType::Handle());
    func->params.push_back(handle);
    func->buffer_map.emplace_back(handle, b);
    param_buffers.push_back(b.get());
  }
  auto root = make<Block>();
  root->name_hint = "root";
  std::vector<Ref<Stmt>> seq;
  for (const auto& stage : stages_) {
    bool is_param = false;
    for (auto* pb : param_buffers)
      if (pb == stage.out.get()) is_param = true;
    if (!is_param) root->alloc_buffers.push_back(stage.out);
    seq.push_back(stage_stmt(stage));
  }
  if (seq.empty()) throw std::logic_error("te::Builder::build: no stages");
  root->body = seq.size() == 1 ? seq[0] : Ref<Stmt>(make<SeqStmt>(seq));
  auto realize = make<BlockRealize>();
  realize->block = root;
  realize->predicate = bool_imm(true);
  func->body = realize;
  func->attrs.set("tir.noalias", bool_imm(true));
  return func;
}

}  // namespace relax::compiler::te
