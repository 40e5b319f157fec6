// No input makes op inference crash, hang or overflow: every registered op is called with
// pseudo-random arguments (tensors of known, symbolic and unknown shape, shapes, prim values,
// tuples, unknown values) and attributes (negative, huge, empty, wrongly typed values), and a few
// hand-picked extreme values run through the whole harness. Run under the asan preset.
#include <catch2/catch.hpp>

#include <cstdint>

#include "analysis/ops/op_registry.h"
#include "tests/analysis/ops_test_util.h"

using namespace relax;
using ir::make;
using ir::Ref;
using Strings = std::vector<std::string>;

namespace {

struct Lcg {
  uint64_t state;
  uint64_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
  size_t pick(size_t n) { return static_cast<size_t>(next() % n); }
};

std::vector<Ref<ir::Expr>> argument_pool() {
  auto n = make<ir::tir::Var>("n", ir::DataType::Int64());
  auto var = [](const char* name, Ref<ir::StructInfo> s) {
    return Ref<ir::Expr>(make<ir::Var>(name, std::move(s)));
  };
  using PE = std::vector<Ref<ir::tir::PrimExpr>>;
  auto f32 = ir::DataType::Float32();
  std::vector<Ref<ir::Expr>> pool{
      var("t4",
          ir::tensor_sinfo(
              PE{ir::tir::int64(2), ir::tir::int64(3), ir::tir::int64(4), ir::tir::int64(5)}, f32)),
      var("t2", ir::tensor_sinfo(PE{ir::tir::int64(0), ir::tir::int64(1)}, f32)),
      var("tn", ir::tensor_sinfo(PE{n, ir::tir::int64(4)}, ir::DataType::Float(16))),
      var("ti", ir::tensor_sinfo(PE{ir::tir::int64(3)}, ir::DataType::Int64())),
      var("t0", ir::tensor_sinfo(PE{}, f32)),
      var("tr", ir::tensor_sinfo(3, f32)),
      var("tu", ir::tensor_sinfo(ir::kUnknownNDim, ir::DataType::Void())),
      var("s", make<ir::ShapeStructInfo>(PE{ir::tir::int64(2), ir::tir::int64(3)})),
      var("su", make<ir::ShapeStructInfo>(ir::kUnknownNDim)),
      var("p", make<ir::PrimStructInfo>(ir::DataType::Int64())),
      var("o", make<ir::ObjectStructInfo>()),
      var("tup", make<ir::TupleStructInfo>(std::vector<Ref<ir::StructInfo>>{
                     ir::tensor_sinfo(PE{ir::tir::int64(2), ir::tir::int64(3)}, f32),
                     ir::tensor_sinfo(PE{n, ir::tir::int64(3)}, f32)})),
      var("empty", make<ir::TupleStructInfo>()),
      make<ir::PrimValue>(ir::tir::int64(-1)),
      make<ir::PrimValue>(ir::tir::int64(INT64_MAX)),
      make<ir::PrimValue>(ir::tir::float_imm(ir::DataType::Float(64), 0.5)),
      make<ir::ShapeExpr>(PE{ir::tir::int64(-1), ir::tir::int64(0), n}),
      make<ir::Tuple>(std::vector<Ref<ir::Expr>>{make<ir::PrimValue>(ir::tir::int64(INT64_MIN))}),
      make<ir::Tuple>(),
  };
  return pool;
}

std::vector<ir::ObjectRef> attribute_pool() {
  auto ints = [](std::vector<int64_t> v) {
    auto arr = make<ir::ArrayValue>();
    for (int64_t x : v) arr->items.push_back(make<ir::IntValue>(x));
    return ir::ObjectRef(arr);
  };
  return {nullptr,
          make<ir::IntValue>(0),
          make<ir::IntValue>(-1),
          make<ir::IntValue>(INT64_MAX),
          make<ir::IntValue>(INT64_MIN),
          make<ir::IntValue>(100000),
          make<ir::FloatValue>(-0.5),
          make<ir::BoolValue>(true),
          make<ir::StringValue>("NCHW16c"),
          make<ir::StringValue>("void"),
          make<ir::StringValue>("ij,jk->ik"),
          make<ir::StringValue>("...i,...->"),
          make<ir::StringValue>(""),
          ints({}),
          ints({0}),
          ints({INT64_MAX, INT64_MIN}),
          ints({1, 2, 3, 4, 5, 6, 7, 8, 9}),
          ints({-1, -1})};
}

}  // namespace

TEST_CASE("robustness: every op survives random arguments and attributes") {
  auto args = argument_pool();
  auto attrs = attribute_pool();
  Lcg rng{12345};
  size_t calls = 0, inferred = 0;
  for (const analysis::OpInfo* op : analysis::OpRegistry::global().all()) {
    for (int trial = 0; trial < 120; ++trial) {
      size_t n_args = op->args.size() + (trial % 3) - 1;  // one fewer, as many, one more
      if (trial % 3 == 0 && op->args.empty()) n_args = 0;
      std::vector<Ref<ir::Expr>> call_args;
      for (size_t i = 0; i < n_args; ++i) call_args.push_back(args[rng.pick(args.size())]);
      ir::Attrs call_attrs;
      for (const auto& spec : op->attrs) {
        if (rng.pick(3) == 0) call_attrs.set(spec.name, attrs[rng.pick(attrs.size())]);
      }
      auto call =
          make<ir::Call>(ir::Op::get(op->name), std::move(call_args), std::move(call_attrs));
      ir::DiagnosticBag diags;
      Ref<ir::Call> canonical;
      auto sinfo = test::infer_call(call, diags, canonical);
      ++calls;
      if (sinfo) ++inferred;
      // A failure always says why.
      if (!sinfo) CHECK_FALSE(diags.empty());
    }
  }
  CHECK(calls > 10000);
  CHECK(inferred > 0);
}

TEST_CASE("robustness: extreme attribute values are diagnosed, not overflowed") {
  const char* x = R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))";
  CHECK_FALSE(test::infer_op(x, "R.nn.conv2d(x, w, padding=9223372036854775807)").sinfo.empty());
  CHECK_FALSE(test::infer_op(x, "R.nn.max_pool2d(x, 3, 9223372036854775807, ceil_mode=True)")
                  .sinfo.empty());
  CHECK(test::infer_op(x, "R.split(x, 100000000)").errors == Strings{"E0316@100000000"});
  CHECK_FALSE(
      test::infer_op(x, "R.strided_slice(x, [0], [0], [9223372036854775807])").sinfo.empty());
  CHECK(test::infer_op(x, "R.strided_slice(x, [0], [0], [9223372036854775807])").sinfo ==
        R"(R.Tensor((2, 3, 28, 28), dtype="float32"))");
  CHECK_FALSE(
      test::infer_op(x, "R.strided_slice(x, [0], [3], [0], [-9223372036854775807])").sinfo.empty());
  CHECK_FALSE(
      test::infer_op(x, "R.nn.pad(x, [9223372036854775807, 9223372036854775807, 0, 0, 0, 0, 0, 0])")
          .sinfo.empty());
  CHECK_FALSE(test::infer_op(x, "R.nn.pixel_shuffle(x, 4294967296)").sinfo.empty());
  CHECK_FALSE(test::infer_op("", "R.arange(0.0, 1e300, 1e-300)").sinfo.empty());
  CHECK_FALSE(test::infer_op(x, "R.tile(x, [9223372036854775807, 2])").sinfo.empty());
  CHECK_FALSE(test::infer_op(x, "R.repeat(x, 9223372036854775807)").sinfo.empty());
  CHECK(test::infer_op(x, "R.gather_nd(x, R.const([[9223372036854775807]], \"int64\"))")
            .errors.size() <= 1);
}
