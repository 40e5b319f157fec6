#include "tests/compiler/legalize/legalize_test_util.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "analysis/normalize.h"
#include "compiler/legalize/legalize.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::legalize_test {

Legalized legalize_text(const std::string& source) {
  Legalized out;
  ir::DiagnosticBag parse_diags;
  auto r = syntax::parse_text(source, "test.relax", parse_diags);
  for (const auto& d : parse_diags.items()) INFO(d.code + ": " + d.message);
  REQUIRE(!parse_diags.has_errors());
  analysis::normalize_module(*r.module, parse_diags);
  for (const auto& d : parse_diags.items()) UNSCOPED_INFO(d.code + ": " + d.message);
  REQUIRE(!parse_diags.has_errors());
  out.module = compiler::legalize::legalize_module(*r.module, out.diags);
  out.text = syntax::print_module(*out.module);
  return out;
}

namespace {
void collect_call_tir(const ir::Ref<ir::Expr>& e, std::vector<std::string>& names) {
  if (!e) return;
  if (auto seq = e.as_ptr<ir::SeqExpr>()) {
    for (const auto& b : seq->blocks)
      for (const auto& bnd : b->bindings) collect_call_tir(bnd->value, names);
    collect_call_tir(seq->body, names);
  } else if (auto c = e.as_ptr<ir::Call>()) {
    if (c->op_name() == "relax.call_tir")
      if (auto g = c->args[0].as_ptr<ir::GlobalVar>()) names.push_back(g->name);
  } else if (auto i = e.as_ptr<ir::If>()) {
    collect_call_tir(i->true_branch, names);
    collect_call_tir(i->false_branch, names);
  }
}
}  // namespace

ir::Ref<ir::tir::PrimFunc> called_prim_func(const ir::IRModule& m, const std::string& fn,
                                            size_t index) {
  auto f = ir::as_relax_function(m.lookup(fn));
  REQUIRE(f);
  std::vector<std::string> names;
  collect_call_tir(f->body, names);
  REQUIRE(names.size() > index);
  auto pf = ir::as_prim_func(m.lookup(names[index]));
  REQUIRE(pf);
  return pf;
}

HostArray run_func(const ir::tir::PrimFunc& func, std::vector<HostArray> inputs,
                   ir::DataType out_dtype, std::vector<int64_t> out_shape) {
  HostArray out(out_dtype, std::move(out_shape));
  std::vector<compiler::tir_eval::Arg> args;
  for (auto& a : inputs) args.emplace_back(&a);
  args.emplace_back(&out);
  compiler::tir_eval::run(func, args);
  return out;
}

HostArray random_array(ir::DataType dtype, std::vector<int64_t> shape, double lo, double hi,
                       uint32_t seed) {
  HostArray a(dtype, std::move(shape));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t k = 0; k < a.size(); ++k) {
    double v = dist(gen);
    if (dtype.is_floating())
      a.set(k, compiler::tir_eval::Scalar::of_float(dtype, v));
    else if (dtype.is_bool())
      a.set(k, compiler::tir_eval::Scalar::of_int(dtype, v > (lo + hi) / 2));
    else
      a.set(k, compiler::tir_eval::Scalar::of_int(dtype, static_cast<int64_t>(std::floor(v))));
  }
  return a;
}

std::string compare(const HostArray& got, const std::vector<double>& want, double rtol,
                    double atol) {
  if (static_cast<size_t>(got.size()) != want.size())
    return "size " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
  for (size_t k = 0; k < want.size(); ++k) {
    double g = got.get(static_cast<int64_t>(k)), w = want[k];
    bool ok = (std::isnan(g) && std::isnan(w)) || (g == w) ||
              std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok) {
      std::ostringstream os;
      os << "element " << k << ": got " << g << ", want " << w;
      return os.str();
    }
  }
  return "";
}

}  // namespace relax::legalize_test
