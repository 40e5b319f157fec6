// A document an editor changes: it owns its text, keeps one SourceManager id for its whole life
// (so spans and diagnostics of every version name the same file), re-parses incrementally on
// each edit (SyntaxTree::edit) and checks on demand, caching the result of the latest version
// checked. A Document is changed from one thread (the language server's loop); a Snapshot is
// one version of it, immutable, that any thread may check: checks of one document are
// serialized (they share its file id), checks of different documents run in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "analysis/check.h"
#include "syntax/cst.h"

namespace relax::ide {

namespace detail {
// What the snapshots of one document share: the file id and the cached check.
struct CheckCache {
  ~CheckCache();
  uint32_t file = 0;
  std::mutex mutex;
  uint64_t key = UINT64_MAX;  // the version and options epoch of `result`
  std::shared_ptr<const analysis::CheckResult> result;
};
}  // namespace detail

class Snapshot {
 public:
  uint64_t version() const { return version_; }
  const std::string& text() const { return tree_->text(); }
  const std::shared_ptr<const syntax::SyntaxTree>& tree() const { return tree_; }
  uint32_t file() const { return cache_->file; }
  // The check of this version (parse, front end, normalize, well-formedness, lints): computed
  // once per version, on whichever thread asks first; safe to call from any thread.
  std::shared_ptr<const analysis::CheckResult> check() const;

 private:
  friend class Document;
  std::shared_ptr<const syntax::SyntaxTree> tree_;
  uint64_t version_ = 0;
  uint64_t key_ = 0;
  analysis::CheckOptions options_;
  std::shared_ptr<detail::CheckCache> cache_;
};

class Document {
 public:
  Document(std::string name, std::string text, analysis::CheckOptions options = {});
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const std::string& name() const { return name_; }
  const std::string& text() const { return tree_->text(); }
  uint32_t file() const { return cache_->file; }
  // 0 for the text it was opened with, then one more per change.
  uint64_t version() const { return version_; }
  const std::shared_ptr<const syntax::SyntaxTree>& tree() const { return tree_; }

  // Replaces the bytes [begin, end) with `replacement` and re-parses incrementally. False (and
  // nothing changes) when the range is not inside the text or the text would grow past
  // tree-sitter's 32-bit offsets.
  bool edit(uint32_t begin, uint32_t end, std::string_view replacement);
  // Replaces the whole text (an editor's full-document change).
  void set_text(std::string text);

  // The current version, to check or read on another thread.
  Snapshot snapshot() const;
  // The check of the current version (snapshot().check()).
  std::shared_ptr<const analysis::CheckResult> check() const { return snapshot().check(); }
  void set_options(analysis::CheckOptions options);
  const analysis::CheckOptions& options() const { return options_; }

 private:
  void changed(std::unique_ptr<syntax::SyntaxTree> tree);

  std::string name_;
  uint64_t version_ = 0;
  uint64_t options_epoch_ = 0;
  analysis::CheckOptions options_;
  std::shared_ptr<const syntax::SyntaxTree> tree_;
  std::shared_ptr<detail::CheckCache> cache_;
};

}  // namespace relax::ide
