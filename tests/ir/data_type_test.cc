// DataType parsing and printing.
#include <catch2/catch.hpp>

#include "ir/data_type.h"

using relax::ir::DataType;

TEST_CASE("dtype strings round-trip") {
  for (const char* name : {"float32", "float16", "bfloat16", "int64", "int32", "int8", "uint8",
                           "bool", "void", "handle", "float32x4", "int8x16", "uint1xvscalex4",
                           "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn", "int4x8", "float64"}) {
    auto t = DataType::parse(name);
    REQUIRE(t.has_value());
    CHECK(t->str() == name);
  }
}

TEST_CASE("dtype parse details") {
  CHECK(DataType::parse("float32")->bits() == 32);
  CHECK(DataType::parse("bool")->is_bool());
  CHECK(DataType::parse("void")->is_void());
  CHECK(DataType::parse("int64x4")->lanes() == 4);
  CHECK(DataType::parse("uint1xvscalex4")->is_scalable_vector());
  CHECK(DataType::parse("e4m3_float8")->str() == "float8_e4m3fn");
  CHECK_FALSE(DataType::parse("float").has_value());
  CHECK_FALSE(DataType::parse("floaty32").has_value());
  CHECK_FALSE(DataType::parse("int32x").has_value());
  CHECK_FALSE(DataType::parse("").has_value());
  CHECK(DataType::Float32().bytes() == 4);
  CHECK(DataType::Bool().bytes() == 1);
}
