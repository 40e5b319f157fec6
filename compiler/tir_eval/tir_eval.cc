// The reference TIR interpreter (see tir_eval.h).
#include "compiler/tir_eval/tir_eval.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <type_traits>
#include <unordered_map>

namespace relax::compiler::tir_eval {

using namespace ir::tir;  // NOLINT
using ir::ObjectKind;
using ir::Ref;

Scalar Scalar::of_float(DataType t, double v) {
  Scalar s;
  s.dtype = t;
  s.f = v;
  return normalize(t, s);
}

Scalar Scalar::of_int(DataType t, int64_t v) {
  Scalar s;
  s.dtype = t;
  s.i = v;
  return normalize(t, s);
}

Scalar normalize(DataType t, Scalar v) {
  Scalar out;
  out.dtype = t;
  if (t.is_floating()) {
    double x = v.dtype.is_floating() ? v.f : static_cast<double>(v.i);
    if (t.bits() != 64) x = static_cast<double>(static_cast<float>(x));
    out.f = x;
    return out;
  }
  int64_t x = 0;
  if (v.dtype.is_floating()) {
    if (t.is_bool()) {
      x = v.f != 0;
    } else {
      x = std::isfinite(v.f) ? static_cast<int64_t>(v.f) : 0;
    }
  } else {
    x = v.i;
  }
  if (t.is_bool()) {
    x = x != 0;
  } else if (t.bits() < 64) {
    uint64_t mask = (uint64_t{1} << t.bits()) - 1;
    uint64_t u = static_cast<uint64_t>(x) & mask;
    if (t.is_int() && (u >> (t.bits() - 1)) != 0) u |= ~mask;
    x = static_cast<int64_t>(u);
  }
  out.i = x;
  return out;
}

HostArray::HostArray(DataType t, std::vector<int64_t> s) : dtype(t), shape(std::move(s)) {
  if (dtype.is_floating())
    f.assign(static_cast<size_t>(size()), 0.0);
  else
    i.assign(static_cast<size_t>(size()), 0);
}

int64_t HostArray::size() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

void HostArray::set(int64_t k, const Scalar& v) {
  Scalar n = normalize(dtype, v);
  if (dtype.is_floating())
    f[static_cast<size_t>(k)] = n.f;
  else
    i[static_cast<size_t>(k)] = n.i;
}

Scalar HostArray::at(int64_t k) const {
  Scalar s;
  s.dtype = dtype;
  if (dtype.is_floating())
    s.f = f[static_cast<size_t>(k)];
  else
    s.i = i[static_cast<size_t>(k)];
  return s;
}

namespace {

class Interpreter {
 public:
  std::unordered_map<const Var*, Scalar> env;
  std::unordered_map<const Var*, HostArray*> memory;  // by buffer data var
  std::vector<std::unique_ptr<HostArray>> owned;

  HostArray& array_of(const Buffer& b) {
    auto it = memory.find(b.data.get());
    if (it == memory.end()) throw EvalError("tir_eval: buffer `" + b.name + "` has no storage");
    return *it->second;
  }

  int64_t flat_index(const Buffer& b, const std::vector<Ref<PrimExpr>>& indices) {
    HostArray& a = array_of(b);
    if (indices.size() != b.shape.size() && !(indices.empty() && b.shape.empty()))
      throw EvalError("tir_eval: buffer `" + b.name + "` accessed with " +
                      std::to_string(indices.size()) + " indices, has " +
                      std::to_string(b.shape.size()) + " dims");
    int64_t flat = 0;
    for (size_t d = 0; d < indices.size(); ++d) {
      int64_t extent = eval(b.shape[d]).as_int();
      int64_t idx = eval(indices[d]).as_int();
      if (idx < 0 || idx >= extent)
        throw EvalError("tir_eval: index " + std::to_string(idx) + " out of bounds [0, " +
                        std::to_string(extent) + ") in dim " + std::to_string(d) + " of `" +
                        b.name + "`");
      flat = flat * extent + idx;
    }
    if (b.elem_offset) flat += eval(b.elem_offset).as_int();
    if (flat < 0 || flat >= a.size())
      throw EvalError("tir_eval: access out of the storage of `" + b.name + "`");
    return flat;
  }

  static Scalar fl(DataType t, double v) { return Scalar::of_float(t, v); }
  static Scalar in(DataType t, int64_t v) { return Scalar::of_int(t, v); }

  // `a + b + c + ...` nests to the left, one node a term: the chain of binary nodes down the
  // left operands is evaluated in a loop, leftmost first, each right operand recursively.
  Scalar binary(const BinaryOp& top) {
    std::vector<const BinaryOp*> spine{&top};
    while (auto next = spine.back()->a.as_ptr<BinaryOp>()) spine.push_back(next);
    Scalar acc = eval(spine.back()->a);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it)
      acc = binary(**it, acc, eval((*it)->b));
    return acc;
  }

  // One binary node, its operands evaluated.
  Scalar binary(const BinaryOp& op, const Scalar& a, const Scalar& b) {
    DataType t = op.a->dtype;
    bool fp = t.is_floating();
    auto kind = op.kind();
    if (kind == ObjectKind::kAnd) return in(op.dtype, (a.as_int() != 0) && (b.as_int() != 0));
    if (kind == ObjectKind::kOr) return in(op.dtype, (a.as_int() != 0) || (b.as_int() != 0));
    if (op.is_comparison()) {
      bool r = false;
      if (fp) {
        double x = a.f, y = b.f;
        r = kind == ObjectKind::kEQ   ? x == y
            : kind == ObjectKind::kNE ? x != y
            : kind == ObjectKind::kLT ? x < y
            : kind == ObjectKind::kLE ? x <= y
            : kind == ObjectKind::kGT ? x > y
                                      : x >= y;
      } else {
        int64_t x = a.i, y = b.i;
        if (t.is_uint()) {
          uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
          r = kind == ObjectKind::kEQ   ? ux == uy
              : kind == ObjectKind::kNE ? ux != uy
              : kind == ObjectKind::kLT ? ux < uy
              : kind == ObjectKind::kLE ? ux <= uy
              : kind == ObjectKind::kGT ? ux > uy
                                        : ux >= uy;
        } else {
          r = kind == ObjectKind::kEQ   ? x == y
              : kind == ObjectKind::kNE ? x != y
              : kind == ObjectKind::kLT ? x < y
              : kind == ObjectKind::kLE ? x <= y
              : kind == ObjectKind::kGT ? x > y
                                        : x >= y;
        }
      }
      return in(DataType::Bool(), r);
    }
    if (fp) {
      double x = a.f, y = b.f;
      switch (kind) {
        case ObjectKind::kAdd:
          return fl(t, x + y);
        case ObjectKind::kSub:
          return fl(t, x - y);
        case ObjectKind::kMul:
          return fl(t, x * y);
        case ObjectKind::kDiv:
          return fl(t, x / y);
        case ObjectKind::kMod:
          return fl(t, std::fmod(x, y));
        case ObjectKind::kFloorDiv:
          return fl(t, std::floor(x / y));
        case ObjectKind::kFloorMod:
          return fl(t, x - std::floor(x / y) * y);
        case ObjectKind::kMin:
          return fl(t, std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y));
        case ObjectKind::kMax:
          return fl(t, std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y));
        default:
          break;
      }
    } else {
      int64_t x = a.i, y = b.i;
      // Division by zero and INT64_MIN / -1 trap in compiled code (x86 idiv): not evaluated.
      auto need_nonzero = [&] {
        if (y == 0) throw EvalError("tir_eval: integer division by zero");
        if (y == -1 && x == std::numeric_limits<int64_t>::min())
          throw EvalError("tir_eval: integer division overflows int64");
      };
      switch (kind) {
        case ObjectKind::kAdd:
          return in(t, static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)));
        case ObjectKind::kSub:
          return in(t, static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)));
        case ObjectKind::kMul:
          return in(t, static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)));
        case ObjectKind::kDiv:
          need_nonzero();
          return in(t, x / y);
        case ObjectKind::kMod:
          need_nonzero();
          return in(t, x % y);
        case ObjectKind::kFloorDiv: {
          need_nonzero();
          int64_t q = x / y;
          if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
          return in(t, q);
        }
        case ObjectKind::kFloorMod: {
          need_nonzero();
          int64_t m = x % y;
          if (m != 0 && ((m < 0) != (y < 0))) m += y;
          return in(t, m);
        }
        case ObjectKind::kMin:
          return in(t, std::min(x, y));
        case ObjectKind::kMax:
          return in(t, std::max(x, y));
        default:
          break;
      }
    }
    throw EvalError(std::string("tir_eval: unsupported binary op ") + ir::kind_name(kind));
  }

  Scalar intrinsic(const Call& c) {
    const std::string& op = c.op;
    DataType t = c.dtype;
    if (op == "tir.if_then_else")
      return eval(c.args[0]).as_int() != 0 ? eval(c.args[1]) : eval(c.args[2]);
    if (op == "tir.likely") return eval(c.args[0]);
    std::vector<Scalar> a;
    for (const auto& e : c.args) a.push_back(eval(e));
    auto x = [&](size_t k) { return a.at(k).as_double(); };
    static const std::unordered_map<std::string, double (*)(double)> unary = {
        {"tir.exp", [](double v) { return std::exp(v); }},
        {"tir.exp2", [](double v) { return std::exp2(v); }},
        {"tir.exp10", [](double v) { return std::pow(10.0, v); }},
        {"tir.log", [](double v) { return std::log(v); }},
        {"tir.log2", [](double v) { return std::log2(v); }},
        {"tir.log10", [](double v) { return std::log10(v); }},
        {"tir.log1p", [](double v) { return std::log1p(v); }},
        {"tir.sqrt", [](double v) { return std::sqrt(v); }},
        {"tir.rsqrt", [](double v) { return 1.0 / std::sqrt(v); }},
        {"tir.tanh", [](double v) { return std::tanh(v); }},
        {"tir.sigmoid", [](double v) { return 1.0 / (1.0 + std::exp(-v)); }},
        {"tir.erf", [](double v) { return std::erf(v); }},
        {"tir.fabs", [](double v) { return std::fabs(v); }},
        {"tir.floor", [](double v) { return std::floor(v); }},
        {"tir.ceil", [](double v) { return std::ceil(v); }},
        {"tir.round", [](double v) { return std::nearbyint(v); }},
        {"tir.nearbyint", [](double v) { return std::nearbyint(v); }},
        {"tir.trunc", [](double v) { return std::trunc(v); }},
        {"tir.sin", [](double v) { return std::sin(v); }},
        {"tir.cos", [](double v) { return std::cos(v); }},
        {"tir.tan", [](double v) { return std::tan(v); }},
        {"tir.sinh", [](double v) { return std::sinh(v); }},
        {"tir.cosh", [](double v) { return std::cosh(v); }},
        {"tir.asin", [](double v) { return std::asin(v); }},
        {"tir.acos", [](double v) { return std::acos(v); }},
        {"tir.atan", [](double v) { return std::atan(v); }},
        {"tir.asinh", [](double v) { return std::asinh(v); }},
        {"tir.acosh", [](double v) { return std::acosh(v); }},
        {"tir.atanh", [](double v) { return std::atanh(v); }},
    };
    if (auto it = unary.find(op); it != unary.end()) {
      if (!t.is_floating()) {
        if (op == "tir.fabs") return in(t, a[0].i < 0 ? -a[0].i : a[0].i);
        return in(t, static_cast<int64_t>(it->second(x(0))));
      }
      return fl(t, it->second(x(0)));
    }
    if (op == "tir.pow") return fl(t, std::pow(x(0), x(1)));
    if (op == "tir.atan2") return fl(t, std::atan2(x(0), x(1)));
    if (op == "tir.fmod") return fl(t, std::fmod(x(0), x(1)));
    if (op == "tir.isnan") return in(t, t.is_floating() ? 0 : std::isnan(x(0)));
    if (op == "tir.isinf") return in(t, std::isinf(x(0)));
    if (op == "tir.isfinite") return in(t, std::isfinite(x(0)));
    if (op == "tir.bitwise_and") return in(t, a[0].i & a[1].i);
    if (op == "tir.bitwise_or") return in(t, a[0].i | a[1].i);
    if (op == "tir.bitwise_xor") return in(t, a[0].i ^ a[1].i);
    if (op == "tir.bitwise_not") return in(t, ~a[0].i);
    if (op == "tir.shift_left")
      return in(t, static_cast<int64_t>(static_cast<uint64_t>(a[0].i) << a[1].i));
    if (op == "tir.shift_right") return in(t, a[0].i >> a[1].i);
    throw EvalError("tir_eval: unsupported intrinsic " + op);
  }

  Scalar eval(const Ref<PrimExpr>& e) {
    switch (e->kind()) {
      case ObjectKind::kTirVar: {
        auto it = env.find(static_cast<const Var*>(e.get()));
        if (it == env.end())
          throw EvalError("tir_eval: unbound variable `" + static_cast<const Var*>(e.get())->name +
                          "`");
        return it->second;
      }
      case ObjectKind::kIntImm:
        return in(e->dtype, static_cast<const IntImm*>(e.get())->value);
      case ObjectKind::kFloatImm:
        return fl(e->dtype, static_cast<const FloatImm*>(e.get())->value);
      case ObjectKind::kCast:
        return normalize(e->dtype, eval(static_cast<const Cast*>(e.get())->value));
      case ObjectKind::kNot:
        return in(e->dtype, eval(static_cast<const Not*>(e.get())->a).as_int() == 0);
      case ObjectKind::kSelect: {
        auto s = static_cast<const Select*>(e.get());
        Scalar c = eval(s->condition);
        Scalar tv = eval(s->true_value);
        Scalar fv = eval(s->false_value);
        return c.as_int() != 0 ? tv : fv;
      }
      case ObjectKind::kBufferLoad: {
        auto l = static_cast<const BufferLoad*>(e.get());
        int64_t k = flat_index(*l->buffer, l->indices);
        return normalize(e->dtype, array_of(*l->buffer).at(k));
      }
      case ObjectKind::kLet: {
        auto l = static_cast<const Let*>(e.get());
        env[l->var.get()] = eval(l->value);
        return eval(l->body);
      }
      case ObjectKind::kTirCall:
        return intrinsic(*static_cast<const Call*>(e.get()));
      default:
        if (auto b = e.as_ptr<BinaryOp>()) return binary(*b);
        throw EvalError(std::string("tir_eval: unsupported expression ") +
                        ir::kind_name(e->kind()));
    }
  }

  void alloc(const Ref<Buffer>& b) {
    std::vector<int64_t> shape;
    for (const auto& d : b->shape) shape.push_back(eval(d).as_int());
    owned.push_back(std::make_unique<HostArray>(b->dtype, shape));
    memory[b->data.get()] = owned.back().get();
  }

  void exec(const Ref<Stmt>& s) {
    if (!s) return;
    switch (s->kind()) {
      case ObjectKind::kSeqStmt:
        for (const auto& c : static_cast<const SeqStmt*>(s.get())->seq) exec(c);
        return;
      case ObjectKind::kFor: {
        auto f = static_cast<const For*>(s.get());
        int64_t lo = eval(f->min).as_int();
        int64_t n = eval(f->extent).as_int();
        for (int64_t k = lo; k < lo + n; ++k) {
          env[f->loop_var.get()] = in(f->loop_var->dtype, k);
          exec(f->body);
        }
        return;
      }
      case ObjectKind::kBufferStore: {
        auto st = static_cast<const BufferStore*>(s.get());
        Scalar v = eval(st->value);
        int64_t k = flat_index(*st->buffer, st->indices);
        array_of(*st->buffer).set(k, v);
        return;
      }
      case ObjectKind::kBlockRealize: {
        auto r = static_cast<const BlockRealize*>(s.get());
        if (r->predicate && eval(r->predicate).as_int() == 0) return;
        const Block& b = *r->block;
        if (r->iter_values.size() != b.iter_vars.size())
          throw EvalError("tir_eval: block `" + b.name_hint + "` binding count");
        bool first_reduce = true;
        for (size_t k = 0; k < b.iter_vars.size(); ++k) {
          Scalar v = eval(r->iter_values[k]);
          const auto& iv = b.iter_vars[k];
          env[iv->var.get()] = v;
          if (iv->iter_type == IterType::kCommReduce && v.as_int() != eval(iv->dom->min).as_int())
            first_reduce = false;
        }
        for (const auto& ab : b.alloc_buffers) alloc(ab);
        for (const auto& mb : b.match_buffers) {
          (void)mb;
          throw EvalError("tir_eval: match_buffer in blocks is not supported");
        }
        if (b.init && first_reduce) exec(b.init);
        exec(b.body);
        return;
      }
      case ObjectKind::kLetStmt: {
        auto l = static_cast<const LetStmt*>(s.get());
        env[l->var.get()] = eval(l->value);
        exec(l->body);
        return;
      }
      case ObjectKind::kIfThenElse: {
        auto i = static_cast<const IfThenElse*>(s.get());
        if (eval(i->condition).as_int() != 0)
          exec(i->then_case);
        else
          exec(i->else_case);
        return;
      }
      case ObjectKind::kAttrStmt:
        exec(static_cast<const AttrStmt*>(s.get())->body);
        return;
      case ObjectKind::kAssertStmt: {
        auto a = static_cast<const AssertStmt*>(s.get());
        if (eval(a->condition).as_int() == 0) throw EvalError("tir_eval: assertion failed");
        exec(a->body);
        return;
      }
      case ObjectKind::kDeclBuffer: {
        auto d = static_cast<const DeclBuffer*>(s.get());
        exec(d->body);
        return;
      }
      case ObjectKind::kAllocate: {
        auto a = static_cast<const Allocate*>(s.get());
        int64_t n = 1;
        for (const auto& e : a->extents) n *= eval(e).as_int();
        owned.push_back(std::make_unique<HostArray>(a->dtype, std::vector<int64_t>{n}));
        memory[a->buffer_var.get()] = owned.back().get();
        exec(a->body);
        return;
      }
      case ObjectKind::kEvaluate:
        (void)eval(static_cast<const Evaluate*>(s.get())->value);
        return;
      default:
        throw EvalError(std::string("tir_eval: unsupported statement ") + ir::kind_name(s->kind()));
    }
  }
};

}  // namespace

namespace {

template <class T>
void read_as(const ir::TensorData& d, HostArray& a) {
  for (int64_t k = 0; k < a.size(); ++k) {
    T v;
    std::memcpy(&v, d.bytes.data() + static_cast<size_t>(k) * sizeof(T), sizeof(T));
    if constexpr (std::is_floating_point_v<T>)
      a.set(k, Scalar::of_float(a.dtype, static_cast<double>(v)));
    else
      a.set(k, Scalar::of_int(a.dtype, static_cast<int64_t>(v)));
  }
}

template <class T>
void write_as(const HostArray& a, ir::TensorData& d) {
  for (int64_t k = 0; k < a.size(); ++k) {
    T v = a.dtype.is_floating() ? static_cast<T>(a.f[static_cast<size_t>(k)])
                                : static_cast<T>(a.i[static_cast<size_t>(k)]);
    std::memcpy(d.bytes.data() + static_cast<size_t>(k) * sizeof(T), &v, sizeof(T));
  }
}

// Calls f.template operator()<T>() with the C type of `t`; false when there is none.
template <class F>
bool with_ctype(DataType t, F&& f) {
  if (t.lanes() != 1) return false;
  if (t == DataType::Float32()) return f(float{}), true;
  if (t == DataType::Float(64)) return f(double{}), true;
  if (t.is_bool()) return f(uint8_t{}), true;
  if (t.is_int()) {
    switch (t.bits()) {
      case 8:
        return f(int8_t{}), true;
      case 16:
        return f(int16_t{}), true;
      case 32:
        return f(int32_t{}), true;
      case 64:
        return f(int64_t{}), true;
    }
  }
  if (t.is_uint()) {
    switch (t.bits()) {
      case 8:
        return f(uint8_t{}), true;
      case 16:
        return f(uint16_t{}), true;
      case 32:
        return f(uint32_t{}), true;
      case 64:
        return f(uint64_t{}), true;
    }
  }
  return false;
}

}  // namespace

HostArray from_tensor_data(const ir::TensorData& data) {
  HostArray a(data.dtype, data.shape);
  if (static_cast<int64_t>(data.bytes.size()) != a.size() * data.dtype.bytes())
    throw EvalError("tir_eval: constant of " + std::to_string(data.bytes.size()) + " bytes for " +
                    std::to_string(a.size()) + " elements of " + data.dtype.str());
  bool ok = with_ctype(data.dtype, [&](auto tag) { read_as<decltype(tag)>(data, a); });
  if (!ok)
    throw EvalError("tir_eval: constants of dtype " + data.dtype.str() + " are not supported");
  return a;
}

ir::TensorData to_tensor_data(const HostArray& array) {
  ir::TensorData d;
  d.dtype = array.dtype;
  d.shape = array.shape;
  d.bytes.assign(static_cast<size_t>(array.size() * array.dtype.bytes()), 0);
  bool ok = with_ctype(array.dtype, [&](auto tag) { write_as<decltype(tag)>(array, d); });
  if (!ok) throw EvalError("tir_eval: arrays of dtype " + array.dtype.str() + " are not supported");
  return d;
}

void run(const PrimFunc& func, const std::vector<Arg>& args) {
  if (args.size() != func.params.size())
    throw EvalError("tir_eval: " + std::to_string(func.params.size()) + " parameters, " +
                    std::to_string(args.size()) + " arguments");
  Interpreter it;
  // Scalars first, then the dims that are a bare var, then every dim is checked (a dim such as
  // `n * 2` may use a var bound later or by a scalar parameter).
  for (size_t k = 0; k < args.size(); ++k) {
    const auto& p = func.params[k];
    if (func.buffer_of(p)) continue;
    if (args[k].array)
      throw EvalError("tir_eval: parameter `" + p->name + "` is a scalar, got an array");
    it.env[p.get()] = normalize(p->dtype, args[k].scalar);
  }
  for (size_t k = 0; k < args.size(); ++k) {
    Ref<Buffer> b = func.buffer_of(func.params[k]);
    if (!b) continue;
    HostArray* a = args[k].array;
    if (!a) throw EvalError("tir_eval: parameter `" + b->name + "` is a buffer, got a scalar");
    if (a->dtype != b->dtype)
      throw EvalError("tir_eval: buffer `" + b->name + "` has dtype " + b->dtype.str() +
                      ", array " + a->dtype.str());
    if (a->shape.size() != b->shape.size())
      throw EvalError("tir_eval: buffer `" + b->name + "` has rank " +
                      std::to_string(b->shape.size()));
    for (size_t d = 0; d < b->shape.size(); ++d) {
      if (auto v = b->shape[d].as_ptr<Var>(); v && !it.env.count(v))
        it.env[v] = Scalar::of_int(v->dtype, a->shape[d]);
    }
    it.memory[b->data.get()] = a;
  }
  for (size_t k = 0; k < args.size(); ++k) {
    Ref<Buffer> b = func.buffer_of(func.params[k]);
    if (!b) continue;
    for (size_t d = 0; d < b->shape.size(); ++d) {
      int64_t want = it.eval(b->shape[d]).as_int();
      if (want != args[k].array->shape[d])
        throw EvalError("tir_eval: buffer `" + b->name + "` dim " + std::to_string(d) + " is " +
                        std::to_string(want) + ", array has " +
                        std::to_string(args[k].array->shape[d]));
    }
  }
  it.exec(func.body);
}

}  // namespace relax::compiler::tir_eval
