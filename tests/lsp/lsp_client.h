// A test client for `relax lsp`: starts the real binary with pipes for its standard input and
// output, sends framed JSON-RPC messages and reads the server's, keeping the messages it has not
// been asked for yet (notifications arrive between responses).
#pragma once

#include <sys/types.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lsp/framing.h"

namespace relax::test {

using json = nlohmann::json;

class LspClient {
 public:
  explicit LspClient(std::vector<std::string> extra_args = {});
  ~LspClient();
  LspClient(const LspClient&) = delete;
  LspClient& operator=(const LspClient&) = delete;

  // Sends `initialize` (with `capabilities`) and `initialized`; returns the result.
  json initialize(json capabilities = json::object());
  // The same with more InitializeParams (rootUri, workspaceFolders, initializationOptions);
  // `capabilities` defaults to none.
  json initialize_with(json params);

  void send_raw(const std::string& bytes);
  void send(const json& message);
  void notify(const std::string& method, json params);
  // Sends a request and waits for its response (the whole message: result or error).
  json request(const std::string& method, json params, int timeout_ms = 60000);
  // Sends a request without waiting; returns its id.
  int64_t send_request(const std::string& method, json params);
  // Waits for the response with this id.
  json response(int64_t id, int timeout_ms = 60000);

  // The first message (kept or new) that `match` accepts, removed from the kept ones; nullopt
  // after `timeout_ms` or at the end of the server's output.
  std::optional<json> wait_for(const std::function<bool(const json&)>& match,
                               int timeout_ms = 60000);
  // The publishDiagnostics of `uri` for LSP `version` (the diagnostics array).
  json diagnostics(const std::string& uri, int64_t version, int timeout_ms = 60000);
  // Every message received so far and not taken.
  std::vector<json> take_all(int settle_ms = 200);

  void open(const std::string& uri, const std::string& text, int64_t version = 1);
  // Closes the server's input; returns its exit code (-1 when it had to be killed).
  int finish(int timeout_ms = 30000);
  bool running() const { return pid_ > 0; }
  std::string log() const;  // what the server wrote on standard error

 private:
  // Reads what is available within `timeout_ms`; false at end of output.
  bool pump(int timeout_ms);

  pid_t pid_ = -1;
  int to_server_ = -1, from_server_ = -1;
  std::string log_path_;
  lsp::MessageReader reader_;
  std::vector<json> inbox_;
  bool eof_ = false;
  int64_t next_id_ = 1;
};

// `file:///relax-test/<name>`: documents of the tests live nowhere on disk.
std::string test_uri(const std::string& name);

}  // namespace relax::test
