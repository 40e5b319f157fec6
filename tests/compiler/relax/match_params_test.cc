// match_params: how the tensors of a params file find a function's parameters (the same name,
// else dots as underscores), what binds nothing (W0778, did-you-mean) and what is ambiguous
// (E0779).
#include <catch2/catch.hpp>

#include "compiler/relax/bind_params.h"

using relax::compiler::relax_passes::match_params;
using relax::compiler::relax_passes::ParamBinding;

namespace {

struct Matched {
  std::vector<std::pair<size_t, std::string>> bindings;
  relax::ir::DiagnosticBag diags;
};

Matched match(const std::vector<std::string>& tensors, const std::vector<std::string>& params) {
  Matched m;
  for (const ParamBinding& b : match_params(tensors, params, "w.safetensors", "main", {}, m.diags))
    m.bindings.emplace_back(b.param, b.tensor);
  return m;
}

}  // namespace

TEST_CASE("match_params: exact names first, then dots as underscores, in parameter order") {
  auto m = match({"fc.bias", "conv.weight", "x_scale", "a.b.c"},
                 {"x", "conv_weight", "x_scale", "fc_bias", "a_b_c"});
  CHECK(m.diags.empty());
  CHECK(m.bindings == std::vector<std::pair<size_t, std::string>>{
                          {1, "conv.weight"}, {2, "x_scale"}, {3, "fc.bias"}, {4, "a.b.c"}});
}

TEST_CASE("match_params: a tensor that binds nothing is a warning with a did-you-mean") {
  auto m = match({"conv.wieght", "running_mean"}, {"x", "conv_weight"});
  CHECK(m.bindings.empty());
  REQUIRE(m.diags.size() == 2);
  const auto& typo = m.diags.items()[0];
  CHECK(typo.code == "W0778");
  CHECK(typo.severity == relax::ir::Severity::kWarning);
  CHECK(typo.message == "tensor `conv.wieght` of w.safetensors binds no parameter of `main`");
  CHECK(typo.notes == std::vector<std::string>{"did you mean `conv_weight`?"});
  // Nothing close: the note lists what is left to bind.
  CHECK(m.diags.items()[1].notes ==
        std::vector<std::string>{"the parameters it could bind: `x`, `conv_weight`"});
}

TEST_CASE("match_params: two tensors for one parameter, or one for two, are errors") {
  auto both = match({"fc.bias", "fc_bias", "w"}, {"x", "fc_bias", "w"});
  REQUIRE(both.diags.size() == 1);
  CHECK(both.diags.items()[0].code == "E0779");
  CHECK(both.diags.items()[0].message ==
        "tensors `fc.bias` and `fc_bias` of w.safetensors all name parameter `fc_bias` of `main`");
  CHECK(both.bindings == std::vector<std::pair<size_t, std::string>>{{2, "w"}});
  auto two = match({"a.b", "a_b"}, {"x", "a_b", "a_b"});
  REQUIRE(two.diags.size() == 2);
  for (const auto& d : two.diags.items()) {
    CHECK(d.code == "E0779");
    CHECK(d.message.find("matches 2 parameters of `main` called `a_b`") != std::string::npos);
  }
  CHECK(two.bindings.empty());
}
