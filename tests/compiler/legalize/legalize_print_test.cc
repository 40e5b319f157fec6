// Printed TIR of legalizations compared with what TVM v0.20 prints for the same modules.
#include <catch2/catch.hpp>

#include <iostream>

#include "tests/compiler/legalize/legalize_test_util.h"

using namespace relax;
using namespace relax::legalize_test;

TEST_CASE("legalize print: dump") {
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, "c", "d"), "float32"), y: R.Tensor(("a", "b", "c", 1), "float32"), z: R.Tensor((2, 3), "float32"), w: R.Tensor((3, 4), "float32")):
        a = R.add(x, y)
        e = R.exp(z)
        s = R.sum(z, axis=[1])
        m = R.matmul(z, w)
        return (a, e, s, m)
)");
  std::cout << r.text;
}
