// Internal interface between the files of the Relax front end: the per-function state that
// builtins need (they only receive the Frontend), conversions of evaluated values to Relax
// expressions, struct info and symbolic dims, and the builtin registration functions.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "syntax/frontend/context.h"

namespace relax::syntax::relax_fe {

using ir::Ref;
using ir::tir::PrimExpr;

// A Python identifier (`n`, `_x1`): the names a shape string may define.
inline bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

// The first named child that is not a comment, or a null node.
inline Node first_named(Node n) {
  for (Node c : n.named_children()) {
    if (c.kind() != NodeKind::kComment) return c;
  }
  return Node();
}

// What the builtins of one Relax function being parsed need to know. Nested functions push
// their own state; `parent` is the enclosing one.
struct FunctionState {
  FunctionState* parent = nullptr;
  // The symbolic variables this function defined (signature strings, TypeVars, declarations).
  std::unordered_map<std::string, Ref<ir::tir::Var>> symbolic_vars;
  // While the signature is evaluated, an undefined bare-name string dim defines a new var.
  bool in_signature = false;
};

// The state of the innermost Relax function being parsed, or null outside functions.
FunctionState* current_state(Frontend& fe);

// Installs a state in the front end for the lifetime of the guard.
class StateGuard {
 public:
  StateGuard(Frontend& fe, FunctionState& state);
  ~StateGuard();
  StateGuard(const StateGuard&) = delete;
  StateGuard& operator=(const StateGuard&) = delete;

 private:
  Frontend& fe_;
  FunctionState* saved_;
};

// TVM's convert_to_expr: Relax expressions as they are, PrimExprs and Python numbers as prim
// values (ints are int64), strings as R.str, tuples and lists as Relax tuples. Reports (with
// `what` naming the argument) and returns null for anything else.
Ref<ir::Expr> to_expr(Frontend& fe, const Value& v, std::string_view what);

// An annotation value as struct info: struct info objects, bare `R.Tensor`/`R.Object`/`R.Shape`
// /`R.Tuple`/`R.Callable`, `T.int64`-style dtypes (= R.Prim), None (= the void tuple).
Ref<ir::StructInfo> to_struct_info(Frontend& fe, const Value& v);

// A shape dimension as an int64 PrimExpr: ints, symbolic vars, PrimExprs, strings holding an
// expression ("n * 2"; a bare "n" defines n while a signature is parsed), TypeVars, and Relax
// parameters of R.Prim("int64") type.
Ref<PrimExpr> to_dim(Frontend& fe, const Value& v);
// A list or tuple of dims.
std::optional<std::vector<Ref<PrimExpr>>> to_dims(Frontend& fe, const Value& v,
                                                  std::string_view what);

// The virtual device a string names: "cuda" (= "cuda:0"), "cuda:1" (the second vdevice of kind
// cuda in the module's global infos), "vdevice:2" (the third vdevice of any kind).
Ref<ir::VDevice> lookup_vdevice(Frontend& fe, const std::string& spec, ir::Span span);

// True for expressions that may appear as call arguments, tuple fields and SeqExpr bodies in
// A-normal form: anything but calls, tuple items, ifs, sequences and functions (tuples when
// their fields are).
bool is_leaf(const Ref<ir::Expr>& e);

// Equality of struct info (and of the PrimExprs in it) where symbolic variables compare by
// identity: "the same annotation", as match_cast checks and the printer's hiding rules need,
// rather than structural equality up to a renaming of variables.
bool same_sinfo(const Ref<ir::StructInfo>& a, const Ref<ir::StructInfo>& b);
bool same_prim(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);

// The flags of `@R.function(pure=..., private=...)`, read from the literal keywords of the
// last decorator (as TVM reads them, syntactically).
struct DecoratorFlags {
  bool pure = true;
  bool is_private = false;
};
DecoratorFlags read_decorator(Frontend& fe, Node decorated);

struct Signature {
  std::vector<Ref<ir::Var>> params;
  Ref<ir::StructInfo> ret;  // null when not annotated
  bool ok = true;
};
// Evaluates the signature of `def` inside the function's (already pushed) scope and state:
// the symbolic vars of type parameters, TypeVars and shape strings first (so that any
// parameter may use them), then the parameters in order, then the return annotation.
Signature parse_signature(Frontend& fe, Node def, FunctionState& st);
// The struct info of a function with this signature.
Ref<ir::FuncStructInfo> signature_sinfo(const Signature& sig, bool pure);
// The struct info of `def`'s signature, evaluated without leaving diagnostics or names behind
// (they are reported when the function itself is parsed).
Ref<ir::FuncStructInfo> quiet_signature(Frontend& fe, Node def, bool pure);

void register_struct_info_builtins(Frontend& fe);
void register_expr_builtins(Frontend& fe);

// Error codes of the Relax front end (E05xx), named so that tests and docs can refer to them.
namespace codes {
inline constexpr const char* kDecorator = "E0501";  // bad @R.function arguments
inline constexpr const char* kSignature =
    "E0502";  // parameters: missing annotation, defaults, *args
inline constexpr const char* kAnnotation = "E0503";  // not a struct info annotation
inline constexpr const char* kDim = "E0504";         // bad or undefined shape dimension
inline constexpr const char* kStatement = "E0505";   // unsupported statement in a Relax function
inline constexpr const char* kReturn = "E0506";      // return missing, not last, or misplaced
inline constexpr const char* kDataflow = "E0507";    // R.dataflow / R.output misuse
inline constexpr const char* kIf = "E0508";          // if/else misuse
inline constexpr const char* kBinding = "E0509";     // bad binding target or value
inline constexpr const char* kExpr = "E0510";        // not a Relax expression
inline constexpr const char* kCall = "E0511";        // bad arguments of a Relax builtin
inline constexpr const char* kVDevice = "E0512";     // unknown virtual device
inline constexpr const char* kFuncAttr = "E0513";    // R.func_attr misuse
inline constexpr const char* kSymbolic = "E0514";    // symbolic variable declarations
inline constexpr const char* kNonVoid = "E0515";     // non-void expression used as a statement
inline constexpr const char* kConst = "E0516";       // bad R.const value
inline constexpr const char* kNested = "E0517";      // nested definitions
inline constexpr const char* kDocstringWarning = "W0501";  // docstring ignored
inline constexpr const char* kMetadataWarning = "W0502";   // opaque metadata constant
}  // namespace codes

}  // namespace relax::syntax::relax_fe
