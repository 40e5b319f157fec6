// TIR: the loop-level IR of prim_funcs and the index arithmetic of symbolic shapes.
// PrimExprs (typed scalar expressions), statements, buffers, blocks and PrimFunc.
// Relax shapes use the same PrimExprs (int64 symbolic variables and arithmetic on them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/data_type.h"
#include "ir/object.h"
#include "ir/value.h"

namespace relax::ir::tir {

// ---------------------------------------------------------------------------------------------
// Expressions

class PrimExpr : public Object {
 public:
  static bool classof(const Object* o) {
    return o->kind() >= ObjectKind::kFirstPrimExpr && o->kind() <= ObjectKind::kLastPrimExpr;
  }
  DataType dtype;

 protected:
  PrimExpr(ObjectKind kind, DataType t) : Object(kind), dtype(t) {}
};

// The pointee of a handle variable: `T.handle("float32", "shared")`.
struct PointerType {
  DataType element;
  std::string storage_scope;  // "" means "global"
  bool operator==(const PointerType&) const = default;
};

// A scalar variable: loop variables, symbolic shape variables, let-bound values, scalar
// parameters and the data pointers of buffers. Identity is the node; `name` is only a hint.
class Var : public PrimExpr {
 public:
  Var(std::string n, DataType t) : PrimExpr(ObjectKind::kTirVar, t), name(std::move(n)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTirVar; }
  std::string name;
  // Set on handle variables that point to typed memory.
  std::optional<PointerType> pointer;
  // A size variable (TVM's SizeVar): known to be non-negative. `T.int64(is_size_var=True)`.
  bool is_size_var = false;
};

class IntImm : public PrimExpr {
 public:
  IntImm(DataType t, int64_t v) : PrimExpr(ObjectKind::kIntImm, t), value(v) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIntImm; }
  int64_t value;
};

class FloatImm : public PrimExpr {
 public:
  FloatImm(DataType t, double v) : PrimExpr(ObjectKind::kFloatImm, t), value(v) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kFloatImm; }
  double value;
};

class StringImm : public PrimExpr {
 public:
  explicit StringImm(std::string v)
      : PrimExpr(ObjectKind::kTirStringImm, DataType::Handle()), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTirStringImm; }
  std::string value;
};

class Cast : public PrimExpr {
 public:
  Cast(DataType t, Ref<PrimExpr> v) : PrimExpr(ObjectKind::kCast, t), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kCast; }
  Ref<PrimExpr> value;
};

// Add, Sub, Mul, Div (true division; C truncation on integers), Mod (truncated), FloorDiv,
// FloorMod, Min, Max, the comparisons EQ..GE (bool result) and the logical And, Or. The kind
// tells which; `dtype` is the operands' type, or bool for comparisons and logic.
class BinaryOp : public PrimExpr {
 public:
  BinaryOp(ObjectKind kind, DataType t, Ref<PrimExpr> lhs, Ref<PrimExpr> rhs)
      : PrimExpr(kind, t), a(std::move(lhs)), b(std::move(rhs)) {}
  static bool classof(const Object* o) {
    return o->kind() >= ObjectKind::kFirstBinaryOp && o->kind() <= ObjectKind::kLastBinaryOp;
  }
  bool is_comparison() const { return kind() >= ObjectKind::kEQ && kind() <= ObjectKind::kGE; }
  Ref<PrimExpr> a;
  Ref<PrimExpr> b;
};

class Not : public PrimExpr {
 public:
  explicit Not(Ref<PrimExpr> v) : PrimExpr(ObjectKind::kNot, v->dtype), a(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kNot; }
  Ref<PrimExpr> a;
};

// Both sides are evaluated (unlike the lazy `T.if_then_else` call).
class Select : public PrimExpr {
 public:
  Select(Ref<PrimExpr> c, Ref<PrimExpr> t, Ref<PrimExpr> f)
      : PrimExpr(ObjectKind::kSelect, t->dtype),
        condition(std::move(c)),
        true_value(std::move(t)),
        false_value(std::move(f)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kSelect; }
  Ref<PrimExpr> condition;
  Ref<PrimExpr> true_value;
  Ref<PrimExpr> false_value;
};

class Buffer;

class BufferLoad : public PrimExpr {
 public:
  BufferLoad(DataType t, Ref<Buffer> buf, std::vector<Ref<PrimExpr>> idx)
      : PrimExpr(ObjectKind::kBufferLoad, t), buffer(std::move(buf)), indices(std::move(idx)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBufferLoad; }
  Ref<Buffer> buffer;
  std::vector<Ref<PrimExpr>> indices;
  Ref<PrimExpr> predicate;  // optional lane mask
};

// A vector of `lanes` values base, base + stride, ...
class Ramp : public PrimExpr {
 public:
  Ramp(DataType t, Ref<PrimExpr> b, Ref<PrimExpr> s, Ref<PrimExpr> n)
      : PrimExpr(ObjectKind::kRamp, t),
        base(std::move(b)),
        stride(std::move(s)),
        lanes(std::move(n)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kRamp; }
  Ref<PrimExpr> base;
  Ref<PrimExpr> stride;
  Ref<PrimExpr> lanes;  // an IntImm, or `k * T.vscale()` for scalable vectors
};

class Broadcast : public PrimExpr {
 public:
  Broadcast(DataType t, Ref<PrimExpr> v, Ref<PrimExpr> n)
      : PrimExpr(ObjectKind::kBroadcast, t), value(std::move(v)), lanes(std::move(n)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBroadcast; }
  Ref<PrimExpr> value;
  Ref<PrimExpr> lanes;
};

class Shuffle : public PrimExpr {
 public:
  Shuffle(DataType t, std::vector<Ref<PrimExpr>> v, std::vector<Ref<PrimExpr>> idx)
      : PrimExpr(ObjectKind::kShuffle, t), vectors(std::move(v)), indices(std::move(idx)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kShuffle; }
  std::vector<Ref<PrimExpr>> vectors;
  std::vector<Ref<PrimExpr>> indices;
};

// A let expression: `T.Let(body, where={var: value})`.
class Let : public PrimExpr {
 public:
  Let(Ref<Var> v, Ref<PrimExpr> val, Ref<PrimExpr> b)
      : PrimExpr(ObjectKind::kLet, b->dtype),
        var(std::move(v)),
        value(std::move(val)),
        body(std::move(b)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kLet; }
  Ref<Var> var;
  Ref<PrimExpr> value;
  Ref<PrimExpr> body;
};

// A call of a TIR intrinsic or builtin, named as TVM names its op: "tir.exp",
// "tir.if_then_else", "tir.call_extern", "tir.tvm_access_ptr", ...; or of another function of
// the module, "@name" (`Module.name(...)`). `dtype` is the result type.
class Call : public PrimExpr {
 public:
  Call(DataType t, std::string o, std::vector<Ref<PrimExpr>> a)
      : PrimExpr(ObjectKind::kTirCall, t), op(std::move(o)), args(std::move(a)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kTirCall; }
  std::string op;
  std::vector<Ref<PrimExpr>> args;
};

class IterVar;
class CommReducer;

// A reduction (`T.reduce`), produced by compute-style lowering; rare in printed TIR.
class Reduce : public PrimExpr {
 public:
  Reduce(DataType t) : PrimExpr(ObjectKind::kReduce, t) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kReduce; }
  Ref<CommReducer> combiner;
  std::vector<Ref<PrimExpr>> source;
  std::vector<Ref<IterVar>> axis;
  Ref<PrimExpr> condition;
  int value_index = 0;
  std::vector<Ref<PrimExpr>> init;
};

// ---------------------------------------------------------------------------------------------
// Helpers: ranges, iteration variables, buffers, regions, index maps, reducers

class Range : public Object {
 public:
  Range(Ref<PrimExpr> m, Ref<PrimExpr> e)
      : Object(ObjectKind::kRange), min(std::move(m)), extent(std::move(e)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kRange; }
  Ref<PrimExpr> min;
  Ref<PrimExpr> extent;
};

enum class IterType : uint8_t {
  kDataPar = 0,      // T.axis.spatial
  kThreadIndex = 1,  // a thread binding of a loop or an env thread
  kCommReduce = 2,   // T.axis.reduce
  kOrdered = 3,      // T.axis.scan
  kOpaque = 4,       // T.axis.opaque
  kUnrolled = 5,
  kVectorized = 6,
  kParallelized = 7,
  kTensorized = 8,
};

class IterVar : public Object {
 public:
  IterVar(Ref<Range> d, Ref<Var> v, IterType t, std::string tag = "")
      : Object(ObjectKind::kIterVar),
        dom(std::move(d)),
        var(std::move(v)),
        iter_type(t),
        thread_tag(std::move(tag)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIterVar; }
  Ref<Range> dom;  // may be null for env threads declared without extent
  Ref<Var> var;
  IterType iter_type;
  std::string thread_tag;
};

enum class BufferType : uint8_t { kDefault = 1, kAutoBroadcast = 2 };

// A multi-dimensional view of memory: a data pointer, an element type, a shape and layout.
class Buffer : public Object {
 public:
  Buffer() : Object(ObjectKind::kBuffer) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBuffer; }
  Ref<Var> data;  // a handle Var whose pointer type carries the storage scope
  DataType dtype = DataType::Float32();
  std::vector<Ref<PrimExpr>> shape;
  std::vector<Ref<PrimExpr>> strides;  // empty: compact row-major
  Ref<PrimExpr> elem_offset;           // null: zero (or free, for offset_factor > 0)
  std::string name;
  int data_alignment = 64;  // bytes; TVM's default allocation alignment
  int offset_factor = 1;
  BufferType buffer_type = BufferType::kDefault;
  std::vector<int64_t> axis_separators;

  std::string scope() const {
    if (data && data->pointer && !data->pointer->storage_scope.empty())
      return data->pointer->storage_scope;
    return "global";
  }
};

class BufferRegion : public Object {
 public:
  BufferRegion(Ref<Buffer> b, std::vector<Ref<Range>> r)
      : Object(ObjectKind::kBufferRegion), buffer(std::move(b)), region(std::move(r)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBufferRegion; }
  Ref<Buffer> buffer;
  std::vector<Ref<Range>> region;
};

// `sub = T.match_buffer(A[vi, 0:16], (16,))` inside a block.
class MatchBufferRegion : public Object {
 public:
  MatchBufferRegion(Ref<Buffer> b, Ref<BufferRegion> s)
      : Object(ObjectKind::kMatchBufferRegion), buffer(std::move(b)), source(std::move(s)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kMatchBufferRegion; }
  Ref<Buffer> buffer;
  Ref<BufferRegion> source;
};

// `T.index_map(lambda i, j: (i // 4, j, i % 4))`.
class IndexMap : public Object {
 public:
  IndexMap() : Object(ObjectKind::kIndexMap) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIndexMap; }
  std::vector<Ref<Var>> initial_indices;
  std::vector<Ref<PrimExpr>> final_indices;
  Ref<IndexMap> inverse;  // optional
};

// `T.comm_reducer(lambda x, y: x + y, [T.float32(0)])`.
class CommReducer : public Object {
 public:
  CommReducer() : Object(ObjectKind::kCommReducer) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kCommReducer; }
  std::vector<Ref<Var>> lhs;
  std::vector<Ref<Var>> rhs;
  std::vector<Ref<PrimExpr>> result;
  std::vector<Ref<PrimExpr>> identity_element;
};

// ---------------------------------------------------------------------------------------------
// Statements

class Stmt : public Object {
 public:
  static bool classof(const Object* o) {
    return o->kind() >= ObjectKind::kFirstStmt && o->kind() <= ObjectKind::kLastStmt;
  }

 protected:
  explicit Stmt(ObjectKind kind) : Object(kind) {}
};

class LetStmt : public Stmt {
 public:
  LetStmt(Ref<Var> v, Ref<PrimExpr> val, Ref<Stmt> b)
      : Stmt(ObjectKind::kLetStmt), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kLetStmt; }
  Ref<Var> var;
  Ref<PrimExpr> value;
  Ref<Stmt> body;
};

// `with T.attr(node, "key", value):` (also thread launches: key "thread_extent").
class AttrStmt : public Stmt {
 public:
  AttrStmt(ObjectRef n, std::string key, Ref<PrimExpr> v, Ref<Stmt> b)
      : Stmt(ObjectKind::kAttrStmt),
        node(std::move(n)),
        attr_key(std::move(key)),
        value(std::move(v)),
        body(std::move(b)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kAttrStmt; }
  ObjectRef node;  // an IterVar, a Var, a Buffer, a StringValue, ... or null
  std::string attr_key;
  Ref<PrimExpr> value;
  Ref<Stmt> body;
};

class AssertStmt : public Stmt {
 public:
  AssertStmt(Ref<PrimExpr> c, Ref<PrimExpr> m, Ref<Stmt> b)
      : Stmt(ObjectKind::kAssertStmt),
        condition(std::move(c)),
        message(std::move(m)),
        body(std::move(b)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kAssertStmt; }
  Ref<PrimExpr> condition;
  Ref<PrimExpr> message;
  Ref<Stmt> body;
};

class BufferStore : public Stmt {
 public:
  BufferStore(Ref<Buffer> buf, Ref<PrimExpr> v, std::vector<Ref<PrimExpr>> idx)
      : Stmt(ObjectKind::kBufferStore),
        buffer(std::move(buf)),
        value(std::move(v)),
        indices(std::move(idx)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBufferStore; }
  Ref<Buffer> buffer;
  Ref<PrimExpr> value;
  std::vector<Ref<PrimExpr>> indices;
  Ref<PrimExpr> predicate;  // optional lane mask
};

class BufferRealize : public Stmt {
 public:
  BufferRealize() : Stmt(ObjectKind::kBufferRealize) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBufferRealize; }
  Ref<Buffer> buffer;
  std::vector<Ref<Range>> bounds;
  Ref<PrimExpr> condition;
  Ref<Stmt> body;
};

// Legacy allocation: `buf = T.allocate([16], "float32", "global")`.
class Allocate : public Stmt {
 public:
  Allocate() : Stmt(ObjectKind::kAllocate) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kAllocate; }
  Ref<Var> buffer_var;
  DataType dtype;
  std::vector<Ref<PrimExpr>> extents;
  Ref<PrimExpr> condition;
  Ref<Stmt> body;
  Attrs annotations;
};

class DeclBuffer : public Stmt {
 public:
  DeclBuffer(Ref<Buffer> b, Ref<Stmt> s)
      : Stmt(ObjectKind::kDeclBuffer), buffer(std::move(b)), body(std::move(s)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kDeclBuffer; }
  Ref<Buffer> buffer;
  Ref<Stmt> body;
};

class SeqStmt : public Stmt {
 public:
  explicit SeqStmt(std::vector<Ref<Stmt>> s) : Stmt(ObjectKind::kSeqStmt), seq(std::move(s)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kSeqStmt; }
  std::vector<Ref<Stmt>> seq;
};

class IfThenElse : public Stmt {
 public:
  IfThenElse(Ref<PrimExpr> c, Ref<Stmt> t, Ref<Stmt> e)
      : Stmt(ObjectKind::kIfThenElse),
        condition(std::move(c)),
        then_case(std::move(t)),
        else_case(std::move(e)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kIfThenElse; }
  Ref<PrimExpr> condition;
  Ref<Stmt> then_case;
  Ref<Stmt> else_case;  // optional
};

class Evaluate : public Stmt {
 public:
  explicit Evaluate(Ref<PrimExpr> v) : Stmt(ObjectKind::kEvaluate), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kEvaluate; }
  Ref<PrimExpr> value;
};

enum class ForKind : uint8_t {
  kSerial = 0,
  kParallel = 1,
  kVectorized = 2,
  kUnrolled = 3,
  kThreadBinding = 4
};

class For : public Stmt {
 public:
  For() : Stmt(ObjectKind::kFor) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kFor; }
  Ref<Var> loop_var;
  Ref<PrimExpr> min;
  Ref<PrimExpr> extent;
  ForKind for_kind = ForKind::kSerial;
  Ref<Stmt> body;
  Ref<IterVar> thread_binding;  // for kThreadBinding: the IterVar with the thread tag
  Attrs annotations;
};

class While : public Stmt {
 public:
  While(Ref<PrimExpr> c, Ref<Stmt> b)
      : Stmt(ObjectKind::kWhile), condition(std::move(c)), body(std::move(b)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kWhile; }
  Ref<PrimExpr> condition;
  Ref<Stmt> body;
};

// `with T.block("name"):` — iteration domain, regions accessed, local buffers, optional init.
class Block : public Stmt {
 public:
  Block() : Stmt(ObjectKind::kBlock) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBlock; }
  std::vector<Ref<IterVar>> iter_vars;
  std::vector<Ref<BufferRegion>> reads;
  std::vector<Ref<BufferRegion>> writes;
  std::string name_hint;
  Ref<Stmt> body;
  Ref<Stmt> init;  // optional: `with T.init():`
  std::vector<Ref<Buffer>> alloc_buffers;
  std::vector<Ref<MatchBufferRegion>> match_buffers;
  Attrs annotations;
};

// A block together with the values bound to its iteration variables and its predicate.
class BlockRealize : public Stmt {
 public:
  BlockRealize() : Stmt(ObjectKind::kBlockRealize) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBlockRealize; }
  std::vector<Ref<PrimExpr>> iter_values;
  Ref<PrimExpr> predicate;  // T.bool(True) when absent
  Ref<Block> block;
};

// ---------------------------------------------------------------------------------------------
// Functions

// A TIR function: scalar and handle parameters, the buffers bound to handle parameters, a body.
class PrimFunc : public Object {
 public:
  PrimFunc() : Object(ObjectKind::kPrimFunc) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kPrimFunc; }
  std::vector<Ref<Var>> params;
  // Parameter var -> buffer, in parameter order (`A: T.Buffer(...)` or `T.match_buffer`).
  std::vector<std::pair<Ref<Var>, Ref<Buffer>>> buffer_map;
  DataType ret_type = DataType::Void();
  Ref<Stmt> body;
  Attrs attrs;

  Ref<Buffer> buffer_of(const Ref<Var>& param) const {
    for (const auto& [v, b] : buffer_map)
      if (v == param) return b;
    return nullptr;
  }
};

// ---------------------------------------------------------------------------------------------
// Constructors that fill dtypes as TVM's operators do.

Ref<IntImm> int_imm(DataType t, int64_t v, Span span = Span::unknown());
inline Ref<IntImm> int64(int64_t v) {
  return int_imm(DataType::Int64(), v);
}
inline Ref<IntImm> int32(int64_t v) {
  return int_imm(DataType::Int32(), v);
}
Ref<IntImm> bool_imm(bool v);
Ref<FloatImm> float_imm(DataType t, double v, Span span = Span::unknown());
// A binary node of `kind`; comparisons and And/Or get a bool dtype of the operands' lanes.
Ref<PrimExpr> binary(ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b,
                     Span span = Span::unknown());

// The constant value of an integer immediate, if `e` is one.
std::optional<int64_t> as_const_int(const Ref<PrimExpr>& e);
bool is_const_int(const Ref<PrimExpr>& e, int64_t value);

// The operator symbol of a binary kind ("+", "//", "<=", "and") or its function name for kinds
// without one ("T.min").
const char* binary_op_name(ObjectKind kind);

}  // namespace relax::ir::tir
