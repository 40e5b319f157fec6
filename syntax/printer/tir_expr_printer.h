// The PrimExpr printer: TVM's text for TIR expressions with Python precedence, typed
// immediates, explicit node constructors where an operator would fold, intrinsic calls with
// their dtype position, lambdas of reducers and index maps. The TIR printer subclasses it to
// define free variables and buffers where TVM's printer does.
#pragma once

#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/tir.h"
#include "syntax/printer/context.h"

namespace relax::syntax {

class PrimExprPrinter {
 public:
  // Python operator precedence, loosest first (TVM's ExprPrecedence order).
  enum Prec : int {
    kLambdaPrec = 1,
    kIfThenElse = 2,
    kBooleanOr = 3,
    kBooleanAnd = 4,
    kBooleanNot = 5,
    kComparison = 6,
    kBitwiseOr = 7,
    kBitwiseXor = 8,
    kBitwiseAnd = 9,
    kShift = 10,
    kAdd = 11,
    kMult = 12,
    kUnary = 13,
    kPower = 14,
    kAtom = 15,
  };
  struct Printed {
    std::string text;
    int prec;
    bool is_number = false;  // a bare numeric literal (TVM's LiteralDoc of a number)
  };

  PrimExprPrinter(PrinterContext& ctx, bool relax_context) : ctx_(ctx), relax_(relax_context) {}
  virtual ~PrimExprPrinter() = default;

  std::string print(const ir::Ref<ir::tir::PrimExpr>& e) { return print_prec(e).text; }
  Printed print_prec(const ir::Ref<ir::tir::PrimExpr>& e);
  // Attribute values: boxed Python values, strings, arrays, maps (string keys sorted), IR objects.
  std::string attr_value(const ir::ObjectRef& value);
  std::string comm_reducer(const ir::tir::CommReducer& r);
  std::string index_map(const ir::tir::IndexMap& m);

 protected:
  // How a variable or buffer reads where it is used (the TIR printer defines free ones).
  virtual std::string var_name(const ir::tir::Var& v);
  virtual std::string buffer_name(const ir::tir::Buffer& b);
  // One buffer index (the TIR printer writes ramps as slices).
  virtual std::string buffer_index(const ir::Ref<ir::tir::PrimExpr>& index) { return print(index); }
  // Lambda parameters of reducers and index maps live in their own frame.
  virtual void begin_lambda() {}
  virtual std::string define_lambda_var(const ir::tir::Var& v);
  virtual void end_lambda() {}
  // `Module.f` for a call of another function (op "@f").
  virtual std::string global_name(const std::string& name);

  std::string tir(std::string_view name);
  // In a Relax context a bare integer reads back as int64 only beside something that gives it
  // that type (a shape or prim value position, an int64 operand); true when `operands` hold int64
  // literals and no other int64 value, as in `T.Add(5, 2)` or `T.if_then_else(c, 1, 2)`, where
  // TIR's parser would make them int32: such literals then print with their dtype.
  bool int64_literals_need_dtype(std::initializer_list<ir::Ref<ir::tir::PrimExpr>> operands) const;
  bool int64_literals_need_dtype(const std::vector<ir::Ref<ir::tir::PrimExpr>>& operands) const;
  // `e` printed, an int64 literal with its dtype when `typed`.
  std::string operand(const ir::Ref<ir::tir::PrimExpr>& e, bool typed);
  std::string int_imm(const ir::tir::IntImm& i);
  std::string list(const std::vector<ir::Ref<ir::tir::PrimExpr>>& items);
  std::string call(const ir::tir::Call& c);
  // A binary operator: the chain of binary nodes down its left operands (`a + b + c + ...`,
  // thousands deep in generated code) in a loop, each right operand recursively.
  Printed binary(const ir::tir::BinaryOp& b);
  // How one binary node prints around its left operand's text (`prefix + left + suffix`), from
  // that operand's precedence and its printed right operand.
  struct Around {
    std::string prefix, suffix;
    int prec;
  };
  Around around(const ir::tir::BinaryOp& b, const Printed& a, const Printed& c);
  static std::string wrap(const Printed& p, int parent, bool paren_on_equal);

  PrinterContext& ctx_;
  bool relax_;
  std::unordered_map<const ir::Object*, std::string> lambda_names_;
};

}  // namespace relax::syntax
