// Inference of the elementwise unary ops and the activations (SEMANTICS.md §3.1-3.2; TVM's
// test_op_unary.py and test_op_nn.py): static, symbolic and unknown shapes, dtype requirements.
#include <catch2/catch.hpp>

#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;

TEST_CASE("unary: struct info is kept") {
  auto r = infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.exp(x)");
  CHECK(r.sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(r.call == "R.exp(x)");
  CHECK(r.errors.empty());
}
