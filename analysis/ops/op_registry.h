// The op registry: one entry per Relax op holding everything about it that is not lowering —
// argument and attribute schemas, struct-info inference, purity, fusion pattern kind and the
// one-line doc that hover and completion show (ARCHITECTURE.md decision 2). Ops are registered
// explicitly, one family per file (ops/unary.cc, ops/binary.cc, ...), from register_builtin_ops.
// The compiler keeps its own table of legalizations keyed by op name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"

namespace relax::analysis {

class InferContext;

// TVM's fusion pattern kinds (TOpPattern), used by AnnotateTIROpPattern and FuseOps.
enum class OpPattern : int {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};

// The type an attribute value must have after normalization (how it is checked, converted and
// printed). Values are boxed ir values (IntValue, FloatValue, BoolValue, StringValue,
// ArrayValue of those, PrimExprs, IndexMap, ...); None is a null ref.
enum class AttrKind {
  kInt,            // IntValue
  kFloat,          // FloatValue (an int literal converts)
  kBool,           // BoolValue
  kString,         // StringValue
  kDType,          // StringValue holding a dtype name ("void" = none/unknown)
  kIntArray,       // ArrayValue of IntValue (a single int converts to a one-element array)
  kPrimExprArray,  // ArrayValue of PrimExpr (ints convert to int64 IntImm)
  kFloatArray,     // ArrayValue of FloatValue / FloatImm
  kStringArray,    // ArrayValue of StringValue
  kPrimExpr,       // a PrimExpr
  kIndexMap,       // a tir::IndexMap
  kAny,            // kept as written
};

struct AttrSpec {
  std::string name;
  AttrKind kind;
  bool optional = false;        // None is accepted
  bool required = false;        // no default: must be given
  ir::ObjectRef default_value;  // used when not given (null = None)
  std::string doc;
  // Left out of the canonical call unless it is written: an attribute newer than TVM v0.20,
  // whose printed calls must stay v0.20's (take's `mode`). Inference sees it as absent.
  bool only_when_given = false;
};

// What a positional argument takes beyond any Relax expression: kDType is a dtype, written
// R.dtype("float32") or as a plain string, which binding converts (TVM's Python wrappers turn a
// `str` dtype into a DataTypeImm; the front end reads a string argument as R.str).
enum class ArgKind { kExpr, kDType };

// A positional (Relax expression) argument of an op.
struct ArgSpec {
  std::string name;
  std::string doc;
  bool optional = false;  // may be left out (then `default_value` or nothing)
  bool variadic = false;  // takes all remaining positional arguments
  ir::Ref<ir::Expr> default_value;
  ArgKind kind = ArgKind::kExpr;
};

// Computes the struct info of a call (already normalized: arguments in position, attributes in
// declaration order). Reports errors through the context and returns null on error.
using InferFn = std::function<ir::Ref<ir::StructInfo>(InferContext&)>;

struct OpInfo {
  std::string name;       // "relax.nn.conv2d"
  std::string signature;  // "R.nn.conv2d(data, weight, strides=(1, 1), padding=(0, 0), ...)"
  std::string doc;        // one line: "2-D convolution of NCHW data with OIHW weights"
  std::vector<ArgSpec> args;
  std::vector<AttrSpec> attrs;
  // The order positional attributes bind in, when the Python signature lists them differently
  // from the declaration order that the printer follows (pooling: padding before dilation).
  // Empty: the order of `attrs`.
  std::vector<std::string> attr_positions;
  InferFn infer;
  bool pure = true;
  OpPattern pattern = OpPattern::kOpaque;
  // Optional hook to reshape a call before inference (e.g. reshape's -1 dims, call_tir's
  // tuple of arguments); may report errors. Null = none. It returns the canonical call (the
  // context's call when nothing changes, null after an error); argument expressions it creates
  // carry their struct info, and the driver passes the result to InferContext::set_call before
  // running `infer`.
  std::function<ir::Ref<ir::Call>(InferContext&)> normalize;
};

class OpRegistry {
 public:
  // The registry with every builtin op, built on first use.
  static const OpRegistry& global();

  void add(OpInfo info);
  const OpInfo* find(std::string_view name) const;
  const std::vector<const OpInfo*>& all() const { return ordered_; }

 private:
  std::unordered_map<std::string, std::unique_ptr<OpInfo>> ops_;
  std::vector<const OpInfo*> ordered_;
};

// Registers every builtin op family; the only place that lists them.
void register_builtin_ops(OpRegistry& registry);

}  // namespace relax::analysis
