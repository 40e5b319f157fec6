// The language features, one file each (hover.cc, navigation.cc, symbols.cc, formatting.cc,
// diagnostics.cc), as pure functions of a checked document version: the server calls them on
// a worker thread with the snapshot a request names, and never from two threads on one result
// at once is not required (results are immutable).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/check.h"
#include "ide/document.h"
#include "lsp/protocol.h"
#include "syntax/format.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

// One checked version of a document, with positions in the negotiated encoding.
struct CheckedDocument {
  CheckedDocument(const analysis::CheckResult& result, ir::Encoding encoding, std::string uri)
      : result(result), map(*result.source, encoding), uri(std::move(uri)) {}
  const analysis::CheckResult& result;
  PositionMap map;
  std::string uri;
};

// diagnostics.cc: the document's diagnostics as LSP Diagnostics.
json diagnostics(const CheckedDocument& doc);

// hover.cc: a Hover (Markdown) or null.
json hover(const CheckedDocument& doc, uint32_t offset);

// navigation.cc
json definition(const CheckedDocument& doc, uint32_t offset);  // Location[] (maybe empty)
json references(const CheckedDocument& doc, uint32_t offset, bool include_declaration);
json document_highlight(const CheckedDocument& doc, uint32_t offset);
// The range and current name of what can be renamed at `offset`, or null.
json prepare_rename(const CheckedDocument& doc, uint32_t offset);
// A WorkspaceEdit; throws RequestError (kRequestFailed) for a name that is not an identifier or
// that would clash with a name visible where the symbol is used.
json rename(const CheckedDocument& doc, uint32_t offset, const std::string& new_name);

// symbols.cc: DocumentSymbol[]: the module, its functions, each function's dataflow blocks.
json document_symbols(const CheckedDocument& doc);
// foldingRange: functions, blocks, multi-line calls and comment runs, from the syntax tree.
json folding_ranges(const CheckedDocument& doc);

// completion.cc: a CompletionList; `snippets` when the client takes snippet insert texts.
json completion(const CheckedDocument& doc, uint32_t offset, bool snippets);
// signature_help.cc: a SignatureHelp for the call at `offset`, or null.
json signature_help(const CheckedDocument& doc, uint32_t offset);

// semantic_tokens.cc: the legend the server advertises, the encoded tokens of [begin, end),
// and the edits that turn one encoding into another (semanticTokens/full/delta).
json semantic_tokens_legend();
std::vector<uint32_t> semantic_tokens(const CheckedDocument& doc, uint32_t begin, uint32_t end);
json semantic_tokens_delta(const std::vector<uint32_t>& before, const std::vector<uint32_t>& after);

// inlay_hints.cc: InlayHint[] in [begin, end); SelectionRange[] for each offset.
json inlay_hints(const CheckedDocument& doc, uint32_t begin, uint32_t end);
// The bindings in [begin, end) written `name = value` (no annotation) whose struct info is known:
// where inlay hints and "add the inferred annotation" apply.
std::vector<const syntax::Symbol*> unannotated_bindings(const CheckedDocument& doc, uint32_t begin,
                                                        uint32_t end);
json selection_ranges(const CheckedDocument& doc, const std::vector<uint32_t>& offsets);

// code_actions.cc: CodeAction[] for [begin, end); `only` the kinds asked for (null: all).
// With `resolve_data` (not null) the `source.fixAll` action comes without its edit, carrying
// that data for codeAction/resolve, which fix_all_edit answers.
json code_actions(const CheckedDocument& doc, uint32_t begin, uint32_t end, const json& only,
                  const analysis::CheckOptions& options, const json& resolve_data = nullptr);
// The WorkspaceEdit of `source.fixAll` (what `relax check --fix` applies), or null when the
// fixes change nothing.
json fix_all_edit(const CheckedDocument& doc, const analysis::CheckOptions& options);

// commands.cc: the code lenses ("Run", "Show lowered IR" on each Relax function, carrying the
// commands below with their arguments) and the commands themselves.
json code_lenses(const CheckedDocument& doc);
struct RunRequest {
  std::string function = "main";
  std::vector<std::string> inputs;       // .npy paths by parameter position ("" or none: random)
  std::map<std::string, int64_t> sizes;  // symbolic dimensions of random inputs
  uint32_t seed = 0;
};
struct ShowIRRequest {
  std::string after_pass;  // the module after this pass ("": after the whole pipeline)
  bool tir = false;        // the lowered TIR of the kernels instead
};
// A build that failed: the diagnostics (spans into `source`) go to the document.
struct CommandFailure : RequestError {
  CommandFailure(const std::string& message, std::vector<ir::Diagnostic> diags,
                 const std::string& text);
  std::vector<ir::Diagnostic> diagnostics;
  std::shared_ptr<const ir::SourceFile> source;
};
// {function, inputs, outputs: [{shape, dtype, summary}], compileMs, runMs}; throws RequestError.
json run_function(const ide::Snapshot& snapshot, const RunRequest& request,
                  const std::atomic<bool>& cancelled);
// {text, language}; throws RequestError.
json show_ir(const ide::Snapshot& snapshot, const ShowIRRequest& request);

// formatting.cc: TextEdit[] that format the document (or the lines touching [begin, end)), in
// positions of `map` (over `text`); empty when the text is formatted already or cannot be
// formatted (a syntax error: nothing is sent, the diagnostics say why).
json formatting(std::string_view text, const PositionMap& map,
                const syntax::FormatOptions& options);
json range_formatting(std::string_view text, const PositionMap& map, uint32_t begin, uint32_t end,
                      const syntax::FormatOptions& options);

}  // namespace relax::lsp
