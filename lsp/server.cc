#include "lsp/server.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>

#include "ide/document.h"
#include "lsp/features.h"
#include "lsp/loop.h"
#include "lsp/protocol.h"
#include "lsp/settings.h"
#include "lsp/transport.h"
#include "lsp/workers.h"
#include "lsp/workspace_symbols.h"
#include "relax_version.h"

namespace relax::lsp {

namespace {

using Clock = std::chrono::steady_clock;

// An open document: the editor's text (changed on the loop thread) and what was published.
struct OpenDocument {
  std::unique_ptr<ide::Document> doc;
  std::string path;              // the file:// URI's path ("" for another scheme)
  syntax::FormatOptions format;  // from the project configuration and the editor's settings
  int64_t lsp_version = 0;
  std::unique_ptr<Timer> debounce;
  uint64_t last_check_ms = 0;  // how long the last check took (the adaptive debounce)
  // The LSP version of each document version still in flight (for publishing).
  std::map<uint64_t, int64_t> versions;
};

// A request not answered yet.
struct Pending {
  json id;
  std::string method;
  std::atomic<bool> cancelled{false};
};

// The member at a path of keys, or null.
const json* find_path(const json& at, std::initializer_list<const char*> path) {
  const json* node = &at;
  for (const char* key : path) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

class Server {
 public:
  Server(int in_fd, int out_fd, const ServerOptions& options)
      : options_(options), transport_(loop_, in_fd, out_fd), pool_(options.workers) {}

  int run() {
    transport_.start([this](Frame f) { on_frame(std::move(f)); }, [this] { on_end(); });
    loop_.run();
    return exit_code_;
  }

 private:
  void log(LogLevel level, const std::string& message) {
    if (options_.log) options_.log->write(level, message);
  }

  // --- Messages ------------------------------------------------------------------------------
  void on_frame(Frame frame) {
    if (!frame.error.empty()) {
      log(LogLevel::kWarning, "framing error: " + frame.error);
      send_error(nullptr, kParseError, frame.error);
      return;
    }
    json message = json::parse(frame.body, nullptr, false);
    if (message.is_discarded()) {
      send_error(nullptr, kParseError, "the message is not valid JSON");
      return;
    }
    on_message(message);
  }

  static bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

  void on_message(const json& message) {
    if (message.is_array()) {
      // Batches are JSON-RPC 2.0 but not LSP: refused as one invalid request.
      send_error(nullptr, kInvalidRequest, "batches are not supported");
      return;
    }
    if (!message.is_object()) {
      send_error(nullptr, kInvalidRequest, "a message must be a JSON object");
      return;
    }
    auto id_it = message.find("id");
    bool has_id = id_it != message.end();
    json id = has_id && valid_id(*id_it) ? *id_it : json(nullptr);
    auto jsonrpc = message.find("jsonrpc");
    auto method_it = message.find("method");
    if (has_id && method_it == message.end() &&
        (message.contains("result") || message.contains("error"))) {
      return;  // a response to a request of ours (none need an answer)
    }
    if (jsonrpc == message.end() || *jsonrpc != "2.0") {
      send_error(id, kInvalidRequest, "\"jsonrpc\" must be \"2.0\"");
      return;
    }
    if (method_it == message.end() || !method_it->is_string()) {
      send_error(id, kInvalidRequest, "\"method\" must be a string");
      return;
    }
    if (has_id && !valid_id(*id_it)) {
      send_error(nullptr, kInvalidRequest, "\"id\" must be a string or an integer");
      return;
    }
    std::string method = *method_it;
    json params = message.value("params", json(nullptr));
    if (!params.is_null() && !params.is_object() && !params.is_array()) {
      if (has_id) send_error(id, kInvalidParams, "\"params\" must be an object or an array");
      return;
    }
    if (has_id)
      on_request(id, method, params);
    else
      on_notification(method, params);
  }

  void send(const json& message) {
    if (!transport_.send(message)) log(LogLevel::kError, "cannot write to the client");
  }
  void send_error(const json& id, int code, const std::string& message,
                  const json& data = nullptr) {
    json error = {{"code", code}, {"message", message}};
    if (!data.is_null()) error["data"] = data;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
  }
  void notify(const std::string& method, json params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }

  // --- Replies: each request once ----------------------------------------------------------
  std::shared_ptr<Pending> open_request(const json& id, const std::string& method) {
    auto p = std::make_shared<Pending>();
    p->id = id;
    p->method = method;
    std::string key = id.dump();
    if (pending_.count(key)) {
      // A client reusing a live id: the earlier request is answered now, so each is answered once.
      reply_error(key, kRequestCancelled, "superseded by a request with the same id");
    }
    pending_[key] = p;
    return p;
  }
  void reply(const std::string& key, json result) {
    auto it = pending_.find(key);
    if (it == pending_.end()) return;
    json id = it->second->id;
    pending_.erase(it);
    send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  }
  void reply_error(const std::string& key, int code, const std::string& message,
                   const json& data = nullptr) {
    auto it = pending_.find(key);
    if (it == pending_.end()) return;
    json id = it->second->id;
    pending_.erase(it);
    send_error(id, code, message, data);
  }

  // --- Requests ------------------------------------------------------------------------------
  void on_request(const json& id, const std::string& method, const json& params) {
    std::string key = id.dump();
    open_request(id, method);
    try {
      if (method == "initialize") return initialize(key, params);
      if (!initialized_)
        return reply_error(key, kServerNotInitialized, "the server is not initialized");
      if (shutdown_) return reply_error(key, kInvalidRequest, "the server is shutting down");
      if (method == "shutdown") {
        shutdown_ = true;
        return reply(key, nullptr);
      }
      auto feature = features().find(method);
      if (feature == features().end())
        return reply_error(key, kMethodNotFound, "unknown method '" + method + "'");
      feature->second(*this, key, params);
    } catch (const RequestError& e) {
      reply_error(key, e.code, e.what(), e.data);
    } catch (const std::exception& e) {
      reply_error(key, kInternalError, e.what());
    }
  }

  void initialize(const std::string& key, const json& params) {
    if (initialized_) return reply_error(key, kInvalidRequest, "initialize was sent twice");
    if (!params.is_object())
      throw RequestError(kInvalidParams, "initialize takes InitializeParams");
    encoding_ = ir::Encoding::kUtf16;
    const json* encodings = nullptr;
    if (auto caps = params.find("capabilities"); caps != params.end() && caps->is_object())
      if (auto general = caps->find("general"); general != caps->end() && general->is_object())
        if (auto e = general->find("positionEncodings"); e != general->end() && e->is_array())
          encodings = &*e;
    if (encodings)
      for (const json& e : *encodings)
        if (e == "utf-8") encoding_ = ir::Encoding::kUtf8;
    // What the client can take: snippets in completions, pull diagnostics.
    json caps = params.value("capabilities", json::object());
    auto flag = [&](std::initializer_list<const char*> path) {
      const json* at = find_path(caps, path);
      return at && (at->is_boolean() ? at->get<bool>() : at->is_object());
    };
    snippets_ = flag({"textDocument", "completion", "completionItem", "snippetSupport"});
    bool pull_diagnostics = flag({"textDocument", "diagnostic"});
    watch_files_ = flag({"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
    // `source.fixAll` is computed when chosen where the client resolves an action's edit.
    resolve_code_action_edits_ = false;
    if (const json* props =
            find_path(caps, {"textDocument", "codeAction", "resolveSupport", "properties"});
        props && props->is_array())
      for (const json& p : *props)
        if (p == "edit") resolve_code_action_edits_ = true;
    if (auto o = params.find("initializationOptions"); o != params.end()) set_settings(*o);
    workspace_folders(params);
    initialized_ = true;
    json capabilities = {
        {"positionEncoding", encoding_name(encoding_)},
        {"textDocumentSync",
         {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"declarationProvider", true},
        {"referencesProvider", true},
        {"documentHighlightProvider", true},
        {"documentSymbolProvider", true},
        {"workspaceSymbolProvider", true},
        {"renameProvider", {{"prepareProvider", true}}},
        {"documentFormattingProvider", true},
        {"documentRangeFormattingProvider", true},
        {"foldingRangeProvider", true},
        {"completionProvider", {{"triggerCharacters", {".", "\""}}, {"resolveProvider", false}}},
        {"signatureHelpProvider",
         {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {","}}}},
        {"semanticTokensProvider",
         {{"legend", semantic_tokens_legend()}, {"full", {{"delta", true}}}, {"range", true}}},
        {"inlayHintProvider", true},
        {"selectionRangeProvider", true},
        {"codeLensProvider", {{"resolveProvider", false}}},
        {"executeCommandProvider", {{"commands", {"relax.run", "relax.showIR"}}}},
        {"codeActionProvider",
         {{"codeActionKinds", {"quickfix", "source.fixAll", "refactor.rewrite"}},
          {"resolveProvider", true}}},
    };
    if (pull_diagnostics)
      capabilities["diagnosticProvider"] = {{"interFileDependencies", false},
                                            {"workspaceDiagnostics", false}};
    reply(key, {{"capabilities", capabilities},
                {"serverInfo", {{"name", "relax"}, {"version", RELAX_VERSION_STRING}}}});
  }

  using Feature = void (*)(Server&, const std::string& key, const json& params);
  static const std::unordered_map<std::string, Feature>& features() {
    static const std::unordered_map<std::string, Feature> table = {
        {"textDocument/hover",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json&) {
             return hover(d, at);
           });
         }},
        {"textDocument/definition",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json&) {
             return definition(d, at);
           });
         }},
        {"textDocument/declaration",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json&) {
             return definition(d, at);
           });
         }},
        {"textDocument/references",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json& params) {
             bool decl = true;
             if (auto c = params.find("context"); c != params.end() && c->is_object())
               decl = c->value("includeDeclaration", true);
             return references(d, at, decl);
           });
         }},
        {"textDocument/documentHighlight",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json&) {
             return document_highlight(d, at);
           });
         }},
        {"textDocument/prepareRename",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json&) {
             return prepare_rename(d, at);
           });
         }},
        {"textDocument/rename",
         [](Server& s, const std::string& key, const json& p) {
           std::string name = string_member(p, "newName");
           s.at_position(key, p, [name](const CheckedDocument& d, uint32_t at, const json&) {
             return rename(d, at, name);
           });
         }},
        {"textDocument/documentSymbol",
         [](Server& s, const std::string& key, const json& p) {
           s.whole_document(
               key, p, [](const CheckedDocument& d, const json&) { return document_symbols(d); });
         }},
        {"textDocument/foldingRange",
         [](Server& s, const std::string& key, const json& p) {
           s.whole_document(
               key, p, [](const CheckedDocument& d, const json&) { return folding_ranges(d); });
         }},
        {"textDocument/completion",
         [](Server& s, const std::string& key, const json& p) {
           bool snippets = s.snippets_;
           s.at_position(key, p, [snippets](const CheckedDocument& d, uint32_t at, const json&) {
             return completion(d, at, snippets);
           });
         }},
        {"textDocument/signatureHelp",
         [](Server& s, const std::string& key, const json& p) {
           s.at_position(key, p, [](const CheckedDocument& d, uint32_t at, const json&) {
             return signature_help(d, at);
           });
         }},
        {"textDocument/semanticTokens/full",
         [](Server& s, const std::string& key, const json& p) {
           s.semantic_tokens_request(key, p, false);
         }},
        {"textDocument/semanticTokens/full/delta",
         [](Server& s, const std::string& key, const json& p) {
           s.semantic_tokens_request(key, p, true);
         }},
        {"textDocument/semanticTokens/range",
         [](Server& s, const std::string& key, const json& p) {
           member(p, "range");
           s.whole_document(key, p, [](const CheckedDocument& d, const json& params) {
             auto [begin, end] = byte_range(d, params["range"]);
             return json{{"data", semantic_tokens(d, begin, end)}};
           });
         }},
        {"textDocument/inlayHint",
         [](Server& s, const std::string& key, const json& p) {
           member(p, "range");
           s.whole_document(key, p, [](const CheckedDocument& d, const json& params) {
             auto [begin, end] = byte_range(d, params["range"]);
             return inlay_hints(d, begin, end);
           });
         }},
        {"textDocument/selectionRange",
         [](Server& s, const std::string& key, const json& p) {
           const json& positions = member(p, "positions");
           if (!positions.is_array())
             throw RequestError(kInvalidParams, "positions must be an array");
           for (const json& pos : positions) parse_position(pos);
           s.whole_document(key, p, [](const CheckedDocument& d, const json& params) {
             std::vector<uint32_t> offsets;
             for (const json& pos : params["positions"]) offsets.push_back(d.map.offset(pos));
             return selection_ranges(d, offsets);
           });
         }},
        {"textDocument/codeAction",
         [](Server& s, const std::string& key, const json& p) {
           member(p, "range");
           json only = nullptr;
           if (auto c = p.find("context"); c != p.end() && c->is_object())
             if (auto o = c->find("only"); o != c->end() && o->is_array()) only = *o;
           OpenDocument& open = s.document(p);
           analysis::CheckOptions options = open.doc->options();
           json data = nullptr;
           if (s.resolve_code_action_edits_)
             data = {{"uri", string_member(member(p, "textDocument"), "uri")},
                     {"version", open.doc->version()}};
           s.whole_document(key, p,
                            [only, options, data](const CheckedDocument& d, const json& params) {
                              auto [begin, end] = byte_range(d, params["range"]);
                              return code_actions(d, begin, end, only, options, data);
                            });
         }},
        {"codeAction/resolve",
         [](Server& s, const std::string& key, const json& action) {
           if (!action.is_object()) throw RequestError(kInvalidParams, "a CodeAction");
           const json& data = member(action, "data");
           std::string uri = string_member(data, "uri");
           uint64_t version = static_cast<uint64_t>(int_member(data, "version"));
           json doc_params = {{"textDocument", {{"uri", uri}}}};
           OpenDocument& open = s.document(doc_params);
           if (open.doc->version() != version)
             throw RequestError(kContentModified, "the document changed");
           analysis::CheckOptions options = open.doc->options();
           s.whole_document(key, doc_params,
                            [action, options](const CheckedDocument& d, const json&) {
                              json out = action;
                              out.erase("data");
                              if (json edit = fix_all_edit(d, options); !edit.is_null())
                                out["edit"] = edit;
                              return out;
                            });
         }},
        {"textDocument/diagnostic",
         [](Server& s, const std::string& key, const json& p) {
           s.whole_document(key, p, [](const CheckedDocument& d, const json&) {
             return json{{"kind", "full"}, {"items", diagnostics(d)}};
           });
         }},
        {"textDocument/codeLens",
         [](Server& s, const std::string& key, const json& p) {
           s.whole_document(key, p,
                            [](const CheckedDocument& d, const json&) { return code_lenses(d); });
         }},
        {"workspace/executeCommand",
         [](Server& s, const std::string& key, const json& p) { s.execute_command(key, p); }},
        {"workspace/symbol",
         [](Server& s, const std::string& key, const json& p) { s.workspace_symbol(key, p); }},
        {"textDocument/formatting",
         [](Server& s, const std::string& key, const json& p) { s.format(key, p, false); }},
        {"textDocument/rangeFormatting",
         [](Server& s, const std::string& key, const json& p) { s.format(key, p, true); }},
    };
    return table;
  }

  OpenDocument& document(const json& params) {
    std::string uri = string_member(member(params, "textDocument"), "uri");
    auto it = docs_.find(uri);
    if (it == docs_.end())
      throw RequestError(kInvalidParams, "the document '" + uri + "' is not open");
    return it->second;
  }

  // Runs `work` on a worker over the document's current snapshot, answering on the loop.
  // `finish` runs on the loop with the result before it is sent (state kept per document).
  using Finish = std::function<json(json)>;
  template <class Work>
  void on_worker(const std::string& key, const std::string& uri, const OpenDocument& open,
                 Work work, Finish finish = nullptr) {
    auto pending = pending_.at(key);
    ide::Snapshot snapshot = open.doc->snapshot();
    ir::Encoding encoding = encoding_;
    pool_.submit([this, key, uri, pending, snapshot, encoding, work, finish] {
      json result, data;
      int error = 0;
      std::string message;
      if (pending->cancelled) {
        error = kRequestCancelled;
        message = "cancelled";
      } else {
        try {
          result = work(snapshot, encoding);
        } catch (const RequestError& e) {
          error = e.code;
          message = e.what();
          data = e.data;
        } catch (const std::exception& e) {
          error = kInternalError;
          message = e.what();
        }
      }
      uint64_t version = snapshot.version();
      loop_.post([this, key, uri, pending, version, error, message, data, finish,
                  result = std::move(result)]() mutable {
        if (pending->cancelled) return reply_error(key, kRequestCancelled, "cancelled");
        if (error) return reply_error(key, error, message, data);
        auto it = docs_.find(uri);
        if (it == docs_.end() || it->second.doc->version() != version)
          return reply_error(key, kContentModified, "the document changed");
        if (finish) result = finish(std::move(result));
        reply(key, std::move(result));
      });
    });
  }

  template <class Fn>
  void at_position(const std::string& key, const json& params, Fn fn) {
    OpenDocument& open = document(params);
    ir::Position position = parse_position(member(params, "position"));
    std::string uri = string_member(member(params, "textDocument"), "uri");
    on_worker(key, uri, open,
              [fn, position, uri, params](const ide::Snapshot& snap, ir::Encoding enc) {
                auto checked = snap.check();
                CheckedDocument doc(*checked, enc, uri);
                return fn(doc, doc.result.source->offset(position, enc), params);
              });
  }

  template <class Fn>
  void whole_document(const std::string& key, const json& params, Fn fn, Finish finish = nullptr) {
    OpenDocument& open = document(params);
    std::string uri = string_member(member(params, "textDocument"), "uri");
    on_worker(
        key, uri, open,
        [fn, uri, params](const ide::Snapshot& snap, ir::Encoding enc) {
          auto checked = snap.check();
          CheckedDocument doc(*checked, enc, uri);
          return fn(doc, params);
        },
        std::move(finish));
  }

  // The byte range of an LSP Range in a checked document.
  static std::pair<uint32_t, uint32_t> byte_range(const CheckedDocument& doc, const json& range) {
    uint32_t begin = doc.map.offset(member(range, "start"));
    uint32_t end = doc.map.offset(member(range, "end"));
    if (end < begin) std::swap(begin, end);
    return {begin, end};
  }

  // Semantic tokens: the encoded data of the answer is kept per document, so that the next
  // request can ask for the delta.
  void semantic_tokens_request(const std::string& key, const json& params, bool delta) {
    std::string uri = string_member(member(params, "textDocument"), "uri");
    std::string previous = delta ? string_member(params, "previousResultId") : "";
    // The tokens go from the worker to the loop as they are (no JSON in between: a large file
    // has hundreds of thousands of integers).
    auto computed = std::make_shared<std::vector<uint32_t>>();
    whole_document(
        key, params,
        [computed](const CheckedDocument& d, const json&) {
          *computed = semantic_tokens(d, 0, UINT32_MAX);
          return json(nullptr);
        },
        [this, uri, previous, delta, computed](json) -> json {
          std::vector<uint32_t>& now = *computed;
          std::string id = std::to_string(++token_results_);
          auto& kept = tokens_[uri];
          json out;
          if (delta && kept.first == previous) {
            out = {{"resultId", id}, {"edits", semantic_tokens_delta(kept.second, now)}};
          } else {
            out = {{"resultId", id}, {"data", now}};
          }
          kept = {id, std::move(now)};
          return out;
        });
  }

  void format(const std::string& key, const json& params, bool range) {
    OpenDocument& open = document(params);
    std::string uri = string_member(member(params, "textDocument"), "uri");
    syntax::FormatOptions options = open.format;
    std::optional<json> range_json;
    if (range) range_json = member(params, "range");
    on_worker(key, uri, open, [options, range_json](const ide::Snapshot& snap, ir::Encoding enc) {
      ir::SourceFile file("", snap.text());
      PositionMap map(file, enc);
      if (!range_json) return formatting(file.text(), map, options);
      uint32_t begin = map.offset(member(*range_json, "start"));
      uint32_t end = map.offset(member(*range_json, "end"));
      if (end < begin) std::swap(begin, end);
      return range_formatting(file.text(), map, begin, end, options);
    });
  }

  // relax.run and relax.showIR: one argument, an object naming the document and what to do.
  void execute_command(const std::string& key, const json& params) {
    std::string command = string_member(params, "command");
    if (command != "relax.run" && command != "relax.showIR")
      throw RequestError(kInvalidParams, "unknown command '" + command + "'");
    const json& arguments = member(params, "arguments");
    if (!arguments.is_array() || arguments.empty() || !arguments[0].is_object())
      throw RequestError(kInvalidParams, command + " takes one argument: {\"uri\": ..., ...}");
    const json& arg = arguments[0];
    std::string uri = string_member(arg, "uri");
    json doc_params = {{"textDocument", {{"uri", uri}}}};
    OpenDocument& open = document(doc_params);
    RunRequest run;
    ShowIRRequest show;
    if (arg.contains("function")) run.function = string_member(arg, "function");
    if (auto in = arg.find("inputs"); in != arg.end()) {
      if (!in->is_array())
        throw RequestError(kInvalidParams, "inputs must be an array of .npy paths");
      for (const json& path : *in) {
        if (!path.is_string())
          throw RequestError(kInvalidParams, "inputs must be an array of .npy paths");
        run.inputs.push_back(path);
      }
    }
    if (auto sizes = arg.find("sizes"); sizes != arg.end()) {
      if (!sizes->is_object())
        throw RequestError(kInvalidParams, "sizes must map names to integers");
      for (auto& [name, v] : sizes->items()) {
        if (!v.is_number_integer() || v.get<int64_t>() < 0)
          throw RequestError(kInvalidParams, "sizes must map names to non-negative integers");
        run.sizes[name] = v.get<int64_t>();
      }
    }
    if (arg.contains("seed")) run.seed = static_cast<uint32_t>(int_member(arg, "seed"));
    if (arg.contains("pass")) show.after_pass = string_member(arg, "pass");
    if (arg.contains("tir")) show.tir = member(arg, "tir").is_boolean() && arg["tir"].get<bool>();
    json token = params.value("workDoneToken", json(nullptr));
    bool progress = token.is_string() || token.is_number_integer();
    if (progress)
      notify("$/progress",
             {{"token", token},
              {"value",
               {{"kind", "begin"},
                {"title", command == "relax.run" ? "Running " + run.function : "Building"},
                {"cancellable", true}}}});
    auto pending = pending_.at(key);
    ir::Encoding encoding = encoding_;
    auto end_progress = [this, token, progress](json result) {
      if (progress) notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
      if (result.contains("outputs")) {
        std::string line = "relax.run " + result["function"].get<std::string>() + ": ";
        for (const json& o : result["outputs"])
          if (o.contains("shape")) line += o["dtype"].get<std::string>() + o["shape"].dump() + " ";
        char times[96];
        std::snprintf(times, sizeof times, "(compile %.1f ms, run %.3f ms)",
                      result["compileMs"].get<double>(), result["runMs"].get<double>());
        notify("window/logMessage", {{"type", 3}, {"message", line + times}});
      }
      return result;
    };
    on_worker(
        key, uri, open,
        [this, command, run, show, pending, uri, encoding, token, progress](
            const ide::Snapshot& snap, ir::Encoding) {
          try {
            return command == "relax.run" ? run_function(snap, run, pending->cancelled)
                                          : show_ir(snap, show);
          } catch (const CommandFailure& failure) {
            // The build's errors go to the document, where the user looks.
            json list = json::array();
            PositionMap map(*failure.source, encoding);
            for (const ir::Diagnostic& d : failure.diagnostics)
              if (d.span.is_known() || d.span.file == 0)
                list.push_back(diagnostic_json(d, map, uri));
            loop_.post([this, uri, token, progress, list = std::move(list)] {
              if (progress) notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
              if (!list.empty())
                notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", list}});
            });
            throw RequestError(failure.code, failure.what(), failure.data);
          }
        },
        end_progress);
  }

  // --- Notifications -------------------------------------------------------------------------
  void on_notification(const std::string& method, const json& params) {
    if (method == "exit") {
      exit_code_ = shutdown_ ? 0 : 1;
      return stop();
    }
    if (!initialized_) return;  // dropped, as the protocol says
    try {
      if (method == "initialized") return on_initialized();
      if (method == "$/cancelRequest") return cancel(params);
      if (method == "textDocument/didOpen") return did_open(params);
      if (method == "textDocument/didChange") return did_change(params);
      if (method == "textDocument/didClose") return did_close(params);
      if (method == "textDocument/didSave") return did_save(params);
      if (method == "workspace/didChangeConfiguration") return did_change_configuration(params);
      if (method == "workspace/didChangeWatchedFiles") return did_change_watched_files(params);
      if (method.rfind("$/", 0) != 0) log(LogLevel::kDebug, "ignored notification " + method);
    } catch (const std::exception& e) {
      log(LogLevel::kWarning, method + ": " + e.what());
    }
  }

  void cancel(const json& params) {
    const json& id = member(params, "id");
    auto it = pending_.find(id.dump());
    if (it != pending_.end()) it->second->cancelled = true;
  }

  void did_open(const json& params) {
    const json& item = member(params, "textDocument");
    std::string uri = string_member(item, "uri");
    std::string text = string_member(item, "text");
    int64_t version = item.value("version", int64_t{0});
    std::string path = uri_to_path(uri);
    OpenDocument& open = docs_[uri];
    open.path = path;
    open.doc = std::make_unique<ide::Document>(path.empty() ? uri : path, std::move(text));
    open.lsp_version = version;
    open.versions.clear();
    if (!open.debounce) open.debounce = std::make_unique<Timer>(loop_);
    apply_settings(uri, open, false);
    schedule_diagnostics(uri, 0);
  }

  void did_change(const json& params) {
    OpenDocument& open = document(params);
    std::string uri = string_member(member(params, "textDocument"), "uri");
    const json& changes = member(params, "contentChanges");
    if (!changes.is_array()) throw RequestError(kInvalidParams, "contentChanges must be an array");
    for (const json& change : changes) {
      std::string text = string_member(change, "text");
      auto range = change.find("range");
      if (range == change.end()) {
        open.doc->set_text(std::move(text));
        continue;
      }
      // Each range is in the text as the changes before it left it.
      ir::LineIndex lines(open.doc->text());
      uint32_t begin = lines.offset(parse_position(member(*range, "start")), encoding_);
      uint32_t end = lines.offset(parse_position(member(*range, "end")), encoding_);
      if (end < begin) std::swap(begin, end);
      if (!open.doc->edit(begin, end, text)) {
        log(LogLevel::kError,
            "a change to " + uri + " does not fit the document; it was not applied");
      }
    }
    if (auto v = member(params, "textDocument").find("version");
        v != member(params, "textDocument").end() && v->is_number_integer())
      open.lsp_version = v->get<int64_t>();
    uint64_t delay =
        std::clamp(open.last_check_ms, options_.debounce_min_ms, options_.debounce_max_ms);
    schedule_diagnostics(uri, delay);
  }

  void did_close(const json& params) {
    std::string uri = string_member(member(params, "textDocument"), "uri");
    tokens_.erase(uri);
    if (docs_.erase(uri))
      notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  }

  void schedule_diagnostics(const std::string& uri, uint64_t delay_ms) {
    OpenDocument& open = docs_.at(uri);
    open.versions[open.doc->version()] = open.lsp_version;
    open.debounce->start(delay_ms, [this, uri] { check_now(uri); });
  }

  void check_now(const std::string& uri) {
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    ide::Snapshot snapshot = it->second.doc->snapshot();
    ir::Encoding encoding = encoding_;
    pool_.submit([this, uri, snapshot, encoding] {
      auto started = Clock::now();
      json list;
      try {
        auto checked = snapshot.check();
        list = diagnostics(CheckedDocument(*checked, encoding, uri));
      } catch (const std::exception& e) {
        log(LogLevel::kError, "checking " + uri + " failed: " + e.what());
        return;
      }
      uint64_t ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
      uint64_t version = snapshot.version();
      loop_.post([this, uri, version, ms, list = std::move(list)]() mutable {
        auto it = docs_.find(uri);
        if (it == docs_.end()) return;
        OpenDocument& open = it->second;
        open.last_check_ms = ms;
        auto v = open.versions.find(version);
        int64_t lsp_version = v == open.versions.end() ? open.lsp_version : v->second;
        open.versions.erase(open.versions.begin(), open.versions.upper_bound(version));
        if (open.doc->version() != version) return;  // stale: a newer check is scheduled
        notify("textDocument/publishDiagnostics",
               {{"uri", uri}, {"version", lsp_version}, {"diagnostics", std::move(list)}});
      });
    });
  }

  // --- Settings ------------------------------------------------------------------------------
  // The editor's settings (initializationOptions, didChangeConfiguration); problems are shown.
  void set_settings(const json& settings) {
    std::vector<std::string> problems;
    overrides_ = editor_overrides(settings, problems);
    for (const std::string& p : problems) {
      log(LogLevel::kWarning, "settings: " + p);
      notify("window/showMessage", {{"type", 2}, {"message", "relax: " + p + " (ignored)"}});
    }
  }

  // Resolves a document's settings again; re-checks it when its lint selection changed.
  void apply_settings(const std::string& uri, OpenDocument& open, bool recheck) {
    ProjectConfigs::Resolved r = configs_.resolve(open.path, overrides_);
    if (r.error) {
      std::string message = r.error->to_string();
      log(LogLevel::kError, "configuration: " + message);
      // Once per distinct error, not on every keystroke.
      if (reported_config_errors_.insert(message).second)
        notify("window/showMessage",
               {{"type", 1},
                {"message", "relax: invalid configuration, using the defaults: " + message}});
    }
    open.format = r.settings.format;
    analysis::CheckOptions options = open.doc->options();
    const auto& now = options.rules;
    const auto& want = r.settings.rules;
    if (now.select == want.select && now.extend_select == want.extend_select &&
        now.ignore == want.ignore)
      return;
    options.rules = want;
    open.doc->set_options(options);
    if (recheck) schedule_diagnostics(uri, 0);
  }

  void apply_settings_to_all() {
    for (auto& [uri, open] : docs_) apply_settings(uri, open, true);
  }

  void did_change_configuration(const json& params) {
    set_settings(params.value("settings", json(nullptr)));
    apply_settings_to_all();
  }

  void did_save(const json& params) {
    std::string uri = string_member(member(params, "textDocument"), "uri");
    if (auto it = docs_.find(uri); it != docs_.end()) apply_settings(uri, it->second, true);
  }

  void did_change_watched_files(const json& params) {
    const json& changes = member(params, "changes");
    if (!changes.is_array()) throw RequestError(kInvalidParams, "changes must be an array");
    bool configs = false;
    std::vector<std::pair<std::filesystem::path, bool>> sources;  // path, deleted
    for (const json& change : changes) {
      if (!change.is_object()) continue;
      std::string path = uri_to_path(change.value("uri", ""));
      if (path.empty()) continue;
      if (ProjectConfigs::is_config_file(path)) configs = true;
      if (std::filesystem::path(path).extension() == ".relax")
        sources.emplace_back(path, change.value("type", 0) == 3);
    }
    if (configs) apply_settings_to_all();
    if (!sources.empty() && index_)
      pool_.submit([index = index_, sources] {
        for (const auto& [path, deleted] : sources) {
          if (deleted)
            index->remove(path);
          else
            index->update(path);
        }
      });
  }

  // --- The workspace -------------------------------------------------------------------------
  // The folders to index: workspaceFolders, else rootUri, else rootPath.
  void workspace_folders(const json& params) {
    folders_.clear();
    if (auto f = params.find("workspaceFolders"); f != params.end() && f->is_array()) {
      for (const json& folder : *f)
        if (folder.is_object() && folder.contains("uri") && folder["uri"].is_string())
          if (std::string path = uri_to_path(folder["uri"].get<std::string>()); !path.empty())
            folders_.push_back(path);
    }
    if (folders_.empty())
      if (auto r = params.find("rootUri"); r != params.end() && r->is_string())
        if (std::string path = uri_to_path(r->get<std::string>()); !path.empty())
          folders_.push_back(path);
    if (folders_.empty())
      if (auto r = params.find("rootPath");
          r != params.end() && r->is_string() && !r->get<std::string>().empty())
        folders_.push_back(r->get<std::string>());
  }

  void on_initialized() {
    index_ = std::make_shared<WorkspaceIndex>(encoding_);
    index_->start(folders_);
    if (watch_files_) {
      // Configuration files and sources changed outside the editor (a request of ours; the
      // answer is not needed).
      json watchers = json::array();
      for (const char* glob :
           {"**/relax.toml", "**/.relax.toml", "**/pyproject.toml", "**/*.relax"})
        watchers.push_back({{"globPattern", glob}});
      send({{"jsonrpc", "2.0"},
            {"id", "relax/registerWatchers"},
            {"method", "client/registerCapability"},
            {"params",
             {{"registrations",
               {{{"id", "relax-watchers"},
                 {"method", "workspace/didChangeWatchedFiles"},
                 {"registerOptions", {{"watchers", watchers}}}}}}}}});
    }
  }

  // workspace/symbol: the index's files, with the open documents' current text instead.
  void workspace_symbol(const std::string& key, const json& params) {
    std::string query;
    if (params.is_object() && params.contains("query")) query = string_member(params, "query");
    std::vector<std::pair<std::string, ide::Snapshot>> open;
    for (const auto& [uri, doc] : docs_) {
      std::string path = doc.path.empty() ? uri : path_to_uri(doc.path);
      open.emplace_back(path, doc.doc->snapshot());
    }
    auto pending = pending_.at(key);
    std::shared_ptr<WorkspaceIndex> index = index_;
    ir::Encoding encoding = encoding_;
    pool_.submit([this, key, pending, query, open, index, encoding] {
      std::map<std::string, std::vector<WorkspaceSymbol>> files;
      if (index) files = index->snapshot();
      for (const auto& [uri, snap] : open) files[uri] = file_symbols(*snap.tree(), encoding);
      json result = match_symbols(files, query, kWorkspaceSymbolLimit);
      loop_.post([this, key, pending, result = std::move(result)]() mutable {
        if (pending->cancelled) return reply_error(key, kRequestCancelled, "cancelled");
        reply(key, std::move(result));
      });
    });
  }

  // --- The end -------------------------------------------------------------------------------
  void on_end() {
    log(LogLevel::kInfo, "end of input");
    if (!stopped_) exit_code_ = 1;
    stop();
  }

  void stop() {
    if (stopped_) return;
    stopped_ = true;
    // Requests still in flight are answered (cancelled), so that none goes unanswered.
    std::vector<std::string> keys;
    for (const auto& [key, _] : pending_) keys.push_back(key);
    for (const std::string& key : keys)
      reply_error(key, kRequestCancelled, "the server is exiting");
    loop_.stop();
  }

  static constexpr size_t kWorkspaceSymbolLimit = 100;

  ServerOptions options_;
  Loop loop_;
  Transport transport_;
  std::map<std::string, OpenDocument> docs_;
  std::unordered_map<std::string, std::shared_ptr<Pending>> pending_;
  ir::Encoding encoding_ = ir::Encoding::kUtf16;
  bool snippets_ = false;
  bool watch_files_ = false;  // the client registers file watchers for us
  bool resolve_code_action_edits_ = false;
  config::Overrides overrides_;
  ProjectConfigs configs_;
  std::set<std::string> reported_config_errors_;
  std::vector<std::filesystem::path> folders_;
  std::shared_ptr<WorkspaceIndex> index_;
  // The last semantic tokens sent per document: result id and data.
  std::map<std::string, std::pair<std::string, std::vector<uint32_t>>> tokens_;
  uint64_t token_results_ = 0;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool stopped_ = false;
  int exit_code_ = 1;
  WorkerPool pool_;  // last: its threads stop before the state they post to goes
};

}  // namespace

int serve(int in_fd, int out_fd, const ServerOptions& options) {
  // A client that goes away makes writes fail (reported), not kill the server.
  signal(SIGPIPE, SIG_IGN);
  Server server(in_fd, out_fd, options);
  return server.run();
}

}  // namespace relax::lsp
