// Legalizations of elementwise ops: unary math and activations (topi's `compute` stage),
// broadcasting binary arithmetic and comparisons (`T_<op>` stages), where, astype, clip, and the
// creation ops zeros/ones/full (and their _like forms).
#include <cmath>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

using UnaryBody = std::function<Expr(const Expr&)>;

// out = f(x) elementwise, in one "compute" stage over axes i0, i1, ...
LegalizeFn unary(std::string name, UnaryBody f, std::string stage = "compute") {
  return [name, f, stage](Ctx& c) {
    auto x = c.input(0);
    if (!x) return false;
    Tensor xt = *x;
    c.name = name;
    c.out = c.b.compute(xt.shape(), c.out_dtype(), stage, [&](const Exprs& i) { return f(xt(i)); });
    return true;
  };
}

UnaryBody intrinsic(const std::string& op) {
  return [op](const Expr& x) { return call1("tir." + op, x); };
}

Expr zero(const Expr& x) {
  return const_of(x->dtype, 0);
}

using BinaryBody = std::function<Expr(const Expr&, const Expr&)>;

// An operand of an elementwise op: a tensor (broadcast to the output) or an `R.Prim` scalar
// (its known value, or a scalar parameter of the PrimFunc).
using Operand = std::function<Expr(const Exprs&)>;

std::optional<Operand> operand(Ctx& c, size_t i, const Exprs& shape) {
  const auto& arg = c.call.args[i];
  if (auto p = arg->struct_info.as_ptr<ir::PrimStructInfo>()) {
    Expr v = p->value ? c.remap(p->value) : Expr(c.scalar_input(i));
    if (!v) return std::nullopt;
    return Operand([v](const Exprs&) { return v; });
  }
  auto t = c.input(i);
  if (!t) return std::nullopt;
  Tensor tt = *t;
  return Operand([tt, shape](const Exprs& idx) { return broadcast_load(tt, idx, shape); });
}

// out = f(a, b) with numpy broadcasting, in one "T_<name>" stage over axes ax0, ax1, ...
LegalizeFn binary_op(std::string name, BinaryBody f) {
  return [name, f](Ctx& c) {
    auto shape = c.out_shape();
    if (!shape) return false;
    auto a = operand(c, 0, *shape);
    auto b = operand(c, 1, *shape);
    if (!a || !b) return false;
    c.name = name;
    c.out = c.b.compute(
        *shape, c.out_dtype(), "T_" + name, [&](const Exprs& i) { return f((*a)(i), (*b)(i)); },
        "ax");
    return true;
  };
}

Expr floor_div(const Expr& a, const Expr& b) {
  if (a->dtype.is_floating()) return call1("tir.floor", div(a, b));
  return floordiv(a, b);
}

Expr floor_mod(const Expr& a, const Expr& b) {
  if (a->dtype.is_floating()) return sub(a, mul(call1("tir.floor", div(a, b)), b));
  return floormod(a, b);
}

Expr as_bool(const Expr& x) {
  if (x->dtype.is_bool()) return x;
  return cmp(ObjectKind::kNE, x, zero(x));
}

// A scalar fill value: a constant 0-d tensor's value, or a load of a 0-d placeholder.
std::optional<Expr> fill_value(Ctx& c, size_t arg, DataType dtype) {
  const auto& e = c.call.args[arg];
  if (auto k = e.as_ptr<ir::Constant>(); k && k->data && k->data->shape.empty()) {
    const auto& d = *k->data;
    double v = 0;
    auto t = d.dtype;
    const uint8_t* p = d.bytes.data();
    if (t == DataType::Float32())
      v = *reinterpret_cast<const float*>(p);
    else if (t == DataType::Float(64))
      v = *reinterpret_cast<const double*>(p);
    else if (t == DataType::Int32())
      v = *reinterpret_cast<const int32_t*>(p);
    else if (t == DataType::Int64())
      v = static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    else if (t.is_bool())
      v = *p != 0;
    else
      return std::nullopt;
    return const_of(dtype, v);
  }
  auto x = c.input(arg);
  if (!x || x->ndim() != 0) return std::nullopt;
  return cast(dtype, (*x)({}));
}

LegalizeFn full_op(std::string name, std::optional<double> value, size_t fill_arg, bool like) {
  return [=](Ctx& c) {
    auto shape = c.out_shape();
    if (!shape) return false;
    DataType t = c.out_dtype();
    Expr v;
    if (value) {
      v = const_of(t, *value);
    } else {
      auto f = fill_value(c, fill_arg, t);
      if (!f) return false;
      v = *f;
    }
    (void)like;
    c.name = name;
    c.out = c.b.compute(
        *shape, t, "T_full", [&](const Exprs&) { return v; }, "ax");
    return true;
  };
}

}  // namespace

void register_elementwise(Table& t) {
  for (const char* op : {"exp",   "log",   "sqrt",  "rsqrt", "tanh",  "sigmoid", "erf",  "sin",
                         "cos",   "tan",   "sinh",  "cosh",  "asin",  "acos",    "atan", "asinh",
                         "acosh", "atanh", "floor", "ceil",  "round", "trunc"}) {
    t[std::string("relax.") + op] = unary(op, intrinsic(op));
  }
  t["relax.abs"] = unary("abs", [](const Expr& x) {
    if (x->dtype.is_floating()) return call1("tir.fabs", x);
    return select(cmp(ObjectKind::kLT, x, zero(x)), sub(zero(x), x), x);
  });
  t["relax.negative"] = unary("negative", [](const Expr& x) { return sub(zero(x), x); });
  t["relax.square"] = unary("square", [](const Expr& x) { return mul(x, x); });
  t["relax.sign"] = unary("sign", [](const Expr& x) {
    return select(cmp(ObjectKind::kLT, zero(x), x), const_of(x->dtype, 1),
                  select(cmp(ObjectKind::kLT, x, zero(x)), const_of(x->dtype, -1), zero(x)));
  });
  t["relax.logical_not"] =
      unary("logical_not", [](const Expr& x) { return logical_not(as_bool(x)); });
  t["relax.bitwise_not"] = unary("bitwise_not", intrinsic("bitwise_not"));
  t["relax.isnan"] =
      unary("isnan", [](const Expr& x) { return call("tir.isnan", DataType::Bool(), {x}); });
  t["relax.isinf"] =
      unary("isinf", [](const Expr& x) { return call("tir.isinf", DataType::Bool(), {x}); });
  t["relax.isfinite"] =
      unary("isfinite", [](const Expr& x) { return call("tir.isfinite", DataType::Bool(), {x}); });
  t["relax.nn.relu"] = unary("relu", [](const Expr& x) { return max(x, zero(x)); });
  t["relax.nn.gelu"] = unary(
      "gelu",
      [](const Expr& x) {
        DataType d = x->dtype;
        return mul(x, add(const_of(d, 0.5),
                          mul(call1("tir.erf", mul(x, const_of(d, M_SQRT1_2))), const_of(d, 0.5))));
      },
      "T_multiply");
  t["relax.nn.gelu_tanh"] = unary(
      "gelu_tanh",
      [](const Expr& x) {
        DataType d = x->dtype;
        Expr inner = mul(const_of(d, std::sqrt(2.0 / M_PI)),
                         add(x, mul(const_of(d, 0.044715), mul(mul(x, x), x))));
        return mul(mul(const_of(d, 0.5), x), add(const_of(d, 1.0), call1("tir.tanh", inner)));
      },
      "T_multiply");
  t["relax.nn.silu"] = unary(
      "silu", [](const Expr& x) { return mul(x, call1("tir.sigmoid", x)); }, "T_multiply");
  t["relax.nn.selu"] = unary(
      "selu",
      [](const Expr& x) {
        DataType d = x->dtype;
        Expr neg = mul(const_of(d, 1.6732632423543772), sub(call1("tir.exp", x), const_of(d, 1)));
        return mul(const_of(d, 1.0507009873554805),
                   select(cmp(ObjectKind::kLT, zero(x), x), x, neg));
      },
      "T_multiply");
  t["relax.nn.leakyrelu"] = [](Ctx& c) {
    double alpha = c.float_attr("alpha", 0.01);
    return unary("leaky_relu", [alpha](const Expr& x) {
      return select(cmp(ObjectKind::kLT, zero(x), x), x, mul(x, const_of(x->dtype, alpha)));
    })(c);
  };
  t["relax.nn.softplus"] = [](Ctx& c) {
    double beta = c.float_attr("beta", 1.0), threshold = c.float_attr("threshold", 20.0);
    return unary("softplus", [=](const Expr& x) {
      DataType d = x->dtype;
      Expr bx = mul(x, const_of(d, beta));
      Expr soft =
          div(call1("tir.log", add(const_of(d, 1), call1("tir.exp", bx))), const_of(d, beta));
      return select(cmp(ObjectKind::kGT, bx, const_of(d, threshold)), x, soft);
    })(c);
  };
  t["relax.clip"] = [](Ctx& c) {
    auto bound = [&](size_t i) -> Expr {
      auto pv = c.call.args[i].as_ptr<ir::PrimValue>();
      return pv ? c.remap(pv->value) : nullptr;
    };
    Expr lo = bound(1), hi = bound(2);
    if (!lo || !hi) return c.unsupported("min and max must be prim values");
    return unary("clip", [=](const Expr& x) {
      return max(min(x, cast(x->dtype, hi)), cast(x->dtype, lo));
    })(c);
  };
  t["relax.astype"] = [](Ctx& c) {
    DataType to = c.out_dtype();
    return unary("cast", [to](const Expr& x) { return cast(to, x); })(c);
  };
  // wrap_param(data, dtype): the weight cast to the model's dtype, as astype.
  t["relax.wrap_param"] = t["relax.astype"];

  t["relax.add"] = binary_op("add", add);
  t["relax.subtract"] = binary_op("subtract", sub);
  t["relax.multiply"] = binary_op("multiply", mul);
  t["relax.divide"] = binary_op("divide", div);
  t["relax.floor_divide"] = binary_op("floor_divide", floor_div);
  t["relax.power"] = binary_op("power", [](const Expr& a, const Expr& b) {
    return call("tir.pow", a->dtype, {a, b});
  });
  t["relax.mod"] =
      binary_op("mod", [](const Expr& a, const Expr& b) { return binary(ObjectKind::kMod, a, b); });
  t["relax.floor_mod"] = binary_op("floor_mod", floor_mod);
  t["relax.minimum"] = binary_op("minimum", min);
  t["relax.maximum"] = binary_op("maximum", max);
  t["relax.atan2"] = binary_op("atan2", [](const Expr& a, const Expr& b) {
    return call("tir.atan2", a->dtype, {a, b});
  });
  t["relax.log_add_exp"] = binary_op("log_add_exp", [](const Expr& a, const Expr& b) {
    Expr m = max(a, b);
    Expr d = call1("tir.fabs", sub(a, b));
    return add(m, call1("tir.log", add(const_of(a->dtype, 1), call1("tir.exp", sub(zero(a), d)))));
  });
  t["relax.logical_and"] = binary_op("logical_and", [](const Expr& a, const Expr& b) {
    return logical_and(as_bool(a), as_bool(b));
  });
  t["relax.logical_or"] = binary_op("logical_or", [](const Expr& a, const Expr& b) {
    return logical_or(as_bool(a), as_bool(b));
  });
  t["relax.logical_xor"] = binary_op("logical_xor", [](const Expr& a, const Expr& b) {
    return cmp(ObjectKind::kNE, as_bool(a), as_bool(b));
  });
  t["relax.bitwise_and"] = binary_op("bitwise_and", [](const Expr& a, const Expr& b) {
    return call("tir.bitwise_and", a->dtype, {a, b});
  });
  t["relax.bitwise_or"] = binary_op("bitwise_or", [](const Expr& a, const Expr& b) {
    return call("tir.bitwise_or", a->dtype, {a, b});
  });
  t["relax.bitwise_xor"] = binary_op("bitwise_xor", [](const Expr& a, const Expr& b) {
    return call("tir.bitwise_xor", a->dtype, {a, b});
  });
  t["relax.left_shift"] = binary_op("left_shift", [](const Expr& a, const Expr& b) {
    return call("tir.shift_left", a->dtype, {a, b});
  });
  t["relax.right_shift"] = binary_op("right_shift", [](const Expr& a, const Expr& b) {
    return call("tir.shift_right", a->dtype, {a, b});
  });
  const std::pair<const char*, ObjectKind> cmps[] = {
      {"equal", ObjectKind::kEQ},   {"not_equal", ObjectKind::kNE},
      {"less", ObjectKind::kLT},    {"less_equal", ObjectKind::kLE},
      {"greater", ObjectKind::kGT}, {"greater_equal", ObjectKind::kGE}};
  for (const auto& [name, kind] : cmps) {
    ObjectKind k = kind;
    t[std::string("relax.") + name] =
        binary_op(name, [k](const Expr& a, const Expr& b) { return cmp(k, a, b); });
  }
  t["relax.where"] = [](Ctx& c) {
    auto cond = c.input(0);
    auto a = c.input(1);
    auto b = c.input(2);
    auto shape = c.out_shape();
    if (!cond || !a || !b || !shape) return false;
    Tensor ct = *cond, at = *a, bt = *b;
    c.name = "where";
    c.out = c.b.compute(
        *shape, c.out_dtype(), "T_where",
        [&](const Exprs& i) {
          return select(as_bool(broadcast_load(ct, i, *shape)), broadcast_load(at, i, *shape),
                        broadcast_load(bt, i, *shape));
        },
        "ax");
    return true;
  };
  t["relax.zeros"] = full_op("zeros", 0.0, 0, false);
  t["relax.ones"] = full_op("ones", 1.0, 0, false);
  t["relax.full"] = full_op("full", std::nullopt, 1, false);
  t["relax.zeros_like"] = full_op("zeros", 0.0, 0, true);
  t["relax.ones_like"] = full_op("ones", 1.0, 0, true);
  t["relax.full_like"] = full_op("full", std::nullopt, 1, true);
}

}  // namespace relax::compiler::legalize
