// Lowered text runs again: every e2e run case (run_cases.cc) and every example (examples/ and the
// shared examples) gives the same results, bit for bit, when it is built from the text printed
// after each prefix of the default pipeline (`relax opt -p P1,..,Pk`, printed, parsed,
// normalized, then built with the whole pipeline again as `relax build` does). Kills are checked
// after every pass (PassContext::verify).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "compiler/pipeline.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/compiler/e2e/run_cases.h"
#include "tests/support/test_util.h"
#include "vm/runtime.h"

using namespace relax;
using namespace relax::compiler;
using test::e2e::RunCall;

namespace {

std::string errors_of(const ir::DiagnosticBag& diags) {
  std::string out;
  for (const auto& d : diags.items())
    if (d.severity == ir::Severity::kError) out += d.code + ": " + d.message + "\n";
  return out;
}

ir::Ref<ir::IRModule> parse(const std::string& text, const std::string& name) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, name, diags);
  INFO(name << ":\n" << errors_of(diags));
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  return parsed.module;
}

// A call's result: the value, or the run-time error's message.
struct Outcome {
  bool ok = false;
  vm::Value value;
  std::string error;
};

std::string describe(const vm::Value& v) {
  if (auto t = v.as_tensor()) return vm::describe_value(v) + " " + vm::shape_string(t->shape());
  return vm::describe_value(v);
}

// Exact equality: kinds, dtypes, shapes and bytes.
bool same_value(const vm::Value& a, const vm::Value& b, std::string& why) {
  if (a.kind() != b.kind()) {
    why = describe(a) + " vs " + describe(b);
    return false;
  }
  bool same = true;
  switch (a.kind()) {
    case vm::ValueKind::kTensor:
      same = vm::tensor_equal(*a.as_tensor(), *b.as_tensor());
      break;
    case vm::ValueKind::kTuple:
      if (a.as_tuple()->size() != b.as_tuple()->size()) {
        same = false;
        break;
      }
      for (size_t i = 0; i < a.as_tuple()->size(); ++i) {
        if (!same_value((*a.as_tuple())[i], (*b.as_tuple())[i], why)) {
          why = "field " + std::to_string(i) + ": " + why;
          return false;
        }
      }
      return true;
    case vm::ValueKind::kShape: {
      auto x = a.as_shape()->dims(), y = b.as_shape()->dims();
      same = std::equal(x.begin(), x.end(), y.begin(), y.end());
      break;
    }
    case vm::ValueKind::kInt:
      same = a.as_int() == b.as_int();
      break;
    case vm::ValueKind::kFloat:
      same = a.as_float() == b.as_float();
      break;
    case vm::ValueKind::kString:
      same = a.as_string()->str() == b.as_string()->str();
      break;
    case vm::ValueKind::kNull:
      break;
    default:
      why = "cannot compare " + describe(a);
      return false;
  }
  if (!same) why = describe(a) + " differs from " + describe(b);
  return same;
}

std::vector<Outcome> run_calls(const ir::Ref<ir::IRModule>& module,
                               const std::vector<RunCall>& calls, const std::string& what) {
  PassContext ctx;
  ctx.verify = true;  // well-formedness and kills after every pass
  auto result = build(module, Target::host(), ctx);
  INFO(what << ": the build failed:\n" << errors_of(ctx.diagnostics()));
  REQUIRE(result.ok());
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  INFO((m ? "" : m.error().message));
  REQUIRE(m);
  std::vector<Outcome> out;
  for (const RunCall& call : calls) {
    auto r = m->invoke(call.func, call.args);
    Outcome o;
    o.ok = r.ok();
    if (r)
      o.value = *r;
    else
      o.error = r.error().message;
    out.push_back(std::move(o));
  }
  return out;
}

void check_same(const std::vector<Outcome>& want, const std::vector<Outcome>& got,
                const std::string& what) {
  REQUIRE(want.size() == got.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO(what << ", call " << i);
    REQUIRE(want[i].ok == got[i].ok);
    if (!want[i].ok) {
      CHECK(want[i].error == got[i].error);
      continue;
    }
    std::string why;
    bool same = same_value(want[i].value, got[i].value, why);
    INFO(why);
    CHECK(same);
  }
}

// The module printed after each prefix of the default pipeline: texts[k] after its first k
// passes (texts[0] as written). The passes run once, one after another, as `build` runs them;
// running a prefix from scratch runs the same passes on the same module in the same order.
std::vector<std::string> prefix_texts(const ir::Ref<ir::IRModule>& module,
                                      const std::string& name) {
  Pass pipeline = default_pipeline(Target::host());
  PassContext ctx;
  ctx.verify = true;
  syntax::PrintOptions options;
  options.show_meta = true;  // tensor constants (FoldConstant) read back with their data
  std::vector<std::string> texts = {syntax::print_module(*module, options)};
  ir::Ref<ir::IRModule> m = module;
  for (const Pass& pass : pipeline.children) {
    m = run_pass(pass, m, ctx);
    INFO(name << " after " << pass.name << ":\n" << errors_of(ctx.diagnostics()));
    REQUIRE(m);
    REQUIRE_FALSE(ctx.diagnostics().has_errors());
    texts.push_back(syntax::print_module(*m, options));
  }
  return texts;
}

std::string after_prefix(size_t k) {
  Pass pipeline = default_pipeline(Target::host());
  if (k == 0) return "printed as written";
  if (k == pipeline.children.size()) return "after the whole pipeline";
  return "after the first " + std::to_string(k) + " passes (up to " +
         pipeline.children[k - 1].name + ")";
}

// ---- inputs for the examples, from their parameters' struct info -------------------------------

// Values of symbolic dims by call: every name the same within a call.
int64_t dim_value(size_t call) {
  return call == 0 ? 3 : 5;
}

std::optional<vm::Value> example_input(const ir::Ref<ir::Var>& param, size_t call,
                                       std::mt19937& rng) {
  auto t = param->struct_info.as<ir::TensorStructInfo>();
  if (!t || t->is_unknown_dtype()) return std::nullopt;
  std::vector<int64_t> shape;
  if (const auto* dims = t->shape_values()) {
    for (const auto& d : *dims) {
      if (auto c = ir::tir::as_const_int(d))
        shape.push_back(*c);
      else if (d.is<ir::tir::Var>())
        shape.push_back(dim_value(call));
      else
        return std::nullopt;
    }
  } else if (t->ndim >= 0) {
    shape.assign(static_cast<size_t>(t->ndim), dim_value(call));
  } else {
    return std::nullopt;
  }
  auto dtype = vm::parse_dtype(t->dtype.str());
  if (!dtype) return std::nullopt;
  vm::Tensor out = vm::empty_tensor(shape, *dtype);
  int64_t n = out->numel();
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> small(0, 4);
  for (int64_t i = 0; i < n; ++i) {
    if (*dtype == vm::kFloat32)
      out->data_as<float>()[i] = real(rng);
    else if (*dtype == vm::kBool)
      out->data_as<uint8_t>()[i] = call == 0 ? 1 : 0;  // both branches of an if
    else if (*dtype == vm::kInt32)
      out->data_as<int32_t>()[i] = small(rng);
    else if (*dtype == vm::kInt64)
      out->data_as<int64_t>()[i] = small(rng);
    else
      return std::nullopt;
  }
  return vm::Value(out);
}

// Whether the calls of `f` get other shapes (symbolic or unknown dims) or bool values.
bool varies(const ir::Function& f) {
  for (const auto& p : f.params) {
    auto t = p->struct_info.as<ir::TensorStructInfo>();
    if (!t) continue;
    if (t->dtype.str() == "bool") return true;
    const auto* dims = t->shape_values();
    if (!dims) return true;
    for (const auto& d : *dims)
      if (!ir::tir::as_const_int(d)) return true;
  }
  return false;
}

// Calls of every public Relax function whose parameters are tensors of known dtype and rank: one,
// and a second with other sizes and bools where the parameters have them.
std::vector<RunCall> example_calls(const ir::IRModule& module) {
  std::vector<RunCall> calls;
  std::mt19937 rng(3);
  for (size_t c = 0; c < 2; ++c) {
    for (const auto& m : module.functions) {
      auto f = ir::as_relax_function(m.func);
      if (!f || !f->attrs.contains("global_symbol")) continue;
      RunCall call{m.gvar->name, {}};
      bool ok = true;
      for (const auto& p : f->params) {
        auto v = example_input(p, c, rng);
        if (!v) {
          ok = false;
          break;
        }
        call.args.push_back(*v);
      }
      // A second call where it differs in more than values: symbolic sizes or a bool.
      if (ok && (c == 0 || varies(*f))) calls.push_back(std::move(call));
    }
  }
  return calls;
}

struct Example {
  std::string name;  // "examples/mlp.relax", "shared/01_static_add.relax"
  std::filesystem::path path;
};

std::vector<Example> examples() {
  std::vector<Example> out;
  for (const auto& p : test::list_files(test::source_dir() / "examples", ".relax"))
    out.push_back({"examples/" + p.filename().string(), p});
  if (auto shared = test::shared_dir()) {
    for (const auto& p : test::list_files(*shared / "examples", ".relax"))
      out.push_back({"shared/" + p.filename().string(), p});
  }
  return out;
}

// A module the sweep checks: an e2e run case (calls given) or an example (calls made from its
// parameters' struct info).
struct Subject {
  std::string name;
  std::string text;
  std::function<std::vector<RunCall>()> make_calls;
  std::function<std::vector<RunCall>(const ir::IRModule&)> calls_for;
};

// while_loop with its accumulator started from x * 0 rather than R.zeros: the same loop with no
// tensor constant to fold (while_loop's R.zeros becomes one, carried in the metadata section).
Subject while_loop_from_x() {
  const auto& loop = test::e2e::case_named("while_loop");
  std::string text = loop.text;
  std::string zeros = "R.zeros(R.shape([2, 3]), \"float32\")";
  auto at = text.find(zeros);
  REQUIRE(at != std::string::npos);
  text.replace(at, zeros.size(), "R.multiply(x, R.const(0, \"float32\"))");
  return {"while_loop_from_x", text, loop.calls, {}};
}

// Every e2e run case, the loop above and every example, in a fixed order.
std::vector<Subject> subjects() {
  std::vector<Subject> out;
  for (const auto& c : test::e2e::run_cases()) out.push_back({c.name, c.text, c.calls, {}});
  out.push_back(while_loop_from_x());
  for (const auto& e : examples())
    out.push_back({e.name, test::read_file(e.path), {}, example_calls});
  return out;
}

// How many distinct texts a subject's sweep built and ran.
size_t check_subject(const Subject& s) {
  auto module = parse(s.text, s.name);
  auto calls_of = [&] { return s.calls_for ? s.calls_for(*module) : s.make_calls(); };
  // Fresh inputs for every build: some modules write into their inputs.
  auto want = run_calls(module, calls_of(), s.name + " as written");
  auto texts = prefix_texts(module, s.name);
  // A text printed before reads back as the same module, with the same results: built once.
  std::vector<const std::string*> checked;
  for (size_t k = 0; k < texts.size(); ++k) {
    const std::string& text = texts[k];
    if (std::any_of(checked.begin(), checked.end(), [&](auto* t) { return *t == text; })) continue;
    checked.push_back(&text);
    std::string what = s.name + " " + after_prefix(k);
    INFO(what << ", printed:\n" << text);
    check_same(want, run_calls(parse(text, s.name + ".lowered.relax"), calls_of(), what), what);
  }
  return checked.size();
}

// The sweep is cut into parts, each its own CTest entry, so `ctest -j` runs them side by side.
// Subjects go round robin over the parts in their fixed order.
constexpr size_t kParts = 4;

void check_part(size_t part) {
  auto all = subjects();
  for (size_t i = part; i < all.size(); i += kParts) {
    SECTION(all[i].name) {
      size_t distinct = check_subject(all[i]);
      INFO(all[i].name);
      CHECK(distinct >= 2);  // as written and lowered differ at least
    }
  }
}

}  // namespace

// Every e2e run case and example gives the same results, bit for bit, when it is built from the
// text printed after each prefix of the default pipeline (the empty one and the whole one
// included), as `relax opt -p P1,..,Pk` then `relax build` would.
TEST_CASE("round trip: after every prefix of the pipeline (part 1 of 4)") {
  check_part(0);
}
TEST_CASE("round trip: after every prefix of the pipeline (part 2 of 4)") {
  check_part(1);
}
TEST_CASE("round trip: after every prefix of the pipeline (part 3 of 4)") {
  check_part(2);
}
TEST_CASE("round trip: after every prefix of the pipeline (part 4 of 4)") {
  check_part(3);
}

TEST_CASE("round trip: the sweep covers every run case and every example") {
  static_assert(kParts == 4, "one TEST_CASE per part above");
  auto all = subjects();
  std::vector<std::string> names;
  for (const auto& s : all) names.push_back(s.name);
  std::vector<std::string> want = {"while_loop_from_x"};
  for (const auto& c : test::e2e::run_cases()) want.push_back(c.name);
  for (const auto& e : examples()) want.push_back(e.name);
  std::sort(names.begin(), names.end());
  std::sort(want.begin(), want.end());
  CHECK(names == want);
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());  // each once
  CHECK(examples().size() >= 6);  // examples/ has six; the shared examples add more when present
  // Every example with a public Relax function is run, with inputs made from its parameters
  // (shared/07 holds only a prim_func and is built, not run).
  for (const auto& e : examples()) {
    INFO(e.name);
    if (e.name != "shared/07_tir_matmul.relax")
      CHECK_FALSE(example_calls(*parse(test::read_file(e.path), e.name)).empty());
  }
}
