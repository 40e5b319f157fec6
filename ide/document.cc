#include "ide/document.h"

#include <utility>

#include "ir/source.h"

namespace relax::ide {

Document::Document(std::string name, std::string text, analysis::CheckOptions options)
    : name_(std::move(name)), options_(std::move(options)) {
  file_ = ir::SourceManager::global().add(name_, text);
  tree_ = syntax::SyntaxTree::parse(std::move(text), file_);
}

Document::~Document() {
  ir::SourceManager::global().replace(file_, "");
}

bool Document::edit(uint32_t begin, uint32_t end, std::string_view replacement) {
  std::unique_ptr<syntax::SyntaxTree> next = tree_->edit(begin, end, replacement);
  if (!next) return false;
  changed(std::move(next));
  return true;
}

void Document::set_text(std::string text) {
  changed(syntax::SyntaxTree::parse(std::move(text), file_));
}

void Document::changed(std::unique_ptr<syntax::SyntaxTree> tree) {
  ir::SourceManager::global().replace(file_, tree->text());
  tree_ = std::move(tree);
  checked_.reset();
  ++version_;
}

std::shared_ptr<const analysis::CheckResult> Document::check() {
  if (!checked_)
    checked_ = std::make_shared<const analysis::CheckResult>(analysis::check_tree(tree_, options_));
  return checked_;
}

void Document::set_options(analysis::CheckOptions options) {
  options_ = std::move(options);
  checked_.reset();
}

}  // namespace relax::ide
