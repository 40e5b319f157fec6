// Relax: struct info (what is known statically about a value), expressions, bindings, blocks
// and functions. Expressions carry the struct info inference gave them (null before inference).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/data_type.h"
#include "ir/object.h"
#include "ir/tir.h"
#include "ir/value.h"

namespace relax::ir {

using tir::PrimExpr;

class Expr;
class VDevice;

// ---------------------------------------------------------------------------------------------
// Struct info

class StructInfo : public Object {
 public:
  static bool classof(const Object* o) {
    return o->kind() >= ObjectKind::kFirstStructInfo && o->kind() <= ObjectKind::kLastStructInfo;
  }

 protected:
  explicit StructInfo(ObjectKind kind) : Object(kind) {}
};

// Any value: `R.Object` (`R.Any` in current TVM).
class ObjectStructInfo : public StructInfo {
 public:
  ObjectStructInfo() : StructInfo(ObjectKind::kObjectStructInfo) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kObjectStructInfo; }
};

// A scalar passed by value: `R.Prim("int64")`, optionally with a known value `R.Prim(value=n)`.
class PrimStructInfo : public StructInfo {
 public:
  explicit PrimStructInfo(DataType t, Ref<PrimExpr> v = nullptr)
      : StructInfo(ObjectKind::kPrimStructInfo), dtype(t), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kPrimStructInfo; }
  DataType dtype;
  Ref<PrimExpr> value;  // optional
};

constexpr int kUnknownNDim = -1;

// A shape value: `R.Shape([1, n])` (values known) or `R.Shape(ndim=2)` / `R.Shape`.
class ShapeStructInfo : public StructInfo {
 public:
  explicit ShapeStructInfo(int n = kUnknownNDim)
      : StructInfo(ObjectKind::kShapeStructInfo), ndim(n) {}
  explicit ShapeStructInfo(std::vector<Ref<PrimExpr>> v)
      : StructInfo(ObjectKind::kShapeStructInfo),
        values(std::move(v)),
        ndim(static_cast<int>(values->size())) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kShapeStructInfo; }
  std::optional<std::vector<Ref<PrimExpr>>> values;
  int ndim;
};

// A tensor: `R.Tensor((n, 4), dtype="float32")`. `shape` is a ShapeExpr or a Var of shape
// struct info, or null when only the rank (or nothing) is known. An unknown dtype is Void.
class TensorStructInfo : public StructInfo {
 public:
  TensorStructInfo(Ref<Expr> s, DataType t, int n, Ref<VDevice> vd = nullptr)
      : StructInfo(ObjectKind::kTensorStructInfo),
        shape(std::move(s)),
        dtype(t),
        ndim(n),
        vdevice(std::move(vd)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTensorStructInfo; }
  Ref<Expr> shape;
  DataType dtype;
  int ndim;
  Ref<VDevice> vdevice;

  bool is_unknown_dtype() const { return dtype.is_void(); }
  bool is_unknown_ndim() const { return ndim == kUnknownNDim; }
  // The dims when the shape is a ShapeExpr (or a Var whose struct info lists them).
  const std::vector<Ref<PrimExpr>>* shape_values() const;
};

// `R.Tuple(A, B)`; the empty tuple is the void type.
class TupleStructInfo : public StructInfo {
 public:
  explicit TupleStructInfo(std::vector<Ref<StructInfo>> f = {})
      : StructInfo(ObjectKind::kTupleStructInfo), fields(std::move(f)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTupleStructInfo; }
  std::vector<Ref<StructInfo>> fields;
};

// `R.Callable((A, B), RET, purity)`. No params means an opaque function of any arity, whose
// result is `ret` or is computed by the named `derive_func`.
class FuncStructInfo : public StructInfo {
 public:
  FuncStructInfo() : StructInfo(ObjectKind::kFuncStructInfo) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kFuncStructInfo; }
  std::optional<std::vector<Ref<StructInfo>>> params;
  Ref<StructInfo> ret;
  bool purity = true;
  std::string derive_func;  // empty: none

  bool is_opaque() const { return !params.has_value(); }
};

// `e.struct_info` written where the front end cannot know it (TVM's parser infers each binding
// as it goes; ours leaves inference to normalize): the struct info inference gives `expr`, a
// variable bound earlier or an expression over such variables. Normalize replaces it with that
// struct info wherever it occurs, so an inferred module never holds one.
class StructInfoOf : public StructInfo {
 public:
  explicit StructInfoOf(Ref<Expr> e) : StructInfo(ObjectKind::kStructInfoOf), expr(std::move(e)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kStructInfoOf; }
  Ref<Expr> expr;
};

// ---------------------------------------------------------------------------------------------
// Module-level objects that expressions and struct info refer to

// A compilation target given by its configuration dictionary (`{"kind": "llvm", ...}`).
class Target : public Object {
 public:
  explicit Target(Ref<MapValue> c) : Object(ObjectKind::kTarget), config(std::move(c)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTarget; }
  Ref<MapValue> config;
  std::string kind_name() const;  // "llvm", "cuda", ... ("" when absent)
};

// A virtual device: `I.vdevice(target, vdevice_id, memory_scope)`.
class VDevice : public Object {
 public:
  VDevice(Ref<Target> t, int id, std::string scope)
      : Object(ObjectKind::kVDevice),
        target(std::move(t)),
        vdevice_id(id),
        memory_scope(std::move(scope)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kVDevice; }
  Ref<Target> target;
  int vdevice_id;
  std::string memory_scope;
};

// `I.dummy_global_info()`.
class DummyGlobalInfo : public Object {
 public:
  DummyGlobalInfo() : Object(ObjectKind::kDummyGlobalInfo) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kDummyGlobalInfo; }
};

// A value the toolkit keeps but does not interpret: a call such as `T.target(...)` or an
// unknown constructor, kept as its callee name and arguments so that it prints back unchanged.
class OpaqueCall : public Object {
 public:
  OpaqueCall(std::string c, std::vector<ObjectRef> a, Attrs kw = {})
      : Object(ObjectKind::kOpaqueCall),
        callee(std::move(c)),
        args(std::move(a)),
        kwargs(std::move(kw)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kOpaqueCall; }
  std::string callee;  // as written: "T.target", "I.vdevice", ...
  std::vector<ObjectRef> args;
  Attrs kwargs;
};

// ---------------------------------------------------------------------------------------------
// Expressions

class Expr : public Object {
 public:
  static bool classof(const Object* o) {
    return o->kind() >= ObjectKind::kFirstRelaxExpr && o->kind() <= ObjectKind::kLastRelaxExpr;
  }
  // Inferred (or, for variables, declared) struct info; null until inference has run.
  Ref<StructInfo> struct_info;

 protected:
  explicit Expr(ObjectKind kind) : Object(kind) {}
};

// A variable bound by a parameter or a binding. Identity is the node; `name` is a hint.
class Var : public Expr {
 public:
  explicit Var(std::string n, Ref<StructInfo> sinfo = nullptr)
      : Expr(ObjectKind::kVar), name(std::move(n)) {
    struct_info = std::move(sinfo);
  }
  static bool classof(const Object* o) {
    return o->kind() == ObjectKind::kVar || o->kind() == ObjectKind::kDataflowVar;
  }
  bool is_dataflow() const { return kind() == ObjectKind::kDataflowVar; }
  std::string name;

 protected:
  Var(ObjectKind kind, std::string n) : Expr(kind), name(std::move(n)) {}
};

// A variable local to a dataflow block (not listed in its `R.output`).
class DataflowVar : public Var {
 public:
  explicit DataflowVar(std::string n, Ref<StructInfo> sinfo = nullptr)
      : Var(ObjectKind::kDataflowVar, std::move(n)) {
    struct_info = std::move(sinfo);
  }
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kDataflowVar; }
};

// The name of a module member (`cls.f`).
class GlobalVar : public Expr {
 public:
  explicit GlobalVar(std::string n) : Expr(ObjectKind::kGlobalVar), name(std::move(n)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kGlobalVar; }
  std::string name;
};

// The bytes of a constant tensor, row-major.
struct TensorData {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  int64_t num_elements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  bool operator==(const TensorData&) const = default;
};

// A constant tensor. `data` is null for an opaque metadata reference whose payload is absent
// (`metadata["relax.expr.Constant"][0]` without the metadata section); its struct info then
// comes from the annotation.
class Constant : public Expr {
 public:
  explicit Constant(std::shared_ptr<const TensorData> d)
      : Expr(ObjectKind::kConstant), data(std::move(d)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kConstant; }
  std::shared_ptr<const TensorData> data;
  // For opaque metadata references: the index written in the source, kept for printing.
  int metadata_index = -1;
  bool is_scalar() const { return data && data->shape.empty(); }
};

class Tuple : public Expr {
 public:
  explicit Tuple(std::vector<Ref<Expr>> f = {}) : Expr(ObjectKind::kTuple), fields(std::move(f)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTuple; }
  std::vector<Ref<Expr>> fields;
};

class TupleGetItem : public Expr {
 public:
  TupleGetItem(Ref<Expr> t, int i)
      : Expr(ObjectKind::kTupleGetItem), tuple(std::move(t)), index(i) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTupleGetItem; }
  Ref<Expr> tuple;
  int index;
};

// A primitive operator, named as TVM names it ("relax.add", "relax.nn.conv2d",
// "relax.call_tir"). Ops are interned: one node per name.
class Op : public Expr {
 public:
  static Ref<Op> get(const std::string& name);
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kOp; }
  std::string name;
  // The name as written after `R.`: "add", "nn.conv2d".
  std::string short_name() const;

  explicit Op(std::string n) : Expr(ObjectKind::kOp), name(std::move(n)) {}
};

// A call: of an op (`R.add(x, y)`), a module function (`cls.f(x)`), a local function or
// closure, or an extern function. Op attributes are keyword arguments kept in `attrs`, in the
// op's declaration order once inference has normalized the call. `sinfo_args` are the
// struct-info arguments (`out_sinfo=` of call_tir, `sinfo_args=` of call_packed).
class Call : public Expr {
 public:
  Call(Ref<Expr> o, std::vector<Ref<Expr>> a, Attrs at = {}, std::vector<Ref<StructInfo>> s = {})
      : Expr(ObjectKind::kCall),
        op(std::move(o)),
        args(std::move(a)),
        attrs(std::move(at)),
        sinfo_args(std::move(s)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kCall; }
  Ref<Expr> op;
  std::vector<Ref<Expr>> args;
  Attrs attrs;
  std::vector<Ref<StructInfo>> sinfo_args;

  // The op's name when the callee is an Op, else "".
  const std::string& op_name() const;
};

class SeqExpr;

// `if cond: ... else: ...`; each branch is a SeqExpr whose body is the branch's result.
class If : public Expr {
 public:
  If(Ref<Expr> c, Ref<SeqExpr> t, Ref<SeqExpr> f)
      : Expr(ObjectKind::kIf),
        condition(std::move(c)),
        true_branch(std::move(t)),
        false_branch(std::move(f)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIf; }
  Ref<Expr> condition;
  Ref<SeqExpr> true_branch;
  Ref<SeqExpr> false_branch;
};

class Binding : public Object {
 public:
  static bool classof(const Object* o) {
    return o->kind() >= ObjectKind::kFirstBinding && o->kind() <= ObjectKind::kLastBinding;
  }
  Ref<Var> var;
  Ref<Expr> value;

 protected:
  Binding(ObjectKind kind, Ref<Var> v, Ref<Expr> val)
      : Object(kind), var(std::move(v)), value(std::move(val)) {}
};

// `var = value` (the var's struct info is the annotation or the inferred one).
class VarBinding : public Binding {
 public:
  VarBinding(Ref<Var> v, Ref<Expr> val)
      : Binding(ObjectKind::kVarBinding, std::move(v), std::move(val)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kVarBinding; }
};

// `var = R.match_cast(value, struct_info)`: a checked cast that may define symbolic vars.
class MatchCast : public Binding {
 public:
  MatchCast(Ref<Var> v, Ref<Expr> val, Ref<StructInfo> s)
      : Binding(ObjectKind::kMatchCast, std::move(v), std::move(val)), struct_info(std::move(s)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kMatchCast; }
  Ref<StructInfo> struct_info;
};

// A sequence of bindings; a dataflow block (`with R.dataflow():`) when `is_dataflow`.
class BindingBlock : public Object {
 public:
  BindingBlock(std::vector<Ref<Binding>> b, bool dataflow)
      : Object(ObjectKind::kBindingBlock), bindings(std::move(b)), is_dataflow(dataflow) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBindingBlock; }
  std::vector<Ref<Binding>> bindings;
  bool is_dataflow;
};

// Blocks of bindings followed by a result: a function body or an `if` branch.
class SeqExpr : public Expr {
 public:
  SeqExpr(std::vector<Ref<BindingBlock>> b, Ref<Expr> r)
      : Expr(ObjectKind::kSeqExpr), blocks(std::move(b)), body(std::move(r)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kSeqExpr; }
  std::vector<Ref<BindingBlock>> blocks;
  Ref<Expr> body;
};

// A Relax function: a module member or a local closure. A module function is public when its
// attrs hold "global_symbol" (as TVM's parser sets it), private otherwise.
class Function : public Expr {
 public:
  Function() : Expr(ObjectKind::kFunction) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kFunction; }
  std::vector<Ref<Var>> params;
  Ref<SeqExpr> body;
  Ref<StructInfo> ret_struct_info;  // null when neither annotated nor inferred
  bool is_pure = true;
  Attrs attrs;
};

// An external symbol (`R.ExternFunc("name")`), callable through the packed calling convention.
class ExternFunc : public Expr {
 public:
  explicit ExternFunc(std::string s) : Expr(ObjectKind::kExternFunc), global_symbol(std::move(s)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kExternFunc; }
  std::string global_symbol;
};

// A shape value built from dims: `R.shape([n, 4])`.
class ShapeExpr : public Expr {
 public:
  explicit ShapeExpr(std::vector<Ref<PrimExpr>> v)
      : Expr(ObjectKind::kShapeExpr), values(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kShapeExpr; }
  std::vector<Ref<PrimExpr>> values;
};

// A scalar value: `R.prim_value(n + 1)`.
class PrimValue : public Expr {
 public:
  explicit PrimValue(Ref<PrimExpr> v) : Expr(ObjectKind::kPrimValue), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kPrimValue; }
  Ref<PrimExpr> value;
};

// `R.str("text")`.
class StringImm : public Expr {
 public:
  explicit StringImm(std::string v) : Expr(ObjectKind::kStringImm), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kStringImm; }
  std::string value;
};

// `R.dtype("float32")`.
class DataTypeImm : public Expr {
 public:
  explicit DataTypeImm(DataType t) : Expr(ObjectKind::kDataTypeImm), value(t) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kDataTypeImm; }
  DataType value;
};

// ---------------------------------------------------------------------------------------------
// Helpers

// Struct info of a tensor with known dims.
Ref<TensorStructInfo> tensor_sinfo(std::vector<Ref<PrimExpr>> shape, DataType dtype,
                                   Ref<VDevice> vdevice = nullptr);
// Struct info of a tensor with known rank (or kUnknownNDim) and no dims.
Ref<TensorStructInfo> tensor_sinfo(int ndim, DataType dtype, Ref<VDevice> vdevice = nullptr);
Ref<TupleStructInfo> void_sinfo();
// True for the empty tuple struct info.
bool is_void_sinfo(const Ref<StructInfo>& s);

}  // namespace relax::ir
