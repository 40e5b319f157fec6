#include "ide/document.h"

#include <utility>

#include "ir/source.h"

namespace relax::ide {

namespace detail {
// The file id stays registered (ids are never reused) with its text released.
CheckCache::~CheckCache() {
  ir::SourceManager::global().replace(file, "");
}
}  // namespace detail

std::shared_ptr<const analysis::CheckResult> Snapshot::check() const {
  std::lock_guard<std::mutex> lock(cache_->mutex);
  if (cache_->key == key_ && cache_->result) return cache_->result;
  // The file's text in the SourceManager is the version being checked for as long as the
  // check runs (the lints and use spans read it there); the lock keeps other versions out.
  ir::SourceManager::global().replace(cache_->file, tree_->text());
  auto result =
      std::make_shared<const analysis::CheckResult>(analysis::check_tree(tree_, options_));
  // An older snapshot checked late does not replace a newer result.
  if (cache_->key == UINT64_MAX || key_ >= cache_->key) {
    cache_->key = key_;
    cache_->result = result;
  }
  return result;
}

Document::Document(std::string name, std::string text, analysis::CheckOptions options)
    : name_(std::move(name)),
      options_(std::move(options)),
      cache_(std::make_shared<detail::CheckCache>()) {
  cache_->file = ir::SourceManager::global().add(name_, text);
  tree_ = syntax::SyntaxTree::parse(std::move(text), cache_->file);
}

bool Document::edit(uint32_t begin, uint32_t end, std::string_view replacement) {
  std::unique_ptr<syntax::SyntaxTree> next = tree_->edit(begin, end, replacement);
  if (!next) return false;
  changed(std::move(next));
  return true;
}

void Document::set_text(std::string text) {
  changed(syntax::SyntaxTree::parse(std::move(text), cache_->file));
}

void Document::changed(std::unique_ptr<syntax::SyntaxTree> tree) {
  tree_ = std::move(tree);
  ++version_;
}

Snapshot Document::snapshot() const {
  Snapshot s;
  s.tree_ = tree_;
  s.version_ = version_;
  // Versions and option changes both order the cache: the epoch is the high part.
  s.key_ = options_epoch_ << 40 | version_;
  s.options_ = options_;
  s.cache_ = cache_;
  return s;
}

void Document::set_options(analysis::CheckOptions options) {
  options_ = std::move(options);
  ++options_epoch_;
}

}  // namespace relax::ide
