// A document an editor changes: it owns its text, keeps one SourceManager id for its whole life
// (so spans and diagnostics of every version name the same file), re-parses incrementally on
// each edit (SyntaxTree::edit) and checks on demand, caching the result of the current
// version. A Document is used from one thread at a time; what check() returns is an immutable
// snapshot that any thread may read (its `source` is the text it was checked against).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "analysis/check.h"
#include "syntax/cst.h"

namespace relax::ide {

class Document {
 public:
  Document(std::string name, std::string text, analysis::CheckOptions options = {});
  // The file id stays registered (ids are never reused) with its text released.
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const std::string& name() const { return name_; }
  const std::string& text() const { return tree_->text(); }
  uint32_t file() const { return file_; }
  // 0 for the text it was opened with, then one more per change.
  uint64_t version() const { return version_; }
  const std::shared_ptr<const syntax::SyntaxTree>& tree() const { return tree_; }

  // Replaces the bytes [begin, end) with `replacement` and re-parses incrementally. False (and
  // nothing changes) when the range is not inside the text or the text would grow past
  // tree-sitter's 32-bit offsets.
  bool edit(uint32_t begin, uint32_t end, std::string_view replacement);
  // Replaces the whole text (an editor's full-document change).
  void set_text(std::string text);

  // The check of the current version (parse, front end, normalize, well-formedness, lints),
  // computed on the first call after a change.
  std::shared_ptr<const analysis::CheckResult> check();
  void set_options(analysis::CheckOptions options);

 private:
  void changed(std::unique_ptr<syntax::SyntaxTree> tree);

  std::string name_;
  uint32_t file_ = 0;
  uint64_t version_ = 0;
  analysis::CheckOptions options_;
  std::shared_ptr<const syntax::SyntaxTree> tree_;
  std::shared_ptr<const analysis::CheckResult> checked_;
};

}  // namespace relax::ide
