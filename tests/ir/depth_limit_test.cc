// ir/depth_limit.h's measures: the height of a struct info (each R.Tuple and R.Callable a
// level) over shared fields and deep chains, without recursion.
#include "ir/depth_limit.h"

#include <catch2/catch.hpp>

#include "ir/expr.h"

using namespace relax::ir;

namespace {

Ref<StructInfo> tensor() {
  return make<TensorStructInfo>(nullptr, DataType::Float(32), 1);
}

Ref<StructInfo> tuple(std::vector<Ref<StructInfo>> fields) {
  return make<TupleStructInfo>(std::move(fields));
}

}  // namespace

TEST_CASE("struct_info_height counts the levels of tuples and callables") {
  CHECK(struct_info_height(*tensor()) == 1);
  CHECK(struct_info_height(*tuple({})) == 1);
  CHECK(struct_info_height(*tuple({tensor(), tuple({tensor()})})) == 3);

  auto fn = make<FuncStructInfo>();
  fn->params = std::vector<Ref<StructInfo>>{tuple({tuple({tensor()})})};
  fn->ret = tensor();
  CHECK(struct_info_height(*fn) == 4);  // the parameter's three levels, and the callable
  auto opaque = make<FuncStructInfo>();
  opaque->ret = tuple({fn});
  CHECK(struct_info_height(*opaque) == 6);
}

TEST_CASE("struct_info_height walks shared fields once and deep chains in a loop") {
  // 2^60 paths through 61 distinct nodes.
  Ref<StructInfo> shared = tensor();
  for (int i = 0; i < 60; ++i) shared = tuple({shared, shared});
  CHECK(struct_info_height(*shared) == 61);

  // Deeper than any recursion could go on the 8 MB stack.
  Ref<StructInfo> chain = tensor();
  for (int i = 0; i < 1'000'000; ++i) chain = tuple({chain});
  CHECK(struct_info_height(*chain) == 1'000'001);
}
