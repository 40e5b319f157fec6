// Precedence-aware rendering of PrimExprs. Binary operators are left-associative, so a right
// operand of equal precedence gets parentheses ("a - (b - c)").
#include "analysis/arith/expr_text.h"

#include <cstdio>

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;
using ir::Ref;
namespace tir = ir::tir;

// Higher binds tighter.
int precedence(const tir::PrimExpr* e) {
  switch (e->kind()) {
    case ObjectKind::kOr:
      return 1;
    case ObjectKind::kAnd:
      return 2;
    case ObjectKind::kNot:
      return 3;
    case ObjectKind::kEQ:
    case ObjectKind::kNE:
    case ObjectKind::kLT:
    case ObjectKind::kLE:
    case ObjectKind::kGT:
    case ObjectKind::kGE:
      return 4;
    case ObjectKind::kAdd:
    case ObjectKind::kSub:
      return 5;
    case ObjectKind::kMul:
    case ObjectKind::kFloorDiv:
    case ObjectKind::kFloorMod:
      return 6;
    case ObjectKind::kDiv:
      return e->dtype.is_floating() ? 6 : 10;
    case ObjectKind::kIntImm:
      return static_cast<const tir::IntImm*>(e)->value < 0 ? 7 : 10;  // "-3" needs parens after "-"
    case ObjectKind::kFloatImm:
      return static_cast<const tir::FloatImm*>(e)->value < 0 ? 7 : 10;
    default:
      return 10;
  }
}

void print(const tir::PrimExpr* e, std::string& out);

void print_operand(const Ref<tir::PrimExpr>& e, int min_prec, std::string& out) {
  if (!e) {
    out += "<null>";
    return;
  }
  bool paren = precedence(e.get()) < min_prec;
  if (paren) out += '(';
  print(e.get(), out);
  if (paren) out += ')';
}

void print_call(const char* name, std::initializer_list<const Ref<tir::PrimExpr>*> args,
                std::string& out) {
  out += name;
  out += '(';
  bool first = true;
  for (auto* a : args) {
    if (!first) out += ", ";
    first = false;
    print_operand(*a, 0, out);
  }
  out += ')';
}

void print(const tir::PrimExpr* e, std::string& out) {
  switch (e->kind()) {
    case ObjectKind::kTirVar:
      out += static_cast<const tir::Var*>(e)->name;
      return;
    case ObjectKind::kIntImm: {
      int64_t v = static_cast<const tir::IntImm*>(e)->value;
      if (e->dtype.is_bool()) {
        out += v ? "True" : "False";
      } else {
        out += std::to_string(v);
      }
      return;
    }
    case ObjectKind::kFloatImm: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", static_cast<const tir::FloatImm*>(e)->value);
      out += buf;
      return;
    }
    case ObjectKind::kTirStringImm:
      out += "\"" + static_cast<const tir::StringImm*>(e)->value + "\"";
      return;
    case ObjectKind::kCast: {
      out += "T.Cast(\"" + e->dtype.str() + "\", ";
      print_operand(static_cast<const tir::Cast*>(e)->value, 0, out);
      out += ')';
      return;
    }
    case ObjectKind::kNot:
      out += "not ";
      print_operand(static_cast<const tir::Not*>(e)->a, 3, out);
      return;
    case ObjectKind::kSelect: {
      auto* s = static_cast<const tir::Select*>(e);
      print_call("T.Select", {&s->condition, &s->true_value, &s->false_value}, out);
      return;
    }
    case ObjectKind::kBufferLoad: {
      auto* l = static_cast<const tir::BufferLoad*>(e);
      out += l->buffer ? l->buffer->name : "<buffer>";
      out += '[';
      for (size_t i = 0; i < l->indices.size(); ++i) {
        if (i) out += ", ";
        print_operand(l->indices[i], 0, out);
      }
      out += ']';
      return;
    }
    case ObjectKind::kRamp: {
      auto* r = static_cast<const tir::Ramp*>(e);
      print_call("T.Ramp", {&r->base, &r->stride, &r->lanes}, out);
      return;
    }
    case ObjectKind::kBroadcast: {
      auto* b = static_cast<const tir::Broadcast*>(e);
      print_call("T.Broadcast", {&b->value, &b->lanes}, out);
      return;
    }
    case ObjectKind::kLet: {
      auto* l = static_cast<const tir::Let*>(e);
      out += "T.Let(";
      print_operand(l->body, 0, out);
      out += ", where={" + l->var->name + ": ";
      print_operand(l->value, 0, out);
      out += "})";
      return;
    }
    case ObjectKind::kTirCall: {
      auto* c = static_cast<const tir::Call*>(e);
      std::string name = c->op;
      if (name.rfind("tir.", 0) == 0) name = "T." + name.substr(4);
      out += name + "(";
      for (size_t i = 0; i < c->args.size(); ++i) {
        if (i) out += ", ";
        print_operand(c->args[i], 0, out);
      }
      out += ')';
      return;
    }
    case ObjectKind::kShuffle:
      out += "T.Shuffle(...)";
      return;
    case ObjectKind::kReduce:
      out += "T.reduce(...)";
      return;
    default:
      break;
  }
  auto* b = static_cast<const tir::BinaryOp*>(e);
  switch (e->kind()) {
    case ObjectKind::kMin:
      print_call("T.min", {&b->a, &b->b}, out);
      return;
    case ObjectKind::kMax:
      print_call("T.max", {&b->a, &b->b}, out);
      return;
    case ObjectKind::kMod:
      print_call("T.truncmod", {&b->a, &b->b}, out);
      return;
    case ObjectKind::kDiv:
      if (!e->dtype.is_floating()) {
        print_call("T.truncdiv", {&b->a, &b->b}, out);
        return;
      }
      break;
    default:
      break;
  }
  int prec = precedence(e);
  // Comparisons do not chain in Python, so both sides of one need parentheses for another.
  bool comparison = prec == 4;
  print_operand(b->a, comparison ? prec + 1 : prec, out);
  out += ' ';
  out += tir::binary_op_name(e->kind());
  out += ' ';
  print_operand(b->b, prec + 1, out);
}

}  // namespace

std::string expr_text(const Ref<tir::PrimExpr>& e) {
  std::string out;
  if (!e) return "<null>";
  print(e.get(), out);
  return out;
}

}  // namespace relax::analysis::arith
