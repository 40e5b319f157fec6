// Golden JSON-RPC transcripts, one session per feature (tests/lsp/sessions/*.session, as MLIR's
// and clangd's lit tests): each block between `---` lines is a message sent to the real server
// (`#` lines are comments). A request waits for its response; a didOpen or didChange waits for
// the diagnostics of its version. What came back is compared with NAME.expected;
// RELAX_UPDATE_GOLDEN=1 rewrites the expectations.
#include <catch2/catch.hpp>

#include <sstream>

#include "lsp_client.h"
#include "tests/support/test_util.h"

using relax::test::json;
using relax::test::LspClient;

namespace {

std::vector<json> read_session(const std::string& text) {
  std::vector<json> out;
  std::string block;
  std::istringstream in(text);
  std::string line;
  auto flush = [&] {
    if (block.find_first_not_of(" \n\t") != std::string::npos) out.push_back(json::parse(block));
    block.clear();
  };
  while (std::getline(in, line)) {
    if (line == "---") {
      flush();
    } else if (line.rfind("#", 0) != 0) {
      block += line + "\n";
    }
  }
  flush();
  return out;
}

std::string run_session(const std::vector<json>& messages) {
  LspClient client;
  std::string out;
  bool exited = false;
  for (const json& m : messages) {
    std::string method = m.value("method", "");
    out += ">>> " + method + "\n";
    client.send(m);
    if (m.contains("id")) {
      json r = client.response(m["id"].get<int64_t>());
      // The version changes with every release; the transcripts do not.
      if (r.contains("result") && r["result"].is_object() && r["result"].contains("serverInfo"))
        r["result"]["serverInfo"]["version"] = "<version>";
      out += r.dump(2) + "\n";
    } else if (method == "textDocument/didOpen" || method == "textDocument/didChange") {
      const json& doc = m["params"]["textDocument"];
      json d = client.diagnostics(doc["uri"], doc["version"]);
      out +=
          json(
              {{"publishDiagnostics", doc["uri"]}, {"version", doc["version"]}, {"diagnostics", d}})
              .dump(2) +
          "\n";
    } else if (method == "exit") {
      exited = true;
    }
  }
  int code = client.finish();
  out += "exit code " + std::to_string(code) + (exited ? "" : " (end of input)") + "\n";
  return out;
}

}  // namespace

TEST_CASE("lsp transcripts: every session answers as recorded") {
  auto dir = relax::test::tests_dir() / "lsp" / "sessions";
  auto sessions = relax::test::list_files(dir, ".session");
  REQUIRE(sessions.size() >= 5);
  for (const auto& path : sessions) {
    DYNAMIC_SECTION(path.filename().string()) {
      std::string got = run_session(read_session(relax::test::read_file(path)));
      auto expected_path = path;
      expected_path.replace_extension(".expected");
      if (relax::test::update_golden()) relax::test::write_file(expected_path, got);
      CHECK(got == relax::test::read_file(expected_path));
    }
  }
}
