// The LSP's data types as JSON, in one place: positions and ranges (byte offsets of our
// libraries to line/character in the negotiated encoding and back), URIs, diagnostics, the
// error codes, and the exception a handler throws for bad params. Features build their answers
// with these and never convert a position themselves.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ir/diagnostic.h"
#include "ir/source.h"

namespace relax::lsp {

using json = nlohmann::json;

// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
  kServerCancelled = -32802,
  kContentModified = -32801,
  kRequestCancelled = -32800,
};

// Thrown by a handler to answer with an error (bad params: kInvalidParams).
// `data`, when not null, goes with the error (what a client needs to act on it).
struct RequestError : std::runtime_error {
  RequestError(int code, const std::string& message, nlohmann::json data = nullptr)
      : std::runtime_error(message), code(code), data(std::move(data)) {}
  int code;
  nlohmann::json data;
};

// Reads a required member of the params; throws kInvalidParams naming it when it is missing or
// of another type.
const json& member(const json& object, std::string_view key);
std::string string_member(const json& object, std::string_view key);
int64_t int_member(const json& object, std::string_view key);

// Positions of one version of a document in the negotiated encoding.
class PositionMap {
 public:
  PositionMap(const ir::SourceFile& file, ir::Encoding encoding)
      : file_(file), encoding_(encoding) {}
  json position(uint32_t offset) const;
  json range(uint32_t begin, uint32_t end) const;
  json range(ir::Span span) const { return range(span.begin, span.end); }
  // The byte offset of an LSP Position (clamped as the protocol says); throws kInvalidParams
  // for a malformed one.
  uint32_t offset(const json& position) const;
  const ir::SourceFile& file() const { return file_; }
  ir::Encoding encoding() const { return encoding_; }

 private:
  const ir::SourceFile& file_;
  ir::Encoding encoding_;
};

// Reads an LSP Position without a document: line and character.
ir::Position parse_position(const json& position);

// "utf-8", "utf-16", "utf-32".
const char* encoding_name(ir::Encoding encoding);

// A file:// URI's path (percent-decoded), or "" for another scheme.
std::string uri_to_path(std::string_view uri);
std::string path_to_uri(std::string_view path);

// An LSP Diagnostic: range, severity, code with its documentation link, source "relax", the
// message with the notes after it, labels as related information, and tags (unused: 1,
// deprecated: 2) from the code's documentation.
json diagnostic_json(const ir::Diagnostic& diagnostic, const PositionMap& map,
                     const std::string& uri);

}  // namespace relax::lsp
