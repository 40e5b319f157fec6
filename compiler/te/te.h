// A small tensor-expression builder: placeholders, elementwise computes given by index lambdas
// and reductions with an init value (sum, prod, max, min), assembled into a block-level TIR
// PrimFunc shaped like TVM's legalization output (te.create_prim_func): a root block holding the
// intermediate buffers, then per stage a loop nest `for ax0, ax1 in T.grid(...)` around one block
// whose iteration variables are bound by T.axis.remap (spatial, then reduce), with T.reads /
// T.writes and an init statement for reductions. Indices and extents are int64; symbolic dims
// are int64 tir::Vars and become match_buffer parameters when printed.
// It does not schedule, simplify or lower anything.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/data_type.h"
#include "ir/tir.h"

namespace relax::compiler::te {

using ir::DataType;
using ir::Ref;
using PrimExpr = ir::tir::PrimExpr;
using Expr = Ref<ir::tir::PrimExpr>;
using Exprs = std::vector<Expr>;

// A tensor of the builder: the buffer it lives in (a parameter or an intermediate).
struct Tensor {
  Ref<ir::tir::Buffer> buffer;

  const std::vector<Expr>& shape() const { return buffer->shape; }
  DataType dtype() const { return buffer->dtype; }
  size_t ndim() const { return buffer->shape.size(); }
  const std::string& name() const { return buffer->name; }
  // A load of the tensor at `indices` (one per dim).
  Expr operator()(const Exprs& indices) const;
};

enum class ReduceKind { kSum, kProd, kMax, kMin };

// The identity of a reduction for `dtype` (0, 1, the lowest or the highest value).
Expr reduce_identity(ReduceKind kind, DataType dtype);
// combine(acc, value) of a reduction.
Expr reduce_combine(ReduceKind kind, const Expr& acc, const Expr& value);

// Expression helpers (typed as TVM's operators type them; constants take the other side's dtype).
Expr const_of(DataType dtype, double value);
Expr i64(int64_t v);
Expr add(const Expr& a, const Expr& b);
Expr sub(const Expr& a, const Expr& b);
Expr mul(const Expr& a, const Expr& b);
Expr div(const Expr& a, const Expr& b);  // true division (Div)
Expr floordiv(const Expr& a, const Expr& b);
Expr floormod(const Expr& a, const Expr& b);
Expr min(const Expr& a, const Expr& b);
Expr max(const Expr& a, const Expr& b);
Expr cmp(ir::ObjectKind kind, const Expr& a, const Expr& b);  // kEQ..kGE
Expr logical_and(const Expr& a, const Expr& b);
Expr logical_or(const Expr& a, const Expr& b);
Expr logical_not(const Expr& a);
Expr select(const Expr& c, const Expr& t, const Expr& f);
Expr if_then_else(const Expr& c, const Expr& t, const Expr& f);  // T.if_then_else (lazy)
Expr cast(DataType dtype, const Expr& v);                        // no-op when same dtype
Expr call(const std::string& op, DataType dtype, Exprs args);    // "tir.exp", ...
Expr call1(const std::string& op, const Expr& x);                // unary intrinsic, x's dtype

// One stage: a compute or a reduction writing `out`.
struct Stage {
  Ref<ir::tir::Buffer> out;
  std::vector<Ref<ir::tir::IterVar>> iter_vars;  // spatial, then reduce
  std::vector<Ref<ir::tir::Var>> loop_vars;
  Expr value;  // compute: the value; reduce: the operand
  bool is_reduce = false;
  ReduceKind reduce_kind = ReduceKind::kSum;
  Expr init;  // reduction identity (or a given init)
  // A hand-written (opaque) stage: this statement, in a block without iteration variables that
  // reads `opaque_reads` and writes all of `out`; `value` is then unused.
  Ref<ir::tir::Stmt> opaque_body;
  std::vector<Ref<ir::tir::Buffer>> opaque_reads;
};

// Statement helpers for hand-written stages.
// A serial loop nest over `extents` (int64 loop variables named `prefix` + 0, 1, ...) around
// the statement fn(vars) builds.
Ref<ir::tir::Stmt> loop_nest(const Exprs& extents,
                             const std::function<Ref<ir::tir::Stmt>(const Exprs&)>& fn,
                             const std::string& prefix = "i");
Ref<ir::tir::Stmt> store(const Tensor& t, const Exprs& indices, const Expr& value);
Ref<ir::tir::Stmt> seq(std::vector<Ref<ir::tir::Stmt>> stmts);

class Builder {
 public:
  // An input (or output-to-be) buffer. Names of parameters follow TVM (A, B, ..., T_add).
  Tensor placeholder(const Exprs& shape, DataType dtype, const std::string& name);

  // out[i...] = fn(i...). `axis_names` names the loop variables (the block variables get a `v_`
  // prefix); empty: "i0", "i1", ... (or `axis_prefix` + index).
  Tensor compute(const Exprs& shape, DataType dtype, const std::string& name,
                 const std::function<Expr(const Exprs&)>& fn, const std::string& axis_prefix = "i",
                 std::vector<std::string> axis_names = {});

  // out[i...] = reduce over r... of fn(i..., r...), starting from init (the identity when null).
  Tensor reduce(const Exprs& shape, const Exprs& reduce_extents, ReduceKind kind, DataType dtype,
                const std::string& name, const std::function<Expr(const Exprs&, const Exprs&)>& fn,
                std::vector<std::string> axis_names = {},
                std::vector<std::string> reduce_names = {}, Expr init = nullptr);

  // A hand-written stage writing a new tensor `name`: the statement body(out) (loops, stores; it
  // may read `out` and must write all of it), in one block without iteration variables. Its
  // loops are sequential: the default schedule neither parallelizes nor vectorizes them.
  Tensor opaque(const Exprs& shape, DataType dtype, const std::string& name,
                const std::vector<Tensor>& reads,
                const std::function<Ref<ir::tir::Stmt>(const Tensor&)>& body);

  // The PrimFunc taking `params` in order: tensors (inputs then outputs, by buffer) and scalar
  // vars. Stages whose tensors are not parameters become root alloc_buffers.
  struct Param {
    Tensor tensor;                                        // when a tensor
    Ref<ir::tir::Var> scalar;                             // when a scalar
    Param(Tensor t) : tensor(std::move(t)) {}             // NOLINT
    Param(Ref<ir::tir::Var> v) : scalar(std::move(v)) {}  // NOLINT
  };
  Ref<ir::tir::PrimFunc> build(const std::vector<Param>& params) const;

  const std::vector<Stage>& stages() const { return stages_; }

 private:
  std::vector<Stage> stages_;
};

// A buffer of the builder's kind (compact, global, int64 shape), named `name`.
Ref<ir::tir::Buffer> make_buffer(const Exprs& shape, DataType dtype, const std::string& name);

}  // namespace relax::compiler::te
