// One-line struct info texts for diagnostics (the analysis layer cannot use the printer, which
// lives above it): the legacy TVMScript spelling the user wrote or will see printed.
#include "analysis/arith/expr_text.h"
#include "analysis/struct_info.h"

namespace relax::analysis {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

std::string dims_text(const std::vector<Ref<ir::tir::PrimExpr>>& dims) {
  std::vector<std::string> items;
  for (const auto& d : dims) items.push_back(arith::expr_text(d));
  return join(items);
}

std::string quote(const std::string& s) {
  return "\"" + s + "\"";
}

}  // namespace

std::string struct_info_text(const Ref<StructInfo>& sinfo) {
  if (!sinfo) return "(unknown)";
  switch (sinfo->kind()) {
    case ir::ObjectKind::kObjectStructInfo:
      return "R.Object";
    case ir::ObjectKind::kPrimStructInfo: {
      const auto& p = static_cast<const ir::PrimStructInfo&>(*sinfo);
      if (p.value) return "R.Prim(value=" + arith::expr_text(p.value) + ")";
      return "R.Prim(" + quote(p.dtype.str()) + ")";
    }
    case ir::ObjectKind::kShapeStructInfo: {
      const auto& s = static_cast<const ir::ShapeStructInfo&>(*sinfo);
      if (s.values) return "R.Shape([" + dims_text(*s.values) + "])";
      return "R.Shape(ndim=" + std::to_string(s.ndim) + ")";
    }
    case ir::ObjectKind::kTensorStructInfo: {
      const auto& t = static_cast<const ir::TensorStructInfo&>(*sinfo);
      std::vector<std::string> args;
      if (auto se = t.shape.as_ptr<ir::ShapeExpr>()) {
        args.push_back("(" + dims_text(se->values) + (se->values.size() == 1 ? ",)" : ")"));
      } else if (auto v = t.shape.as_ptr<ir::Var>()) {
        args.push_back(v->name);
      }
      if (!t.is_unknown_dtype()) args.push_back("dtype=" + quote(t.dtype.str()));
      if (!t.shape && !t.is_unknown_ndim()) args.push_back("ndim=" + std::to_string(t.ndim));
      if (t.vdevice && t.vdevice->target) {
        args.push_back("vdevice=" + quote(t.vdevice->target->kind_name() + ":" +
                                          std::to_string(t.vdevice->vdevice_id)));
      }
      if (args.empty()) return "R.Tensor";
      return "R.Tensor(" + join(args) + ")";
    }
    case ir::ObjectKind::kTupleStructInfo: {
      const auto& t = static_cast<const ir::TupleStructInfo&>(*sinfo);
      if (t.fields.empty()) return "R.Tuple";
      std::vector<std::string> fields;
      for (const auto& f : t.fields) fields.push_back(struct_info_text(f));
      return "R.Tuple(" + join(fields) + ")";
    }
    case ir::ObjectKind::kFuncStructInfo: {
      const auto& f = static_cast<const ir::FuncStructInfo&>(*sinfo);
      std::string ret = f.ret ? struct_info_text(f.ret) : "R.Object";
      if (f.is_opaque()) {
        std::vector<std::string> kw;
        if (f.ret && !f.ret.is<ir::ObjectStructInfo>()) kw.push_back("ret=" + ret);
        if (f.purity) kw.push_back("purity=True");
        if (kw.empty()) return "R.Callable";
        return "R.Callable(" + join(kw) + ")";
      }
      std::vector<std::string> params;
      for (const auto& p : *f.params) params.push_back(struct_info_text(p));
      std::string plist = "(" + join(params) + (params.size() == 1 ? ",)" : ")");
      return "R.Callable(" + plist + ", " + ret + ", " + (f.purity ? "True" : "False") + ")";
    }
    case ir::ObjectKind::kStructInfoOf: {
      auto v = static_cast<const ir::StructInfoOf&>(*sinfo).expr.as_ptr<ir::Var>();
      return (v ? v->name : std::string("(expression)")) + ".struct_info";
    }
    default:
      return "R.Object";
  }
}

}  // namespace relax::analysis
