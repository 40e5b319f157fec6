// Each feature of `relax lsp` on annotated sources, through the real binary: diagnostics on
// open and after incremental edits, hover, definition, references, highlights, rename (and its
// refusals), the outline, folding, formatting, and positions in UTF-16 and UTF-8 with non-BMP
// text.
#include <catch2/catch.hpp>

#include "ir/source.h"
#include "lsp_client.h"
#include "tests/support/annotations.h"

using relax::test::Annotations;
using relax::test::json;
using relax::test::LspClient;
using relax::test::test_uri;

namespace {

// LSP positions of byte offsets of `text`.
struct Positions {
  explicit Positions(const std::string& text, relax::ir::Encoding enc = relax::ir::Encoding::kUtf16)
      : file("t", text), enc(enc) {}
  json at(uint32_t offset) const {
    auto p = file.position(offset, enc);
    return {{"line", p.line}, {"character", p.column}};
  }
  json range(uint32_t b, uint32_t e) const { return {{"start", at(b)}, {"end", at(e)}}; }
  json range(relax::test::ByteRange r) const { return range(r.begin, r.end); }
  relax::ir::SourceFile file;
  relax::ir::Encoding enc;
};

json doc_pos(const std::string& uri, const json& position) {
  return {{"textDocument", {{"uri", uri}}}, {"position", position}};
}

const char* kModule = R"(from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class $module[[Module]]:
    @R.function
    def $helper[[helper]](x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.data$dataflow^flow():
            $y[[y]] = R.a$add^dd(x, x)
            $z[[z]] = R.multiply($yuse[[y]], $yuse2[[y]])
            R.output(z)
        return z

    @R.function
    def main(a: R.Tensor((8, 4), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
        cls = Module
        b = cls.$call[[helper]](a)
        return b
)";

}  // namespace

TEST_CASE("lsp features: diagnostics on open and after incremental edits") {
  LspClient client;
  client.initialize();
  std::string uri = test_uri("diag.relax");
  std::string text =
      "from tvm.script import relax as R\n\n\n@R.function\ndef main(x: R.Tensor((2, 3), "
      "dtype=\"float32\")):\n    y = R.add(x, w)\n    return y\n";
  client.open(uri, text, 1);
  json diags = client.diagnostics(uri, 1);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0]["code"] == "E0201");
  CHECK(diags[0]["severity"] == 1);
  Positions pos(text);
  uint32_t w = static_cast<uint32_t>(text.find("w)"));
  CHECK(diags[0]["range"] == pos.range(w, w + 1));
  CHECK(diags[0]["codeDescription"]["href"].get<std::string>().find("e0201") != std::string::npos);
  // Replace `w` with `x`: an incremental change fixes it.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 2}}},
                 {"contentChanges", {{{"range", pos.range(w, w + 1)}, {"text", "x"}}}}});
  CHECK(client.diagnostics(uri, 2).empty());
  // Two changes in one notification, each against the text the previous one left; then a full
  // text change.
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 3}}},
                                           {"contentChanges",
                                            {{{"range", pos.range(w, w + 1)}, {"text", "qq"}},
                                             {{"range", pos.range(w, w + 2)}, {"text", "zz"}}}}});
  json three = client.diagnostics(uri, 3);
  REQUIRE(three.size() == 1);
  CHECK(three[0]["message"].get<std::string>().find("zz") != std::string::npos);
  CHECK(three[0]["range"] == pos.range(w, w + 2));
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 4}}},
                                           {"contentChanges", {{{"text", "def broken(:\n"}}}}});
  json four = client.diagnostics(uri, 4);
  REQUIRE_FALSE(four.empty());
  CHECK(four[0]["code"].get<std::string>().rfind("E01", 0) == 0);  // a syntax error
  // Closing clears them.
  client.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  auto cleared = client.wait_for([&](const json& m) {
    return m.value("method", "") == "textDocument/publishDiagnostics" &&
           m["params"]["diagnostics"].empty() && !m["params"].contains("version");
  });
  CHECK(cleared);
}

TEST_CASE("lsp features: hover shows struct info, ops and codes") {
  Annotations code(kModule);
  LspClient client;
  client.initialize();
  std::string uri = test_uri("hover.relax");
  client.open(uri, code.code());
  client.diagnostics(uri, 1);
  Positions pos(code.code());
  json h = client.request("textDocument/hover",
                          doc_pos(uri, pos.at(code.range("yuse").begin)))["result"];
  std::string value = h["contents"]["value"];
  CHECK(value.find("y: R.Tensor((n, 4), dtype=\"float32\")") != std::string::npos);
  CHECK(value.find("`n` is bound on line 8") != std::string::npos);
  CHECK(h["range"] == pos.range(code.range("yuse")));
  json op = client.request("textDocument/hover", doc_pos(uri, pos.at(code.point("add"))))["result"];
  CHECK(op["contents"]["value"].get<std::string>().find("R.add(") != std::string::npos);
  json fn = client.request("textDocument/hover",
                           doc_pos(uri, pos.at(code.range("call").begin + 3)))["result"];
  CHECK(fn["contents"]["value"].get<std::string>().find(
            "def helper(x: R.Tensor((n, 4), dtype=\"float32\"))") != std::string::npos);
  // A builtin: its signature and doc from the catalogue, over the whole dotted name.
  json builtin =
      client.request("textDocument/hover", doc_pos(uri, pos.at(code.point("dataflow"))))["result"];
  REQUIRE(builtin.is_object());
  std::string text = builtin["contents"]["value"];
  CHECK(text.find("R.dataflow()") != std::string::npos);
  CHECK(text.find("dataflow block") != std::string::npos);
  uint32_t dataflow_at = static_cast<uint32_t>(code.code().find("R.dataflow"));
  CHECK(builtin["range"] == pos.range(dataflow_at, dataflow_at + 10));
  // Nothing at a blank spot.
  CHECK(client.request("textDocument/hover", doc_pos(uri, pos.at(0)))["result"].is_null());
}

TEST_CASE("lsp features: completion after T. documents the builtins") {
  LspClient client;
  client.initialize();
  std::string uri = test_uri("builtins.relax");
  std::string text = "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    for i in T.\n";
  client.open(uri, text);
  client.diagnostics(uri, 1);
  json items = client.request("textDocument/completion",
                              doc_pos(uri, {{"line", 2}, {"character", 15}}))["result"]["items"];
  json grid;
  for (const json& item : items)
    if (item["label"] == "grid") grid = item;
  REQUIRE(grid.is_object());
  CHECK(grid["detail"] == "T.grid(*extents: PrimExpr)");
  CHECK(grid["documentation"]["value"].get<std::string>().find("Nested serial loops") !=
        std::string::npos);
}

TEST_CASE("lsp features: definition, references and highlights") {
  Annotations code(kModule);
  LspClient client;
  client.initialize();
  std::string uri = test_uri("nav.relax");
  client.open(uri, code.code());
  Positions pos(code.code());
  json def = client.request("textDocument/definition",
                            doc_pos(uri, pos.at(code.range("yuse").begin)))["result"];
  REQUIRE(def.size() == 1);
  CHECK(def[0]["uri"] == uri);
  CHECK(def[0]["range"] == pos.range(code.range("y")));
  json fn = client.request("textDocument/definition",
                           doc_pos(uri, pos.at(code.range("call").begin + 3)))["result"];
  REQUIRE(fn.size() == 1);
  CHECK(fn[0]["range"] == pos.range(code.range("helper")));
  json params = doc_pos(uri, pos.at(code.range("yuse").begin));
  params["context"] = {{"includeDeclaration", true}};
  json refs = client.request("textDocument/references", params)["result"];
  REQUIRE(refs.size() == 3);
  CHECK(refs[0]["range"] == pos.range(code.range("y")));
  CHECK(refs[1]["range"] == pos.range(code.range("yuse")));
  CHECK(refs[2]["range"] == pos.range(code.range("yuse2")));
  params["context"] = {{"includeDeclaration", false}};
  CHECK(client.request("textDocument/references", params)["result"].size() == 2);
  json hl = client.request("textDocument/documentHighlight",
                           doc_pos(uri, pos.at(code.range("yuse").begin)))["result"];
  REQUIRE(hl.size() == 3);
  CHECK(hl[0]["kind"] == 3);
  CHECK(hl[1]["kind"] == 2);
}

TEST_CASE("lsp features: rename a variable and a function, refuse clashes and bad names") {
  Annotations code(kModule);
  LspClient client;
  client.initialize();
  std::string uri = test_uri("rename.relax");
  client.open(uri, code.code());
  Positions pos(code.code());
  json prep = client.request("textDocument/prepareRename",
                             doc_pos(uri, pos.at(code.range("yuse").begin)))["result"];
  CHECK(prep["placeholder"] == "y");
  CHECK(prep["range"] == pos.range(code.range("yuse")));
  json params = doc_pos(uri, pos.at(code.range("yuse").begin));
  params["newName"] = "h";
  json edit = client.request("textDocument/rename", params)["result"];
  json edits = edit["changes"][uri];
  REQUIRE(edits.size() == 3);
  for (const json& e : edits) CHECK(e["newText"] == "h");
  params["newName"] = "z";  // z is bound in the same function
  json clash = client.request("textDocument/rename", params);
  REQUIRE(clash.contains("error"));
  CHECK(clash["error"]["message"].get<std::string>().find("already") != std::string::npos);
  params["newName"] = "2x";
  CHECK(client.request("textDocument/rename", params).contains("error"));
  params["newName"] = "for";
  CHECK(client.request("textDocument/rename", params).contains("error"));
  json fparams = doc_pos(uri, pos.at(code.range("call").begin + 3));
  fparams["newName"] = "assist";
  json fedits = client.request("textDocument/rename", fparams)["result"]["changes"][uri];
  REQUIRE(fedits.size() == 2);  // the definition and `cls.helper`
  CHECK(fedits[0]["range"] == pos.range(code.range("helper")));
  fparams["newName"] = "main";
  CHECK(client.request("textDocument/rename", fparams).contains("error"));
}

TEST_CASE("lsp features: the outline keeps functions that fail to build, and folds") {
  Annotations code(kModule);
  std::string text = code.code();
  // Break main's body: the outline still lists it.
  text.replace(text.find("return b"), 8, "return undefined_name");
  LspClient client;
  client.initialize();
  std::string uri = test_uri("outline.relax");
  client.open(uri, text);
  json symbols =
      client.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})["result"];
  REQUIRE(symbols.size() == 1);
  CHECK(symbols[0]["name"] == "Module");
  CHECK(symbols[0]["kind"] == 2);
  json functions = symbols[0]["children"];
  REQUIRE(functions.size() == 2);
  CHECK(functions[0]["name"] == "helper");
  CHECK(functions[1]["name"] == "main");
  REQUIRE(functions[0]["children"].size() == 1);
  CHECK(functions[0]["children"][0]["name"] == "dataflow");
  json folds =
      client.request("textDocument/foldingRange", {{"textDocument", {{"uri", uri}}}})["result"];
  bool class_fold = false;
  for (const json& f : folds) class_fold |= f["startLine"] == 5 && f["endLine"] == 19;
  CHECK(class_fold);
}

TEST_CASE("lsp features: formatting gives edits that format, nothing for a syntax error") {
  std::string text =
      "from tvm.script import relax as R\n@R.function\ndef main(x: R.Tensor((2,), "
      "dtype=\"float32\")):\n    y = R.add(x,x)\n    return y\n";
  LspClient client;
  client.initialize();
  std::string uri = test_uri("fmt.relax");
  client.open(uri, text);
  json edits = client.request("textDocument/formatting",
                              {{"textDocument", {{"uri", uri}}},
                               {"options", {{"tabSize", 4}, {"insertSpaces", true}}}})["result"];
  REQUIRE_FALSE(edits.empty());
  // Apply the edits (from the last, as they do not overlap) and compare with `relax fmt`.
  relax::ir::SourceFile file("t", text);
  std::string out = text;
  for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
    uint32_t b =
        file.offset({(*it)["range"]["start"]["line"], (*it)["range"]["start"]["character"]},
                    relax::ir::Encoding::kUtf16);
    uint32_t e = file.offset({(*it)["range"]["end"]["line"], (*it)["range"]["end"]["character"]},
                             relax::ir::Encoding::kUtf16);
    out.replace(b, e - b, (*it)["newText"].get<std::string>());
  }
  CHECK(out ==
        "from tvm.script import relax as R\n\n\n@R.function\ndef main(x: R.Tensor((2,), "
        "dtype=\"float32\")):\n    y = R.add(x, x)\n    return y\n");
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                           {"contentChanges", {{{"text", "def broken(:\n"}}}}});
  json none = client.request("textDocument/formatting", {{"textDocument", {{"uri", uri}}},
                                                         {"options", json::object()}})["result"];
  CHECK(none.empty());
}

TEST_CASE("lsp features: positions with non-BMP text in UTF-16 and UTF-8") {
  // "𝔘𝔘" before the use of `x`: 2 UTF-16 units and 4 bytes each.
  std::string text =
      "from tvm.script import relax as R\n\n\n@R.function\ndef main(x: R.Tensor((2,), "
      "dtype=\"float32\")):\n"
      "    y = R.add(x, x)  # \xF0\x9D\x94\x98\xF0\x9D\x94\x98\n"
      "    z = R.call_pure_packed(\"\xF0\x9D\x94\x98\xF0\x9D\x94\x98\", y, "
      "sinfo_args=R.Tensor((2,), dtype=\"float32\"))\n"
      "    return z\n";
  uint32_t use = static_cast<uint32_t>(text.find("\", y")) + 3;
  for (auto enc : {relax::ir::Encoding::kUtf16, relax::ir::Encoding::kUtf8}) {
    LspClient client;
    json caps = enc == relax::ir::Encoding::kUtf8
                    ? json{{"general", {{"positionEncodings", {"utf-8"}}}}}
                    : json::object();
    client.initialize(caps);
    std::string uri = test_uri("bmp.relax");
    client.open(uri, text);
    Positions pos(text, enc);
    json def = client.request("textDocument/definition", doc_pos(uri, pos.at(use)))["result"];
    REQUIRE(def.size() == 1);
    uint32_t y = static_cast<uint32_t>(text.find("y = "));
    CHECK(def[0]["range"] == pos.range(y, y + 1));
    json h = client.request("textDocument/hover", doc_pos(uri, pos.at(use)))["result"];
    CHECK(h["range"] == pos.range(use, use + 1));
    CHECK(h["range"]["start"]["character"] == (enc == relax::ir::Encoding::kUtf8 ? 39 : 35));
    // Semantic tokens: the token of `y` after the string starts at the same column.
    json data = client.request("textDocument/semanticTokens/full",
                               {{"textDocument", {{"uri", uri}}}})["result"]["data"];
    REQUIRE(data.size() % 5 == 0);
    uint32_t line = 0, col = 0;
    bool found = false;
    for (size_t i = 0; i < data.size(); i += 5) {
      uint32_t dl = data[i], dc = data[i + 1];
      col = dl ? dc : col + dc;
      line += dl;
      if (json{{"line", line}, {"character", col}} == pos.at(use)) {
        found = true;
        CHECK(data[i + 2] == 1);  // `y`: one unit in both encodings
      }
    }
    CHECK(found);
  }
}

TEST_CASE("lsp features: code lenses carry Run and Show IR, which build and run the function") {
  std::string text =
      "from tvm.script import relax as R\n\n\n@R.function\ndef main(x: R.Tensor((2, 3), "
      "dtype=\"float32\")) -> "
      "R.Tensor((2, 3), dtype=\"float32\"):\n    y = R.add(x, x)\n    return y\n";
  LspClient client;
  client.initialize();
  std::string uri = test_uri("run.relax");
  client.open(uri, text);
  json lenses =
      client.request("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}})["result"];
  REQUIRE(lenses.size() == 2);
  CHECK(lenses[0]["command"]["command"] == "relax.run");
  CHECK(lenses[1]["command"]["command"] == "relax.showIR");
  // The lens's command runs as it is.
  json run =
      client.request("workspace/executeCommand", {{"command", "relax.run"},
                                                  {"arguments", lenses[0]["command"]["arguments"]},
                                                  {"workDoneToken", "t1"}});
  REQUIRE(run.contains("result"));
  REQUIRE(run["result"]["outputs"].size() == 1);
  CHECK(run["result"]["outputs"][0]["shape"] == json({2, 3}));
  CHECK(run["result"]["outputs"][0]["dtype"] == "float32");
  CHECK(run["result"]["function"] == "main");
  auto logged =
      client.wait_for([](const json& m) { return m.value("method", "") == "window/logMessage"; });
  REQUIRE(logged);
  CHECK((*logged)["params"]["message"].get<std::string>().find("relax.run main: float32[2,3]") !=
        std::string::npos);
  json ir = client.request(
      "workspace/executeCommand",
      {{"command", "relax.showIR"}, {"arguments", lenses[1]["command"]["arguments"]}});
  REQUIRE(ir.contains("result"));
  CHECK(ir["result"]["text"].get<std::string>().find("def main") != std::string::npos);
  CHECK(ir["result"]["text"].get<std::string>().find("T.prim_func") !=
        std::string::npos);  // the legalized add
  json tir =
      client.request("workspace/executeCommand",
                     {{"command", "relax.showIR"}, {"arguments", {{{"uri", uri}, {"tir", true}}}}});
  REQUIRE(tir.contains("result"));
  CHECK(tir["result"]["text"].get<std::string>().find("T.prim_func") != std::string::npos);
  // A function that does not exist, and a document with errors.
  CHECK(client
            .request(
                "workspace/executeCommand",
                {{"command", "relax.run"}, {"arguments", {{{"uri", uri}, {"function", "nope"}}}}})
            .contains("error"));
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                           {"contentChanges", {{{"text", "def broken(:\n"}}}}});
  json failed = client.request("workspace/executeCommand",
                               {{"command", "relax.run"}, {"arguments", {{{"uri", uri}}}}});
  REQUIRE(failed.contains("error"));
  CHECK(failed["error"]["code"] == -32803);
  CHECK(failed["error"]["data"]["kind"] == "buildFailed");
}

TEST_CASE("lsp relax.run: a symbolic size random inputs need is named in the error's data") {
  LspClient client;
  client.initialize();
  std::string uri = test_uri("sizes.relax");
  client.open(uri, R"(@R.function
def main(a: R.Tensor(("n", 3), "float32"), b: R.Tensor(("m",), "float32")) -> R.Tensor(("n", 3), "float32"):
    return R.add(a, a)
)");
  client.diagnostics(uri, 1);
  json missing = client.request("workspace/executeCommand",
                                {{"command", "relax.run"}, {"arguments", {{{"uri", uri}}}}});
  REQUIRE(missing.contains("error"));
  CHECK(missing["error"]["code"] == -32803);
  CHECK(missing["error"]["data"] == json{{"kind", "missingSizes"}, {"sizes", {"n", "m"}}});
  CHECK(missing["error"]["message"].get<std::string>().find("need the size of `n`, `m`") !=
        std::string::npos);
  json ran = client.request(
      "workspace/executeCommand",
      {{"command", "relax.run"}, {"arguments", {{{"uri", uri}, {"sizes", {{"n", 2}, {"m", 5}}}}}}});
  REQUIRE(ran.contains("result"));
  CHECK(ran["result"]["outputs"][0]["shape"] == json{2, 3});
}

TEST_CASE("lsp features: semantic tokens of ops inside a method call's object") {
  // `R.add(x, x).astype(...)`: the op sits inside an attribute whose head is a call.
  LspClient client;
  client.initialize();
  std::string uri = test_uri("tokens.relax");
  std::string text =
      "@R.function\n"
      "def main(x: R.Tensor((2,), \"float32\")):\n"
      "    y = R.add(x, x).astype(\"float16\")\n"
      "    return y\n";
  client.open(uri, text);
  client.diagnostics(uri, 1);
  json data = client.request("textDocument/semanticTokens/full",
                             {{"textDocument", {{"uri", uri}}}})["result"]["data"];
  uint32_t line = 0, col = 0;
  bool r = false, add = false;
  for (size_t i = 0; i + 4 < data.size(); i += 5) {
    uint32_t dl = data[i], dc = data[i + 1];
    col = dl ? dc : col + dc;
    line += dl;
    if (line != 2) continue;
    // Legend: namespace 0, function 2; modifier defaultLibrary 4.
    if (col == 8 && data[i + 2] == 1) r = data[i + 3] == 0 && data[i + 4] == 4;
    if (col == 10 && data[i + 2] == 3) add = data[i + 3] == 2 && data[i + 4] == 4;
  }
  CHECK(r);
  CHECK(add);
}
