// TVM's metadata section: the codec (base64, NDArray blobs, the JSON graph), reading a section
// laid out as TVM prints it, printing constants with show_meta and reading them back exactly,
// and the diagnostics of a broken section or a reference outside it.
#include <catch2/catch.hpp>
#include <cstring>

#include "relax_test_util.h"
#include "syntax/metadata.h"

using namespace relax;

namespace {

// A module that refers to two constants of a section laid out as TVM v0.20 prints it (dmlc's
// JSON writer, quotes escaped): float32 [1, 2] (no struct info: the blob's dtype code decides)
// and a 0-d bfloat16 1.0 (its TensorStructInfo names the dtype). The blobs were encoded with
// Python's struct and base64 modules, independently of syntax/metadata.cc.
const char* kTvmSection = R"(metadata = tvm.ir.load_json("""{
  \"root\": 1, 
  \"nodes\": [
    {
      \"type_key\": \"\"
    }, 
    {
      \"type_key\": \"Map\", 
      \"keys\": [
        \"relax.expr.Constant\"
      ], 
      \"data\": [2]
    }, 
    {
      \"type_key\": \"Array\", 
      \"data\": [3, 4]
    }, 
    {
      \"type_key\": \"relax.expr.Constant\", 
      \"attrs\": {
        \"_checked_type_\": \"0\", 
        \"data\": \"0\", 
        \"span\": \"0\", 
        \"struct_info_\": \"0\"
      }
    }, 
    {
      \"type_key\": \"relax.expr.Constant\", 
      \"attrs\": {
        \"_checked_type_\": \"0\", 
        \"data\": \"1\", 
        \"span\": \"0\", 
        \"struct_info_\": \"5\"
      }
    }, 
    {
      \"type_key\": \"relax.TensorStructInfo\", 
      \"attrs\": {
        \"dtype\": \"bfloat16\", 
        \"ndim\": \"0\", 
        \"shape\": \"0\", 
        \"span\": \"0\", 
        \"vdevice\": \"0\"
      }
    }
  ], 
  \"b64ndarrays\": [
    \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQACAAAAAAAAAAgAAAAAAAAAAACAPwAAAEA=\", 
    \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAAAAAAQQAQACAAAAAAAAAIA/\"
  ], 
  \"attrs\": {\"tvm_version\": \"0.20.0\"}
}""")
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        y: R.Tensor((2,), dtype="float32") = R.add(x, metadata["relax.expr.Constant"][0])
        z: R.Tensor((), dtype="bfloat16") = metadata["relax.expr.Constant"][1]
        return y
)";

// The constants of a module's `main`, in binding order (one per binding value or argument).
std::vector<ir::Ref<ir::Constant>> constants_of(const test::Parsed& p) {
  std::vector<ir::Ref<ir::Constant>> out;
  for (const auto& b : test::bindings(p.function("main"))) {
    auto vb = b.as<ir::VarBinding>();
    if (!vb) continue;
    if (auto c = vb->value.as<ir::Constant>()) out.push_back(c);
    if (auto call = vb->value.as<ir::Call>()) {
      for (const auto& a : call->args) {
        if (auto c = a.as<ir::Constant>()) out.push_back(c);
      }
    }
  }
  return out;
}

std::string print_meta(const test::Parsed& p) {
  syntax::PrintOptions options;
  options.show_meta = true;
  return syntax::print_module(*p.result.module, options);
}

template <typename T>
std::vector<uint8_t> bytes_of(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

}  // namespace

TEST_CASE("metadata: base64 round-trips and rejects what is not base64") {
  for (size_t n = 0; n < 7; ++n) {
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i < n; ++i) bytes.push_back(static_cast<uint8_t>(250 - 37 * i));
    std::vector<uint8_t> back;
    REQUIRE(syntax::base64_decode(syntax::base64_encode(bytes), back));
    CHECK(back == bytes);
  }
  CHECK(syntax::base64_encode({'M', 'a', 'n'}) == "TWFu");
  CHECK(syntax::base64_encode({'M', 'a'}) == "TWE=");
  CHECK(syntax::base64_encode({'M'}) == "TQ==");
  std::vector<uint8_t> out;
  CHECK_FALSE(syntax::base64_decode("TWF", out));   // not a multiple of 4
  CHECK_FALSE(syntax::base64_decode("TW!u", out));  // not an alphabet character
  CHECK_FALSE(syntax::base64_decode("TQ==TWFu", out));
}

TEST_CASE("metadata: a section as TVM prints it gives its constants their payloads") {
  auto p = test::parse(kTvmSection);
  INFO(p.messages());
  REQUIRE(p.diags.empty());
  auto cs = constants_of(p);
  REQUIRE(cs.size() == 2);
  REQUIRE(cs[0]->data);
  CHECK(cs[0]->data->dtype.str() == "float32");
  CHECK(cs[0]->data->shape == std::vector<int64_t>{2});
  CHECK(cs[0]->data->bytes == bytes_of<float>({1.0f, 2.0f}));
  REQUIRE(cs[1]->data);
  CHECK(cs[1]->data->dtype.str() == "bfloat16");
  CHECK(cs[1]->data->shape.empty());
  CHECK(cs[1]->data->bytes == std::vector<uint8_t>{0x80, 0x3f});
  // Without show_meta the text is TVM's default: references and the closing comment.
  std::string plain = test::print(p);
  CHECK(plain.starts_with("# from tvm.script import ir as I\n"));
  CHECK(
      plain.ends_with("\n\n# Metadata omitted. Use show_meta=True in script() method to show it."));
}

TEST_CASE("metadata: show_meta prints a section that reads back to the same bytes") {
  // Constants of several dtypes and ranks: int8, uint16, bool, float16, float64, bfloat16, a 0-d
  // uint32 (not printed inline) and a 0-d float32 (printed inline, as TVM does).
  const char* in = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        a = R.const([[1, -2, 3], [127, -128, 0]], "int8")
        b = R.const([65535, 7], "uint16")
        c = R.const([True, False, True], "bool")
        d = R.const([0.5, -2.25, 65504.0], "float16")
        e = R.const([[1e300, -3.5e-310]], "float64")
        f = R.const([1.5, -0.0078125], "bfloat16")
        g = R.const(4000000000, "uint32")
        h = R.const(2.5, "float32")
        k = R.const([1, 2], "int8")
        return (a, b, c, d, e, f, g, h, k, a)
)";
  auto p = test::parse(in);
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  std::string text = print_meta(p);
  INFO(text);
  CHECK(text.starts_with("metadata = tvm.ir.load_json(\"\"\"{\n  \\\"root\\\": 1,\n"));
  CHECK(text.find("\"\"\")\n# from tvm.script import ir as I\n") != std::string::npos);
  CHECK(text.find("Metadata omitted") == std::string::npos);
  CHECK(text.find("h = R.const(2.5, \"float32\")") != std::string::npos);
  // Eight constants go to the section (h is inline).
  CHECK(text.find("metadata[\"relax.expr.Constant\"][7]") != std::string::npos);
  CHECK(text.find("metadata[\"relax.expr.Constant\"][8]") == std::string::npos);
  auto back = test::parse(text);
  INFO(back.messages());
  REQUIRE(back.diags.empty());
  auto before = constants_of(p), after = constants_of(back);
  REQUIRE(before.size() == 9);
  REQUIRE(after.size() == 9);
  for (size_t i = 0; i < before.size(); ++i) {
    REQUIRE(after[i]->data);
    CHECK(after[i]->data->dtype == before[i]->data->dtype);
    CHECK(after[i]->data->shape == before[i]->data->shape);
    CHECK(after[i]->data->bytes == before[i]->data->bytes);
  }
  CHECK(print_meta(back) == text);  // printing is a fixpoint
}

TEST_CASE("metadata: the JSON graph has TVM's node kinds for each constant") {
  ir::TensorData d;
  d.dtype = *ir::DataType::parse("int32");
  d.shape = {2};
  d.bytes = bytes_of<int32_t>({7, -1});
  std::string json = syntax::metadata_json({&d});
  for (const char* part :
       {R"({"type_key": "Map", "keys": ["relax.expr.Constant"], "data": [2]})",
        R"({"type_key": "Array", "data": [3]})",
        R"({"type_key": "relax.expr.Constant", "attrs": {"_checked_type_": "10", "data": "0", )"
        R"("span": "0", "struct_info_": "4"}})",
        R"({"type_key": "relax.TensorStructInfo", "attrs": {"dtype": "int32", "ndim": "1", )"
        R"("shape": "5", "span": "0", "vdevice": "0"}})",
        R"({"type_key": "IntImm", "attrs": {"dtype": "int64", "span": "0", "value": "2"}})",
        R"({"type_key": "relax.DynTensorType", "attrs": {"dtype": "int32", "ndim": "1", )"
        R"("span": "0"}})",
        R"("attrs": {"tvm_version": "0.20.0"})"}) {
    CHECK(json.find(part) != std::string::npos);
  }
  std::vector<syntax::ConstantData> back;
  std::string error;
  REQUIRE(syntax::parse_metadata_json(json, back, error));
  REQUIRE(back.size() == 1);
  CHECK(*back[0] == d);
}

TEST_CASE("metadata: a broken section is one error, a reference outside it another") {
  std::string broken = kTvmSection;
  broken.replace(broken.find("P6G0lvBAXt0"), 4, "P6G!");
  auto p = test::parse(broken);
  CHECK(p.errors() == std::vector<std::string>{"E0246@1:29"});
  CHECK(p.messages().find("tensor blob 0 is not base64") != std::string::npos);

  std::string truncated = kTvmSection;
  truncated.replace(truncated.find("AAACAPwAAAEA="), 13, "AAACAPw==");
  auto t = test::parse(truncated);
  CHECK(t.errors() == std::vector<std::string>{"E0246@1:29"});
  CHECK(t.messages().find("constant 0: the tensor blob holds") != std::string::npos);

  std::string beyond = kTvmSection;
  beyond.replace(beyond.find("metadata[\"relax.expr.Constant\"][1]"), 34,
                 "metadata[\"relax.expr.Constant\"][2]");
  auto b = test::parse(beyond);
  REQUIRE(b.errors().size() == 1);
  CHECK(b.errors()[0].starts_with("E0247@"));
  CHECK(b.messages().find("which holds 2 constants") != std::string::npos);

  // Any other value is not interpreted (W0201): references stay without value (E0248).
  auto other = test::parse(
      "metadata = {}\n@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n"
      "    c: R.Tensor((2,), \"float32\") = metadata[\"relax.expr.Constant\"][0]\n    return c\n");
  CHECK(other.errors() == std::vector<std::string>{"E0248@4:36"});
  REQUIRE(other.diags.size() == 2);
  CHECK(other.diags.items()[0].code == "W0201");
}
