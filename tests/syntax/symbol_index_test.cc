// The front end's symbol index (syntax/symbol_index.h): on annotated sources, every definition
// and use the front end resolves, with its kind, its function and its exact byte range.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "ir/module.h"
#include "syntax/frontend.h"
#include "tests/support/annotations.h"
#include "tests/support/test_util.h"

using namespace relax;
using relax::test::Annotations;
using relax::test::ByteRange;
using syntax::SymbolKind;

namespace {

struct Indexed {
  Annotations code;
  ir::DiagnosticBag diags;
  syntax::FrontendResult result;

  explicit Indexed(std::string_view annotated) : code(annotated) {
    result = syntax::parse_text(code.code(), "symbols.relax", diags);
    REQUIRE(result.symbols);
  }
  const syntax::SymbolIndex& index() const { return *result.symbols; }

  // The symbol whose definition is the first range named `name`.
  const syntax::Symbol& defined_at(const std::string& name) const {
    ByteRange def = code.ranges(name).at(0);
    const syntax::Symbol* s = index().symbol_at(def.begin);
    INFO("no symbol at the definition of $" << name);
    REQUIRE(s);
    return *s;
  }
};

ByteRange range_of(const ir::Span& s) {
  return ByteRange{s.begin, s.end};
}

std::vector<ByteRange> ranges_of(const std::vector<ir::Span>& spans) {
  std::vector<ByteRange> out;
  for (const ir::Span& s : spans) out.push_back(range_of(s));
  return out;
}

// The symbol defined at the first range named `name` is used exactly at the others.
void check_symbol(const Indexed& t, const std::string& name, SymbolKind kind,
                  const std::string& spelling, const std::string& function) {
  INFO("$" << name);
  std::string dump;  // every occurrence, for the failure message: name@offset#symbol(d: defines)
  for (const syntax::Occurrence& o : t.index().occurrences())
    dump += t.index().symbols()[o.symbol].name + "@" + std::to_string(o.span.begin) + "#" +
            std::to_string(o.symbol) + (o.is_definition ? "d " : " ");
  INFO(dump);
  const syntax::Symbol& s = t.defined_at(name);
  std::vector<ByteRange> marked = t.code.ranges(name);
  CHECK(s.name == spelling);
  CHECK(s.kind == kind);
  CHECK(s.function == function);
  CHECK(range_of(s.definition) == marked[0]);
  CHECK(ranges_of(s.uses) == std::vector<ByteRange>(marked.begin() + 1, marked.end()));
  // Every use leads back to the same symbol, from its first byte to just after its last.
  for (const ByteRange& r : marked) {
    CHECK(t.index().symbol_at(r.begin) == &s);
    CHECK(t.index().symbol_at(r.end) == &s);
  }
}

}  // namespace

TEST_CASE("symbol index: Relax parameters, bindings, dataflow, functions, symbolic dims") {
  Indexed t(R"(@I.ir_module
class Module:
    @R.function
    def $helper[[helper]]($x[[x]]: R.Tensor(("$n[[n]]", 4), "float32")) -> R.Tensor(("$n[[n]]", 4), "float32"):
        $y[[y]] = R.add($x[[x]], $x[[x]])
        return $y[[y]]

    @R.function
    def $main[[main]]($a[[a]]: R.Tensor((2, 4), "float32")) -> R.Tensor((2, 4), "float32"):
        cls = Module
        with R.dataflow():
            $lv[[lv]] = cls.$helper[[helper]]($a[[a]])
            $gv[[gv]] = R.multiply($lv[[lv]], $a[[a]])
            R.output($gv[[gv]])
        $m[[m]] = T.int64()
        $w[[w]] = R.match_cast($gv[[gv]], R.Tensor(($m[[m]], 4), "float32"))
        return $w[[w]]
)");
  REQUIRE(t.diags.error_count() == 0);
  check_symbol(t, "helper", SymbolKind::kFunction, "helper", "");
  check_symbol(t, "main", SymbolKind::kFunction, "main", "");
  check_symbol(t, "x", SymbolKind::kParameter, "x", "helper");
  check_symbol(t, "n", SymbolKind::kSymbolicVar, "n", "helper");
  check_symbol(t, "y", SymbolKind::kVariable, "y", "helper");
  check_symbol(t, "a", SymbolKind::kParameter, "a", "main");
  check_symbol(t, "lv", SymbolKind::kDataflowVariable, "lv", "main");
  check_symbol(t, "gv", SymbolKind::kVariable, "gv", "main");
  check_symbol(t, "m", SymbolKind::kSymbolicVar, "m", "main");
  check_symbol(t, "w", SymbolKind::kVariable, "w", "main");

  // Whitespace and keywords are no symbol; a function's extent is its decorated definition.
  const std::string& text = t.code.code();
  CHECK(t.index().symbol_at(static_cast<uint32_t>(text.find("return"))) == nullptr);
  const syntax::Symbol* main = t.index().enclosing_function(t.code.ranges("lv")[0].begin);
  REQUIRE(main);
  CHECK(main->name == "main");
  CHECK(text.substr(main->extent.begin, main->extent.size()).rfind("@R.function", 0) == 0);
  CHECK(t.index().enclosing_function(0) == nullptr);
  auto functions = t.index().functions();
  REQUIRE(functions.size() == 2);
  CHECK(functions[0]->name == "helper");
  CHECK(functions[1]->name == "main");
  // The symbol's object is the IR's own: the parameter is the built function's parameter (the
  // signature's second build), and the function symbol holds the module's GlobalVar.
  const ir::IRModule::Member* f = t.result.module->find("helper");
  REQUIRE(f);
  auto helper = f->func.as<ir::Function>();
  REQUIRE(helper);
  REQUIRE(helper->params.size() == 1);
  CHECK(t.defined_at("x").object.get() == helper->params[0].get());
  CHECK(t.index().find(helper->params[0].get()) == &t.defined_at("x"));
  CHECK(t.defined_at("helper").object.get() == f->gvar.get());
}

TEST_CASE("symbol index: TIR handles, buffers, loop and block variables") {
  Indexed t(R"(@T.prim_func
def $f[[add_one]]($a[[a]]: T.handle, $B[[B]]: T.Buffer((16,), "float32")):
    $A[[A]] = T.match_buffer($a[[a]], (16,), "float32")
    for $i[[i]] in range(16):
        with T.block("b"):
            $vi[[vi]] = T.axis.remap("S", [$i[[i]]])
            $B[[B]][$vi[[vi]]] = $A[[A]][$vi[[vi]]] + T.float32(1)
)");
  REQUIRE(t.diags.error_count() == 0);
  check_symbol(t, "f", SymbolKind::kFunction, "add_one", "");
  check_symbol(t, "a", SymbolKind::kTirParameter, "a", "add_one");
  check_symbol(t, "B", SymbolKind::kBuffer, "B", "add_one");
  check_symbol(t, "A", SymbolKind::kBuffer, "A", "add_one");
  check_symbol(t, "i", SymbolKind::kLoopVar, "i", "add_one");
  check_symbol(t, "vi", SymbolKind::kBlockVar, "vi", "add_one");
}

TEST_CASE("symbol index: a function that fails to build keeps its symbol") {
  Indexed t(R"(@I.ir_module
class Module:
    @R.function
    def $bad[[bad]]($x[[x]]: R.Tensor((4,), "float32")):
        y = R.add($x[[x]], undefined_name)
        return y

    @R.function
    def $good[[good]]($z[[z]]: R.Tensor((4,), "float32")):
        return $z[[z]]
)");
  CHECK(t.diags.error_count() > 0);
  CHECK_FALSE(t.result.module->find("bad"));
  check_symbol(t, "bad", SymbolKind::kFunction, "bad", "");
  check_symbol(t, "x", SymbolKind::kParameter, "x", "bad");
  check_symbol(t, "good", SymbolKind::kFunction, "good", "");
  check_symbol(t, "z", SymbolKind::kParameter, "z", "good");
  auto functions = t.index().functions();
  REQUIRE(functions.size() == 2);
  CHECK(functions[0]->name == "bad");
}

// On every conformance module (TVM's own printing of 1,387 modules) and every example: each
// occurrence the index records spells its symbol's name, occurrences never overlap, and each
// symbol with a known definition is found at it.
TEST_CASE("symbol index: every occurrence spells its name, on the conformance modules") {
  std::vector<std::filesystem::path> files = relax::test::conformance_modules();
  for (const auto& p : relax::test::list_files(relax::test::source_dir() / "examples", ".relax"))
    files.push_back(p);
  size_t occurrences = 0;
  for (const auto& path : files) {
    INFO(path.string());
    std::string text = relax::test::read_file(path);
    ir::DiagnosticBag diags;
    auto result = syntax::parse_text(text, path.string(), diags);
    REQUIRE(result.symbols);
    const syntax::SymbolIndex& index = *result.symbols;
    uint32_t last_end = 0;
    for (const syntax::Occurrence& o : index.occurrences()) {
      const syntax::Symbol& s = index.symbols()[o.symbol];
      INFO(s.name << " at " << o.span.begin);
      REQUIRE(o.span.end <= text.size());
      CHECK(text.substr(o.span.begin, o.span.size()) == s.name);
      CHECK(o.span.begin >= last_end);
      last_end = o.span.end;
      ++occurrences;
    }
    for (const syntax::Symbol& s : index.symbols()) {
      if (s.definition.is_known() && s.kind != SymbolKind::kModule)
        CHECK(index.symbol_at(s.definition.begin) == &s);
    }
  }
  INFO(files.size() << " files");
  CHECK(occurrences > 0);
}
