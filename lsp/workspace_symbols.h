// workspace/symbol: the modules and functions of every `.relax` file in the workspace folders,
// indexed in the background from the syntax tree alone (no front end: fast, and a file with
// errors keeps its symbols), kept current from didChangeWatchedFiles; open documents answer
// from their current text instead of the disk's.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ir/source.h"
#include "lsp/protocol.h"
#include "syntax/cst.h"

namespace relax::lsp {

struct WorkspaceSymbol {
  std::string name;
  int kind = 12;          // an LSP SymbolKind: 2 module, 12 function
  std::string container;  // the module of a function
  json range;             // of the name, in the negotiated encoding
};

// The symbols of one parsed file (module classes and their functions, top-level functions).
std::vector<WorkspaceSymbol> file_symbols(const syntax::SyntaxTree& tree, ir::Encoding encoding);

// How well `query` matches `name`: 0 for no match; exact, then prefix, then substring, then a
// case-insensitive subsequence ("mm" matches "matmul"), each higher than the next.
int symbol_match_score(std::string_view query, std::string_view name);

// SymbolInformation[] for `query` from `symbols` (uri: the file's symbols), best first, at most
// `limit`.
json match_symbols(const std::map<std::string, std::vector<WorkspaceSymbol>>& symbols,
                   const std::string& query, size_t limit);

class WorkspaceIndex {
 public:
  // Limits that keep a huge folder (a home directory opened as a workspace) from holding the
  // server: files indexed, entries looked at, bytes per file and directory depth.
  static constexpr size_t kMaxFiles = 20000;
  static constexpr size_t kMaxEntries = 500000;  // directory entries looked at, of any kind
  static constexpr uintmax_t kMaxFileBytes = 16u << 20;
  static constexpr int kMaxDepth = 32;

  explicit WorkspaceIndex(ir::Encoding encoding) : encoding_(encoding) {}
  ~WorkspaceIndex();
  // Indexes the folders on a background thread (once).
  void start(std::vector<std::filesystem::path> folders);
  // A file created, changed or deleted on disk.
  void update(const std::filesystem::path& file);
  void remove(const std::filesystem::path& file);
  // Every file's symbols, by URI (a copy: queries run on another thread).
  std::map<std::string, std::vector<WorkspaceSymbol>> snapshot() const;
  bool done() const { return done_; }

 private:
  void index_file(const std::filesystem::path& file);

  ir::Encoding encoding_;
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<WorkspaceSymbol>> files_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace relax::lsp
