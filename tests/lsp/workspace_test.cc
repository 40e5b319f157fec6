// The server and the workspace, through the real binary: the project configuration (relax.toml
// next to the documents) and the editor's settings (initializationOptions,
// didChangeConfiguration) decide the diagnostics and the formatting; a changed configuration
// file (didChangeWatchedFiles) re-checks; an invalid one is shown, not fatal; workspace/symbol
// finds the functions of every .relax file in the workspace folder, open documents from their
// current text.
#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <thread>

#include "lsp/protocol.h"
#include "lsp_client.h"
#include "tests/support/test_util.h"

using relax::test::json;
using relax::test::LspClient;
using relax::test::TempDir;
using relax::test::test_uri;
using relax::test::write_file;
namespace fs = std::filesystem;

namespace {

// W1001 (unused binding `y`) and W1002 (unused parameter `z`).
const char* kTwoWarnings = R"(from tvm.script import relax as R


@R.function
def main(x: R.Tensor((4,), "float32"), z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    y = R.add(x, x)
    return x
)";

std::set<std::string> codes(const json& diagnostics) {
  std::set<std::string> out;
  for (const json& d : diagnostics) out.insert(d.value("code", ""));
  return out;
}

std::string uri_of(const fs::path& path) {
  return relax::lsp::path_to_uri(path.string());
}

// The next publishDiagnostics of `uri` (any version).
json next_diagnostics(LspClient& client, const std::string& uri) {
  auto m = client.wait_for([&](const json& m) {
    return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
  });
  REQUIRE(m);
  return (*m)["params"]["diagnostics"];
}

// Applies TextEdits (sorted, non-overlapping, utf-16 = bytes for ASCII text) to `text`.
std::string apply_edits(const std::string& text, const json& edits) {
  relax::ir::LineIndex lines(text);
  std::vector<std::tuple<uint32_t, uint32_t, std::string>> spans;
  for (const json& e : edits) {
    auto at = [&](const json& p) {
      return lines.offset({p["line"].get<uint32_t>(), p["character"].get<uint32_t>()});
    };
    spans.emplace_back(at(e["range"]["start"]), at(e["range"]["end"]), e["newText"]);
  }
  std::sort(spans.begin(), spans.end());
  std::string out;
  uint32_t at = 0;
  for (const auto& [b, e, t] : spans) {
    out += text.substr(at, b - at) + t;
    at = e;
  }
  return out + text.substr(at);
}

}  // namespace

TEST_CASE("lsp workspace: relax.toml next to a document sets its lint rules and line width") {
  TempDir dir("relax_lsp_config");
  write_file(dir / "relax.toml", "[format]\nline-width = 40\n[lint]\nignore = [\"W1001\"]\n");
  fs::path file = dir / "m.relax";
  write_file(file, kTwoWarnings);
  std::string uri = uri_of(file);

  LspClient client;
  client.initialize();
  client.open(uri, kTwoWarnings);
  CHECK(codes(client.diagnostics(uri, 1)) == std::set<std::string>{"W1002"});

  json formatted = client.request(
      "textDocument/formatting",
      {{"textDocument", {{"uri", uri}}}, {"options", {{"tabSize", 4}, {"insertSpaces", true}}}});
  REQUIRE(formatted.contains("result"));
  std::string text = apply_edits(kTwoWarnings, formatted["result"]);
  CHECK(text != kTwoWarnings);
  size_t longest = 0;
  for (size_t at = 0, next; (next = text.find('\n', at)) != std::string::npos; at = next + 1)
    longest = std::max(longest, next - at);
  CHECK(longest <= 40);

  // The configuration changes on disk: the client says so, the document is checked again.
  write_file(dir / "relax.toml", "[lint]\nignore = [\"W1002\"]\n");
  client.notify("workspace/didChangeWatchedFiles",
                {{"changes", {{{"uri", uri_of(dir / "relax.toml")}, {"type", 2}}}}});
  CHECK(codes(next_diagnostics(client, uri)) == std::set<std::string>{"W1001"});
}

TEST_CASE("lsp workspace: the editor's settings go on top of the configuration") {
  LspClient client;
  client.initialize_with(
      {{"initializationOptions", {{"relax", {{"lint", {{"select", {"W1002"}}}}}}}}});
  std::string uri = test_uri("settings.relax");
  client.open(uri, kTwoWarnings);
  CHECK(codes(client.diagnostics(uri, 1)) == std::set<std::string>{"W1002"});

  // didChangeConfiguration, without the "relax" wrapper: empty select means "not set".
  client.notify("workspace/didChangeConfiguration",
                {{"settings", {{"lint", {{"select", json::array()}, {"ignore", {"W1002"}}}}}}});
  CHECK(codes(next_diagnostics(client, uri)) == std::set<std::string>{"W1001"});

  // A setting of the wrong type is shown and left out; the others still apply.
  client.notify(
      "workspace/didChangeConfiguration",
      {{"settings",
        {{"relax", {{"format", {{"lineWidth", "wide"}}}, {"lint", {{"ignore", {"W1001"}}}}}}}}});
  auto shown = client.wait_for([](const json& m) {
    return m.value("method", "") == "window/showMessage" &&
           m["params"]["message"].get<std::string>().find("lineWidth") != std::string::npos;
  });
  REQUIRE(shown);
  CHECK((*shown)["params"]["type"] == 2);
  CHECK(codes(next_diagnostics(client, uri)) == std::set<std::string>{"W1002"});
}

TEST_CASE("lsp workspace: an invalid relax.toml is shown once and the defaults apply") {
  TempDir dir("relax_lsp_bad_config");
  write_file(dir / "relax.toml", "[lint]\nselct = [\"E\"]\n");
  fs::path file = dir / "m.relax";
  std::string uri = uri_of(file);
  LspClient client;
  client.initialize();
  client.open(uri, kTwoWarnings);
  auto shown =
      client.wait_for([](const json& m) { return m.value("method", "") == "window/showMessage"; });
  REQUIRE(shown);
  CHECK((*shown)["params"]["type"] == 1);
  std::string message = (*shown)["params"]["message"];
  CHECK(message.find("relax.toml:2:1: unknown key 'selct' in [lint]") != std::string::npos);
  CHECK(codes(client.diagnostics(uri, 1)) == std::set<std::string>{"W1001", "W1002"});
}

TEST_CASE("lsp workspace: workspace/symbol over the folder's files and the open documents") {
  TempDir dir("relax_lsp_workspace");
  fs::create_directories(dir / "models" / "deep");
  fs::create_directories(dir / ".hidden");
  write_file(dir / "models" / "mlp.relax", R"(from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class MLP:
    @R.function
    def matmul_relu(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4, 4), "float32"):
        return R.nn.relu(x)

    @R.function
    def main(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4, 4), "float32"):
        return x
)");
  write_file(dir / "models" / "deep" / "helper.relax", R"(@R.function
def helper(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    return x
)");
  write_file(dir / ".hidden" / "skipped.relax", "@R.function\ndef skipped_fn(x):\n    return x\n");

  LspClient client;
  json caps = {{"workspace", {{"didChangeWatchedFiles", {{"dynamicRegistration", true}}}}}};
  json init = client.initialize_with({{"rootUri", uri_of(dir.path())}, {"capabilities", caps}});
  CHECK(init["result"]["capabilities"]["workspaceSymbolProvider"] == true);
  // The server asks to watch configuration files and sources.
  auto reg = client.wait_for(
      [](const json& m) { return m.value("method", "") == "client/registerCapability"; });
  REQUIRE(reg);
  client.send({{"jsonrpc", "2.0"}, {"id", (*reg)["id"]}, {"result", nullptr}});
  json watchers = (*reg)["params"]["registrations"][0]["registerOptions"]["watchers"];
  CHECK(watchers.dump().find("**/relax.toml") != std::string::npos);
  CHECK(watchers.dump().find("**/*.relax") != std::string::npos);

  // The index is built in the background: ask until it has the files (bounded).
  json found;
  for (int i = 0; i < 200; ++i) {
    found = client.request("workspace/symbol", {{"query", "relu"}})["result"];
    if (!found.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(found.size() == 1);
  CHECK(found[0]["name"] == "matmul_relu");
  CHECK(found[0]["kind"] == 12);
  CHECK(found[0]["containerName"] == "MLP");
  std::string mlp_uri = uri_of(dir / "models" / "mlp.relax");
  CHECK(found[0]["location"]["uri"] == mlp_uri);
  CHECK(found[0]["location"]["range"] == json{{"start", {{"line", 7}, {"character", 8}}},
                                              {"end", {{"line", 7}, {"character", 19}}}});

  // Fuzzy: a subsequence, case-insensitive; exact and prefix matches first.
  json fuzzy = client.request("workspace/symbol", {{"query", "HLP"}})["result"];
  REQUIRE(fuzzy.size() == 1);
  CHECK(fuzzy[0]["name"] == "helper");
  CHECK(client.request("workspace/symbol", {{"query", 5}})["error"]["code"] == -32602);
  json all = client.request("workspace/symbol", {{"query", ""}})["result"];
  std::set<std::string> names;
  for (const json& s : all) names.insert(s["name"]);
  CHECK(names == std::set<std::string>{"MLP", "matmul_relu", "main", "helper"});  // not .hidden

  // An open document answers from its current text.
  client.open(mlp_uri, "@R.function\ndef renamed_fn(x):\n    return x\n");
  json open = client.request("workspace/symbol", {{"query", "relu"}})["result"];
  CHECK(open.empty());
  CHECK(client.request("workspace/symbol", {{"query", "renamed"}})["result"].size() == 1);
  client.notify("textDocument/didClose", {{"textDocument", {{"uri", mlp_uri}}}});

  // A file created on disk, as the watcher reports it.
  write_file(dir / "models" / "new.relax", "@R.function\ndef brand_new(x):\n    return x\n");
  client.notify("workspace/didChangeWatchedFiles",
                {{"changes", {{{"uri", uri_of(dir / "models" / "new.relax")}, {"type", 1}}}}});
  json fresh;
  for (int i = 0; i < 200 && fresh.empty(); ++i) {
    fresh = client.request("workspace/symbol", {{"query", "brand"}})["result"];
    if (fresh.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(fresh.size() == 1);
  // And deleted.
  fs::remove(dir / "models" / "new.relax");
  client.notify("workspace/didChangeWatchedFiles",
                {{"changes", {{{"uri", uri_of(dir / "models" / "new.relax")}, {"type", 3}}}}});
  json gone = fresh;
  for (int i = 0; i < 200 && !gone.empty(); ++i) {
    gone = client.request("workspace/symbol", {{"query", "brand"}})["result"];
    if (!gone.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(gone.empty());
}

TEST_CASE("lsp code actions: source.fixAll is resolved when chosen, where the client can") {
  LspClient client;
  json caps = {
      {"textDocument", {{"codeAction", {{"resolveSupport", {{"properties", {"edit"}}}}}}}}};
  json init = client.initialize(caps);
  CHECK(init["result"]["capabilities"]["codeActionProvider"]["resolveProvider"] == true);
  std::string uri = test_uri("fixall.relax");
  client.open(uri, kTwoWarnings);
  client.diagnostics(uri, 1);
  json range = {{"start", {{"line", 0}, {"character", 0}}},
                {"end", {{"line", 0}, {"character", 0}}}};
  json actions = client.request("textDocument/codeAction",
                                {{"textDocument", {{"uri", uri}}},
                                 {"range", range},
                                 {"context", {{"diagnostics", json::array()}}}})["result"];
  json fix_all;
  for (const json& a : actions)
    if (a["kind"] == "source.fixAll") fix_all = a;
  REQUIRE(fix_all.is_object());
  CHECK_FALSE(fix_all.contains("edit"));
  REQUIRE(fix_all.contains("data"));
  json resolved = client.request("codeAction/resolve", fix_all)["result"];
  REQUIRE(resolved.contains("edit"));
  CHECK_FALSE(resolved.contains("data"));
  // W1001's fix removes `y = R.add(x, x)`.
  std::string new_text = resolved["edit"]["changes"][uri][0]["newText"];
  CHECK(new_text.find("y = R.add") == std::string::npos);
  CHECK(new_text.find("return x") != std::string::npos);

  // After an edit, an action of the old version is refused.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 2}}},
                 {"contentChanges", {{{"text", std::string(kTwoWarnings) + "\n"}}}}});
  json stale = client.request("codeAction/resolve", fix_all);
  REQUIRE(stale.contains("error"));
  CHECK(stale["error"]["code"] == -32801);
}

TEST_CASE("lsp workspace: a relax.toml created later applies when the document is saved") {
  TempDir dir("relax_lsp_save");
  fs::path file = dir / "m.relax";
  write_file(file, kTwoWarnings);
  std::string uri = uri_of(file);
  LspClient client;
  client.initialize();  // no file watchers: saving is what tells the server
  client.open(uri, kTwoWarnings);
  CHECK(codes(client.diagnostics(uri, 1)) == std::set<std::string>{"W1001", "W1002"});
  write_file(dir / "relax.toml", "[lint]\nignore = [\"W1002\"]\n");
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  CHECK(codes(next_diagnostics(client, uri)) == std::set<std::string>{"W1001"});
}
