// Conversions from evaluated values to TIR pieces: shape dims (quoted dims and TypeVars define
// symbolic vars), buffer regions, buffer indices with slices, and buffer construction with the
// defaults of TVMScript's buffer builders.
#include <cctype>

#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_internal.h"

namespace relax::syntax::tirfe {

using ir::make;
using ir::ObjectKind;

namespace {

bool is_keyword(std::string_view w) {
  static const char* kWords[] = {"and",   "or",   "not",    "if", "else", "True",
                                 "False", "None", "lambda", "in", "is"};
  for (const char* k : kWords) {
    if (w == k) return true;
  }
  return false;
}

// Defines, as int32 vars of the current scope, the names a quoted dim uses that are not yet
// defined (TVM's rule for quoted TIR dims: first occurrence defines the var).
void define_quoted_names(Frontend& fe, const std::string& text) {
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      std::string word = text.substr(i, j - i);
      size_t p = i;
      while (p > 0 && text[p - 1] == ' ') --p;
      bool attribute = p > 0 && text[p - 1] == '.';
      if (!attribute && !is_keyword(word) && !fe.lookup(word)) {
        fe.define(word, Value::object(make<Var>(word, DataType::Int32())));
      }
      i = j;
    } else if (std::isdigit(c)) {
      while (i < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.'))
        ++i;
    } else {
      ++i;
    }
  }
}

}  // namespace

Ref<PrimExpr> to_dim(Frontend& fe, const Value& v) {
  if (v.is_error()) return nullptr;
  if (v.is_int()) {
    int64_t i = v.as_int();
    DataType t = (i > INT32_MAX || i < INT32_MIN) ? DataType::Int64() : DataType::Int32();
    return int_imm(t, i, v.span());
  }
  if (v.is_string()) {
    define_quoted_names(fe, v.as_string());
    Value e = fe.eval_string_expr(v, Node());
    if (e.is_error()) return nullptr;
    return to_dim(fe, e);
  }
  if (v.is_type_var()) {
    std::string key = "__tir_typevar__" + v.as_string();
    if (const Value* existing = fe.lookup(key)) return existing->as<PrimExpr>();
    auto var = make<Var>(v.as_string(), DataType::Int64());
    var->span = v.span();
    fe.define(key, Value::object(var));
    return var;
  }
  if (v.is<PrimExpr>()) {
    auto e = v.as<PrimExpr>();
    if (!e->dtype.is_integer_like()) {
      fe.error("E0608", v.span(),
               "a shape dimension must be an integer expression, got " + e->dtype.str());
      return nullptr;
    }
    return e;
  }
  if (auto pv = v.as<ir::PrimValue>()) return pv->value;
  fe.error("E0608", v.span(),
           "expected a shape dimension (an int, a PrimExpr or a quoted expression), got " +
               v.describe());
  return nullptr;
}

std::optional<std::vector<Ref<PrimExpr>>> to_shape(Frontend& fe, const Value& v) {
  std::vector<Ref<PrimExpr>> out;
  if (v.is_error()) return std::nullopt;
  if (v.is_sequence()) {
    bool ok = true;
    for (const Value& item : v.items()) {
      Ref<PrimExpr> d = to_dim(fe, item);
      ok &= d.defined();
      out.push_back(d);
    }
    if (!ok) return std::nullopt;
    return out;
  }
  Ref<PrimExpr> d = to_dim(fe, v);
  if (!d) return std::nullopt;
  out.push_back(d);
  return out;
}

Ref<PrimExpr> to_expr(Frontend& fe, const Value& v) {
  if (v.is_error()) return nullptr;
  if (v.is_string()) return make<StringImm>(v.as_string());
  if (auto b = v.as<Buffer>()) {
    fe.error("E0608", v.span(),
             "expected a PrimExpr, got a buffer (use `" + b->name + ".data` for its pointer)");
    return nullptr;
  }
  return fe.to_prim_expr(v);
}

Ref<BufferRegion> to_region(Frontend& fe, const Value& v) {
  if (auto r = v.as<BufferRegion>()) return r;
  if (auto r = v.slice_region().as<BufferRegion>()) return r;
  if (auto load = v.as<BufferLoad>()) {
    std::vector<Ref<Range>> ranges;
    for (const auto& index : load->indices) {
      if (auto ramp = index.as_ptr<Ramp>()) {
        auto lanes = as_const_int(ramp->lanes);
        if (is_const_int(ramp->stride, 1) && lanes) {
          ranges.push_back(make<Range>(ramp->base, int_imm(ramp->base->dtype, *lanes)));
          continue;
        }
      }
      ranges.push_back(make<Range>(index, int_imm(index->dtype, 1)));
    }
    auto region = make<BufferRegion>(load->buffer, std::move(ranges));
    region->span = v.span();
    return region;
  }
  if (v.is_error()) return nullptr;
  if (auto b = v.as<Buffer>()) {
    // A whole buffer stands for its full region.
    std::vector<Ref<Range>> ranges;
    for (const auto& d : b->shape) ranges.push_back(make<Range>(int_imm(d->dtype, 0), d));
    return make<BufferRegion>(b, std::move(ranges));
  }
  fe.error("E0607", v.span(), "expected a buffer region such as `A[i, 0:16]`, got " + v.describe());
  return nullptr;
}

void name_buffer(const Ref<Buffer>& buffer, const std::string& name) {
  buffer->name = name;
  if (buffer->data && buffer->data->name.empty()) buffer->data->name = name;
  for (size_t i = 0; i < buffer->strides.size(); ++i) {
    if (auto v = buffer->strides[i].as<Var>(); v && v->name.empty())
      v->name = name + "_s" + std::to_string(i);
  }
}

bool read_buffer_spec(Frontend& fe, const ArgBinder& args, BufferSpec& spec, bool shape_required) {
  bool ok = true;
  if (const Value* v = args.get("shape")) {
    auto shape = to_shape(fe, *v);
    if (shape)
      spec.shape = *shape;
    else
      ok = false;
  } else if (shape_required) {
    ok = false;
  }
  if (const Value* v = args.get("dtype"); v && !v->is_none()) {
    if (auto t = fe.to_dtype(*v))
      spec.dtype = *t;
    else
      ok = false;
  }
  if (const Value* v = args.get("data"); v && !v->is_none()) {
    if (auto var = v->as<Var>(); var && var->dtype.is_handle()) {
      spec.data = var;
    } else if (!v->is_error()) {
      fe.error("E0608", v->span(),
               "`data` must be a handle variable (such as `A.data`), got " + v->describe());
      ok = false;
    } else {
      ok = false;
    }
  }
  if (const Value* v = args.get("strides"); v && !v->is_none()) {
    auto items = fe.to_sequence(*v, "strides");
    if (!items) {
      ok = false;
    } else {
      DataType index_type = spec.shape.empty() ? DataType::Int32() : spec.shape[0]->dtype;
      for (const Value& s : *items) {
        if (s.is_string()) {
          spec.strides.push_back(make<Var>(s.as_string(), index_type));
          continue;
        }
        Ref<PrimExpr> e = to_dim(fe, s);
        if (!e) ok = false;
        spec.strides.push_back(e);
      }
    }
  }
  if (const Value* v = args.get("elem_offset"); v && !v->is_none()) {
    spec.elem_offset = to_dim(fe, *v);
    ok &= spec.elem_offset.defined();
  }
  if (const Value* v = args.get("scope"); v && !v->is_none()) {
    if (auto s = fe.to_string(*v))
      spec.scope = *s;
    else
      ok = false;
  }
  if (const Value* v = args.get("align"); v && !v->is_none()) {
    if (auto i = fe.to_int(*v))
      spec.align = *i;
    else
      ok = false;
  }
  if (const Value* v = args.get("offset_factor"); v && !v->is_none()) {
    if (auto i = fe.to_int(*v))
      spec.offset_factor = *i;
    else
      ok = false;
  }
  if (const Value* v = args.get("buffer_type"); v && !v->is_none()) {
    if (auto s = fe.to_string(*v)) {
      if (*s != "auto" && *s != "default" && !s->empty() && *s != "auto_broadcast") {
        fe.error("E0608", v->span(),
                 "`buffer_type` must be \"auto\" or \"default\", got \"" + *s + "\"");
        ok = false;
      }
      spec.buffer_type = *s;
    } else {
      ok = false;
    }
  }
  if (const Value* v = args.get("axis_separators"); v && !v->is_none()) {
    if (auto items = fe.to_sequence(*v, "axis_separators")) {
      for (const Value& s : *items) {
        if (auto i = fe.to_int(s))
          spec.axis_separators.push_back(*i);
        else
          ok = false;
      }
    } else {
      ok = false;
    }
  }
  for (const auto& [key, value] : args.extra_kwargs()) {
    fe.warning("W0601", value.span(), "unknown buffer argument `" + key + "` is ignored");
  }
  return ok;
}

Ref<Buffer> make_buffer(const BufferSpec& spec, const std::string& name) {
  auto buffer = make<Buffer>();
  buffer->dtype = spec.dtype;
  buffer->shape = spec.shape;
  buffer->strides = spec.strides;
  if (spec.data) {
    buffer->data = spec.data;
  } else {
    DataType storage = spec.dtype.is_bool() ? DataType::Int(8) : spec.dtype;
    auto data = make<Var>(name, DataType::Handle());
    data->pointer = ir::tir::PointerType{storage, spec.scope};
    buffer->data = data;
  }
  buffer->elem_offset = spec.elem_offset;
  if (!buffer->elem_offset && spec.offset_factor != 0) {
    DataType index_type = spec.shape.empty() ? DataType::Int32() : spec.shape[0]->dtype;
    buffer->elem_offset = make<Var>("elem_offset", index_type);
  }
  if (auto imm = buffer->elem_offset.as_ptr<IntImm>(); imm && imm->value == 0)
    buffer->elem_offset = nullptr;
  buffer->data_alignment = spec.align > 0 ? static_cast<int>(spec.align) : 64;
  buffer->offset_factor = spec.offset_factor != 0 ? static_cast<int>(spec.offset_factor) : 1;
  buffer->buffer_type = (spec.buffer_type == "auto" || spec.buffer_type == "auto_broadcast")
                            ? ir::tir::BufferType::kAutoBroadcast
                            : ir::tir::BufferType::kDefault;
  buffer->axis_separators = spec.axis_separators;
  buffer->name = name;
  return buffer;
}

DataType load_dtype(const Ref<Buffer>& buffer, const std::vector<Ref<PrimExpr>>& indices) {
  if (indices.empty()) return buffer->dtype;
  DataType index = indices.back()->dtype;
  if (index.is_scalable_vector()) return buffer->dtype.with_lanes(index.lanes());
  if (buffer->dtype.is_scalable_vector()) return buffer->dtype;
  return buffer->dtype.with_lanes(index.lanes() * buffer->dtype.lanes());
}

namespace {

// The lanes of a slice `start:stop:step` as TVM computes them: (stop - start + step - 1) // step,
// simplified.
Ref<PrimExpr> slice_lanes(const Ref<PrimExpr>& start, const Ref<PrimExpr>& stop, int64_t step) {
  Ref<PrimExpr> extent = simplify_extent(start, stop);
  if (step == 1) return extent;
  if (auto c = as_const_int(extent)) {
    int64_t n = *c + step - 1;
    int64_t q = n / step;
    if ((n % step != 0) && ((n < 0) != (step < 0))) --q;
    return int_imm(extent->dtype, q);
  }
  // c * t with step | c: (c * t + step - 1) // step is (c / step) * t.
  if (extent->kind() == ObjectKind::kMul) {
    const auto& m = static_cast<const BinaryOp&>(*extent);
    if (auto c = as_const_int(m.b); c && *c % step == 0) {
      if (*c / step == 1) return m.a;
      return prim_arith(ObjectKind::kMul, m.a, int_imm(m.b->dtype, *c / step));
    }
  }
  return prim_arith(ObjectKind::kFloorDiv,
                    prim_arith(ObjectKind::kAdd, extent, int_imm(extent->dtype, step - 1)),
                    int_imm(extent->dtype, step));
}

// A ramp's dtype: the base's element type with the given lanes (fixed or vscale-scaled).
std::optional<DataType> ramp_dtype(DataType base, const Ref<PrimExpr>& lanes) {
  if (auto n = as_const_int(lanes)) return base.with_lanes(static_cast<int>(*n));
  // k * T.vscale() or T.vscale() * k.
  if (lanes->kind() == ObjectKind::kMul) {
    const auto& m = static_cast<const BinaryOp&>(*lanes);
    auto is_vscale = [](const Ref<PrimExpr>& e) {
      auto c = e.as_ptr<Call>();
      return c && c->op == "tir.vscale";
    };
    if (is_vscale(m.a)) {
      if (auto k = as_const_int(m.b)) return base.with_lanes(-static_cast<int>(*k));
    }
    if (is_vscale(m.b)) {
      if (auto k = as_const_int(m.a)) return base.with_lanes(-static_cast<int>(*k));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<Ref<PrimExpr>>> to_indices(Frontend& fe, const Ref<Buffer>& buffer,
                                                     const std::vector<Value>& values,
                                                     const std::vector<Node>& nodes) {
  (void)nodes;
  std::vector<Value> flat;
  for (const Value& v : values) {
    if (v.is_tuple()) {
      for (const Value& item : v.items()) flat.push_back(item);
    } else {
      flat.push_back(v);
    }
  }
  std::vector<Ref<PrimExpr>> out;
  bool ok = true;
  for (size_t i = 0; i < flat.size(); ++i) {
    const Value& v = flat[i];
    if (!v.is_slice()) {
      Ref<PrimExpr> e = to_expr(fe, v);
      if (e && !e->dtype.is_integer_like()) {
        fe.error("E0606", v.span(),
                 "a buffer index must be an integer expression, got " + e->dtype.str());
        e = nullptr;
      }
      ok &= e.defined();
      out.push_back(e);
      continue;
    }
    const auto& parts = v.items();
    Ref<PrimExpr> start = parts[0].is_none() ? Ref<PrimExpr>(int32(0)) : to_expr(fe, parts[0]);
    Ref<PrimExpr> stop;
    if (parts[1].is_none()) {
      if (i < buffer->shape.size())
        stop = buffer->shape[i];
      else
        fe.error("E0606", v.span(), "a slice without an end needs a buffer dimension");
    } else {
      stop = to_expr(fe, parts[1]);
    }
    int64_t step = 1;
    if (!parts[2].is_none()) {
      auto s = fe.to_int(parts[2]);
      if (!s || *s == 0) {
        if (s) fe.error("E0606", parts[2].span(), "a slice step must not be zero");
        ok = false;
        out.push_back(nullptr);
        continue;
      }
      step = *s;
    }
    if (!start || !stop) {
      ok = false;
      out.push_back(nullptr);
      continue;
    }
    Ref<PrimExpr> lanes = slice_lanes(start, stop, step);
    if (is_const_int(lanes, 1)) {
      out.push_back(start);
      continue;
    }
    auto dtype = ramp_dtype(start->dtype, lanes);
    if (!dtype) {
      fe.error("E0606", v.span(), "a vector slice needs a constant number of lanes");
      ok = false;
      out.push_back(nullptr);
      continue;
    }
    Ref<PrimExpr> stride = int_imm(start->dtype, step);
    // TVM keeps constant lanes as an int32 (`A[0:T.int64(4)]` has 4 int32 lanes).
    if (auto n = as_const_int(lanes)) lanes = int32(*n);
    auto ramp = make<Ramp>(*dtype, start, stride, lanes);
    ramp->span = v.span();
    out.push_back(ramp);
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace relax::syntax::tirfe
