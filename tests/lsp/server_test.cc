// The server's protocol behaviour, through the real binary: lifecycle and exit codes, the
// JSON-RPC errors the spec names, every request answered once, cancellation, and a seeded
// stream of garbage and mutated messages that must leave it answering.
#include <catch2/catch.hpp>

#include <random>

#include "lsp/framing.h"
#include "lsp_client.h"

using relax::test::json;
using relax::test::LspClient;
using relax::test::test_uri;

namespace {

int error_code(const json& response) {
  return response.at("error").at("code").get<int>();
}

const char* kSmall = R"(from tvm.script import relax as R


@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
    y = R.add(x, x)
    return y
)";

}  // namespace

TEST_CASE("lsp server: initialize, shutdown and exit end with code 0") {
  LspClient client;
  json init = client.initialize();
  const json& caps = init["result"]["capabilities"];
  CHECK(caps["textDocumentSync"]["change"] == 2);
  CHECK(caps["positionEncoding"] == "utf-16");
  CHECK(caps["hoverProvider"] == true);
  CHECK(init["result"]["serverInfo"]["name"] == "relax");
  json down = client.request("shutdown", nullptr);
  CHECK(down.contains("result"));
  CHECK(down["result"].is_null());
  // After shutdown, requests are invalid.
  CHECK(error_code(client.request("textDocument/hover", json::object())) == -32600);
  client.notify("exit", nullptr);
  CHECK(client.finish() == 0);
}

TEST_CASE("lsp server: exit without shutdown, and the end of input, end with code 1") {
  {
    LspClient client;
    client.initialize();
    client.notify("exit", nullptr);
    CHECK(client.finish() == 1);
  }
  {
    LspClient client;
    client.initialize();
    CHECK(client.finish() == 1);  // stdin closed
  }
  {
    LspClient client;
    client.initialize();
    client.request("shutdown", nullptr);
    CHECK(client.finish() == 1);  // shutdown but no exit
  }
}

TEST_CASE("lsp server: utf-8 positions when the client offers them") {
  LspClient client;
  json init = client.initialize({{"general", {{"positionEncodings", {"utf-16", "utf-8"}}}}});
  CHECK(init["result"]["capabilities"]["positionEncoding"] == "utf-8");
}

TEST_CASE("lsp server: the JSON-RPC errors the spec names, and the server keeps going") {
  LspClient client;
  // Before initialize: -32002 for requests; notifications are dropped.
  CHECK(error_code(client.request("textDocument/hover", json::object())) == -32002);
  client.initialize();
  // Not JSON: -32700 with a null id.
  client.send_raw(relax::lsp::frame("{not json"));
  auto parse = client.wait_for([](const json& m) { return m.contains("error"); });
  REQUIRE(parse);
  CHECK(error_code(*parse) == -32700);
  CHECK((*parse)["id"].is_null());
  // Not a request object: -32600.
  client.send_raw(relax::lsp::frame("[1, 2]"));
  auto batch = client.wait_for([](const json& m) { return m.contains("error"); });
  REQUIRE(batch);
  CHECK(error_code(*batch) == -32600);
  client.send({{"jsonrpc", "1.0"}, {"id", 99}, {"method", "shutdown"}});
  auto old = client.wait_for([](const json& m) { return m.contains("error"); });
  REQUIRE(old);
  CHECK(error_code(*old) == -32600);
  CHECK((*old)["id"] == 99);
  client.send({{"jsonrpc", "2.0"}, {"id", 100}, {"method", 5}});
  auto no_method = client.wait_for([](const json& m) { return m.contains("error"); });
  REQUIRE(no_method);
  CHECK(error_code(*no_method) == -32600);
  // An unknown method: -32601; bad params: -32602; a document never opened: -32602.
  CHECK(error_code(client.request("textDocument/unknownThing", json::object())) == -32601);
  CHECK(error_code(client.request("textDocument/hover", {{"textDocument", 3}})) == -32602);
  CHECK(error_code(client.request("textDocument/hover",
                                  {{"textDocument", {{"uri", test_uri("none.relax")}}},
                                   {"position", {{"line", 0}, {"character", 0}}}})) == -32602);
  client.open(test_uri("a.relax"), kSmall);
  CHECK(error_code(client.request("textDocument/hover",
                                  {{"textDocument", {{"uri", test_uri("a.relax")}}},
                                   {"position", {{"line", "x"}, {"character", 0}}}})) == -32602);
  // A second initialize is refused.
  CHECK(error_code(client.request("initialize", {{"capabilities", json::object()}})) == -32600);
  // Still serving.
  json hover =
      client.request("textDocument/hover", {{"textDocument", {{"uri", test_uri("a.relax")}}},
                                            {"position", {{"line", 5}, {"character", 4}}}});
  CHECK(hover.contains("result"));
  client.request("shutdown", nullptr);
  client.notify("exit", nullptr);
  CHECK(client.finish() == 0);
}

TEST_CASE("lsp server: a cancelled request is answered once, with -32800 or its result") {
  LspClient client;
  client.initialize();
  client.open(test_uri("a.relax"), kSmall);
  std::vector<int64_t> ids;
  for (int i = 0; i < 20; ++i) {
    ids.push_back(client.send_request("textDocument/documentSymbol",
                                      {{"textDocument", {{"uri", test_uri("a.relax")}}}}));
    client.notify("$/cancelRequest", {{"id", ids.back()}});
  }
  for (int64_t id : ids) {
    json r = client.response(id);
    if (r.contains("error")) CHECK(error_code(r) == -32800);
  }
  // Nothing answered twice.
  for (const json& m : client.take_all()) CHECK_FALSE((m.contains("id") && !m.contains("method")));
}

TEST_CASE("lsp server: a seeded stream of garbage and mutated messages never stops it") {
  LspClient client;
  client.initialize();
  client.open(test_uri("a.relax"), kSmall);
  std::mt19937 rng(1234);
  const std::vector<json> seeds = {
      {{"jsonrpc", "2.0"},
       {"id", 1},
       {"method", "textDocument/hover"},
       {"params",
        {{"textDocument", {{"uri", test_uri("a.relax")}}},
         {"position", {{"line", 5}, {"character", 5}}}}}},
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/didChange"},
       {"params",
        {{"textDocument", {{"uri", test_uri("a.relax")}, {"version", 2}}},
         {"contentChanges",
          {{{"range",
             {{"start", {{"line", 5}, {"character", 4}}},
              {"end", {{"line", 5}, {"character", 5}}}}},
            {"text", "zz"}}}}}}},
      {{"jsonrpc", "2.0"},
       {"id", 2},
       {"method", "textDocument/definition"},
       {"params",
        {{"textDocument", {{"uri", test_uri("a.relax")}}},
         {"position", {{"line", 6}, {"character", 11}}}}}},
      {{"jsonrpc", "2.0"},
       {"id", 3},
       {"method", "textDocument/formatting"},
       {"params",
        {{"textDocument", {{"uri", test_uri("a.relax")}}},
         {"options", {{"tabSize", 4}, {"insertSpaces", true}}}}}},
      {{"jsonrpc", "2.0"},
       {"id", 4},
       {"method", "textDocument/rename"},
       {"params",
        {{"textDocument", {{"uri", test_uri("a.relax")}}},
         {"position", {{"line", 5}, {"character", 4}}},
         {"newName", "w"}}}},
      {{"jsonrpc", "2.0"},
       {"id", 5},
       {"method", "textDocument/documentSymbol"},
       {"params", {{"textDocument", {{"uri", test_uri("a.relax")}}}}}},
      {{"jsonrpc", "2.0"},
       {"id", 6},
       {"method", "textDocument/foldingRange"},
       {"params", {{"textDocument", {{"uri", test_uri("a.relax")}}}}}},
  };
  int64_t next_id = 1000;
  size_t requests = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string body = seeds[rng() % seeds.size()].dump();
    bool is_request = body.find("\"id\"") != std::string::npos;
    int mutation = static_cast<int>(rng() % 4);
    if (mutation == 0) {
      // Flip, drop or insert bytes.
      for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) {
        size_t at = rng() % body.size();
        switch (rng() % 3) {
          case 0:
            body[at] = static_cast<char>(rng() % 256);
            break;
          case 1:
            body.erase(at, 1);
            break;
          default:
            body.insert(at, 1, "{}[]\":,0-e\\"[rng() % 11]);
            break;
        }
      }
      client.send_raw(relax::lsp::frame(body));
    } else if (mutation == 1) {
      // Structurally valid but wrong types in random places.
      json m = json::parse(body);
      std::vector<json> values = {nullptr,        1,   -1,   "x",         json::array(),
                                  json::object(), 1.5, true, 4294967296LL};
      json v = values[rng() % values.size()];
      if (m.contains("params") && m["params"].is_object() && !m["params"].empty()) {
        auto it = m["params"].begin();
        std::advance(it, rng() % m["params"].size());
        *it = v;
      } else {
        m["params"] = v;
      }
      if (m.contains("id")) m["id"] = next_id++;
      client.send(m);
      requests += m.contains("id");
    } else if (mutation == 2) {
      // Broken framing, then a valid message (the reader must find its feet again).
      static const char* const kBad[] = {"Content-Length: x\r\n\r\n", "Foo\r\n\r\n",
                                         "Content-Length: 5\r\n\r\n{\"a\":", "\r\n"};
      client.send_raw(kBad[rng() % 4]);
    } else {
      json m = json::parse(body);
      if (m.contains("id")) m["id"] = next_id++;
      client.send(m);
      requests += is_request;
    }
    if (i % 200 == 0) client.take_all(0);
  }
  // Garbage may have left a partial frame pending: a newline-padded, valid request resyncs
  // after at most one error. The server still answers.
  client.send_raw("\r\n\r\n");
  client.take_all(500);
  json r = client.request("shutdown", nullptr, 120000);
  CHECK((r.contains("result") || r.contains("error")));
  client.notify("exit", nullptr);
  int code = client.finish(120000);
  CHECK((code == 0 || code == 1));
  CHECK(client.log().find("AddressSanitizer") == std::string::npos);
  CHECK(requests > 100);
}
