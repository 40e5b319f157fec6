// A session on a large file: 2,000 functions (12,000 lines), edited incrementally many times; the
// diagnostics of each version waited for say exactly what that version holds, and hovers far
// down the file answer from the current text.
#include <catch2/catch.hpp>
#include <string>

#include "lsp_client.h"

using relax::test::json;
using relax::test::LspClient;
using relax::test::test_uri;

namespace {

constexpr int kFunctions = 2000;

std::string large_module() {
  std::string out = "from tvm.script import ir as I\nfrom tvm.script import relax as R\n\n\n";
  out += "@I.ir_module\nclass Big:\n";
  for (int i = 0; i < kFunctions; ++i) {
    std::string n = std::to_string(i + 1);
    out += "    @R.function\n";
    out += "    def f" + std::to_string(i) + "(x: R.Tensor((" + n +
           ", 4), \"float32\")) -> R.Tensor((" + n + ", 4), \"float32\"):\n";
    out += "        y = R.add(x, x)\n";
    out += "        z = R.multiply(y, x)\n";
    out += "        return z\n\n";
  }
  return out;
}

// The line of `y = R.add(x, x)` in function i (0-based).
int add_line(int i) {
  return 6 + 6 * i + 2;
}

json change(int line, int begin, int end, const std::string& text) {
  return {{"range",
           {{"start", {{"line", line}, {"character", begin}}},
            {"end", {{"line", line}, {"character", end}}}}},
          {"text", text}};
}

}  // namespace

TEST_CASE("lsp large file: many incremental edits, each version's diagnostics exact") {
  LspClient client;
  client.initialize();
  std::string uri = test_uri("large.relax");
  client.open(uri, large_module());
  CHECK(client.diagnostics(uri, 1, 120000).empty());

  int version = 1;
  // (json::array: a braced single json would copy it with some compilers.)
  auto edit = [&](json changes) {
    ++version;
    client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                             {"contentChanges", std::move(changes)}});
  };
  // Typing a burst: `R.add(x, x)` -> `R.add(x, w)` -> back, near the end of the file; only the
  // last version's diagnostics need to come.
  int far = kFunctions - 3, line = add_line(far);
  int col = static_cast<int>(std::string("        y = R.add(x, ").size());
  for (int i = 0; i < 40; ++i)
    edit(json::array({change(line, col, col + 1, i % 2 == 0 ? "w" : "x")}));
  CHECK(client.diagnostics(uri, version, 120000).empty());  // an even count: back to `x`

  // An unknown name: E0201 at exactly that place.
  edit(json::array({change(line, col, col + 1, "w")}));
  json errors = client.diagnostics(uri, version, 120000);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]["code"] == "E0201");
  CHECK(errors[0]["range"]["start"] == json{{"line", line}, {"character", col}});

  // Several changes in one notification, each in the text the one before left: a new line at
  // the top shifts everything down by one.
  edit(json::array({change(line, col, col + 1, "x"), change(6, 0, 0, "    # a comment\n")}));
  CHECK(client.diagnostics(uri, version, 120000).empty());

  // Hover far down the file, on the shifted text: the parameter's shape of that function.
  json hover = client.request(
      "textDocument/hover",
      {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line + 1}, {"character", col}}}});
  REQUIRE(hover.contains("result"));
  std::string text = hover["result"]["contents"]["value"];
  INFO(text);
  CHECK(text.find("R.Tensor((" + std::to_string(far + 1) + ", 4), dtype=\"float32\")") !=
        std::string::npos);

  // The whole text replaced (a full-document change) is accepted as well.
  edit(json::array({json{{"text", large_module()}}}));
  CHECK(client.diagnostics(uri, version, 120000).empty());
  client.request("shutdown", nullptr);
  client.notify("exit", nullptr);
  CHECK(client.finish() == 0);
}
