// The check pipeline: front end, normalize, well-formedness, lint, suppression, sorting.
#include "analysis/check.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <unordered_set>

#include "analysis/diagnostics/limits.h"
#include "analysis/lint/lint.h"
#include "analysis/normalize.h"
#include "analysis/well_formed.h"
#include "ir/source.h"
#include "syntax/frontend.h"

namespace relax::analysis {

namespace fs = std::filesystem;

size_t CheckResult::count(ir::Severity severity) const {
  return static_cast<size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [&](const ir::Diagnostic& d) { return d.severity == severity; }));
}

bool default_enabled(std::string_view code) {
  if (const lint::LintRule* rule = lint::LintRegistry::global().find(code)) return rule->default_on;
  return true;
}

namespace {

bool overlaps(const ir::Span& a, const ir::Span& b) {
  if (a.file != b.file) return false;
  if (a.begin == a.end || b.begin == b.end) return a.begin >= b.begin && a.begin <= b.end;
  return a.begin < b.end && b.begin < a.end;
}

int severity_rank(ir::Severity s) {
  switch (s) {
    case ir::Severity::kError:
      return 0;
    case ir::Severity::kWarning:
      return 1;
    case ir::Severity::kNote:
      return 2;
  }
  return 0;
}

}  // namespace

CheckResult check_tree(std::shared_ptr<const syntax::SyntaxTree> tree,
                       const CheckOptions& options) {
  CheckResult result;
  result.tree = tree;
  lint::NoqaMap noqa;
  if (options.honour_noqa && tree) noqa = lint::collect_noqa(*tree);
  auto source = tree ? ir::SourceManager::global().get(tree->file()) : nullptr;
  // A document's file may hold another version's text by now: the spans point into the tree's.
  if (tree && (!source || source->text() != tree->text()))
    source =
        std::make_shared<const ir::SourceFile>(source ? source->name() : "<input>", tree->text());
  result.source = source;
  // Every diagnostic points into the file, at its start when nothing better is known.
  auto located = [&](ir::Span span) {
    return !span.is_known() && tree ? ir::Span{tree->file(), 0, 0} : span;
  };
  auto silenced_by_noqa = [&](const ir::Diagnostic& d) {
    ir::Span span = located(d.span);
    if (noqa.empty() || !source || span.file != tree->file()) return false;
    auto it = noqa.find(source->position(span.begin).line);
    return it != noqa.end() && it->second.suppresses(d);
  };

  ir::DiagnosticBag diags;
  // Only what is reported counts toward the limit: not a code the selection drops, nor one a
  // `# noqa` silences.
  if (options.max_errors)
    diags.set_error_limit(options.max_errors, [&](const ir::Diagnostic& d) {
      return options.rules.enabled(d.code, default_enabled(d.code)) && !silenced_by_noqa(d);
    });
  syntax::FrontendResult fe = syntax::parse_tree(tree, diags);
  result.module = fe.module;
  result.symbols = fe.symbols;
  lint::WrittenFacts facts = lint::collect_written_facts(*fe.module);
  facts.incomplete_module = !fe.failed_functions.empty();
  facts.is_module_class = fe.is_module_class;
  facts.symbols = fe.symbols.get();
  // Past the error limit nothing more is checked.
  if (!diags.limit_reached()) normalize_module(*fe.module, diags);
  WellFormedOptions well_formed;
  well_formed.standalone_functions = !fe.is_module_class;
  if (!diags.limit_reached()) check_well_formed(*fe.module, diags, well_formed);
  diags.remove_duplicates();
  size_t first_lint = diags.size();
  if (!diags.limit_reached())
    lint::run_lints(
        *fe.module, tree.get(), facts,
        [&](const lint::LintRule& rule) {
          return options.rules.enabled(rule.code, rule.default_on);
        },
        diags);

  // Lint rules that yield to errors are dropped where an error already points.
  std::vector<const ir::Diagnostic*> errors;
  for (size_t i = 0; i < first_lint; ++i) {
    if (diags.items()[i].severity == ir::Severity::kError) errors.push_back(&diags.items()[i]);
  }

  for (size_t i = 0; i < diags.size(); ++i) {
    ir::Diagnostic& d = diags.items()[i];
    d.span = located(d.span);
    if (i >= first_lint) {
      const lint::LintRule* rule = lint::LintRegistry::global().find(d.code);
      if (rule && rule->yields_to_errors &&
          std::any_of(errors.begin(), errors.end(),
                      [&](const ir::Diagnostic* e) { return overlaps(e->span, d.span); }))
        continue;
    } else if (!options.rules.enabled(d.code, default_enabled(d.code))) {
      continue;
    }
    if (silenced_by_noqa(d)) {
      ++result.suppressed;
      continue;
    }
    // A fix that deletes a comment loses what the author wrote: never applied without asking.
    if (d.fix && d.fix->safety == ir::FixSafety::kSafe && source &&
        d.fix->span.file == tree->file() && d.fix->span.end <= source->text().size()) {
      std::string_view replaced =
          std::string_view(source->text())
              .substr(d.fix->span.begin, d.fix->span.end - d.fix->span.begin);
      if (std::count(replaced.begin(), replaced.end(), '#') >
          std::count(d.fix->replacement.begin(), d.fix->replacement.end(), '#'))
        d.fix->safety = ir::FixSafety::kUnsafe;
    }
    result.diagnostics.push_back(std::move(d));
  }
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const ir::Diagnostic& a, const ir::Diagnostic& b) {
                     if (a.span.file != b.span.file) return a.span.file < b.span.file;
                     if (a.span.begin != b.span.begin) return a.span.begin < b.span.begin;
                     if (a.severity != b.severity)
                       return severity_rank(a.severity) < severity_rank(b.severity);
                     return a.code < b.code;
                   });
  // E0001 ends the list: it says where checking stopped.
  ir::Diagnostic notice;
  if (limit_notice(diags, notice)) {
    notice.span = located(notice.span);
    result.diagnostics.push_back(std::move(notice));
  }
  return result;
}

CheckResult check_text(std::string text, const std::string& name, const CheckOptions& options) {
  uint32_t file = ir::SourceManager::global().add(name, text);
  std::shared_ptr<const syntax::SyntaxTree> tree = syntax::SyntaxTree::parse(std::move(text), file);
  return check_tree(std::move(tree), options);
}

InputFiles expand_inputs(const std::vector<std::string>& inputs) {
  InputFiles out;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& path) {
    if (path == "-" || seen.insert(path).second) out.files.push_back(path);
  };
  for (const auto& input : inputs) {
    if (input == "-") {
      add(input);
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(input, ec);
    if (ec || !fs::exists(status)) {
      out.errors.push_back("cannot open '" + input + "': " + std::strerror(ENOENT));
      continue;
    }
    if (!fs::is_directory(status)) {
      add(input);
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(input, fs::directory_options::skip_permission_denied, ec),
        end;
    if (ec) {
      out.errors.push_back("cannot read the directory '" + input + "': " + ec.message());
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        out.errors.push_back("cannot read the directory '" + input + "': " + ec.message());
        break;
      }
      if (it->is_regular_file(ec) && it->path().extension() == ".relax")
        found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found) add(f);
  }
  return out;
}

bool read_source(const std::string& path, std::string& text, std::string& error, bool* bom) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      error = "cannot open '" + path + "': " + std::strerror(errno);
      return false;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) {
      error = "cannot read '" + path + "'";
      return false;
    }
  }
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  bool has_bom = text.starts_with(kByteOrderMark);
  if (has_bom) text.erase(0, kByteOrderMark.size());
  if (bom) *bom = has_bom;
  return true;
}

std::vector<FileCheck> check_files(const std::vector<std::string>& files,
                                   const CheckOptions& options) {
  std::vector<FileCheck> out;
  for (const auto& path : files) {
    FileCheck fc;
    fc.path = path;
    fc.name = path == "-" ? "<stdin>" : path;
    std::string text;
    if (!read_source(path, text, fc.error)) {
      fc.read_error = true;
      out.push_back(std::move(fc));
      continue;
    }
    fc.result = check_text(std::move(text), fc.name, options);
    out.push_back(std::move(fc));
  }
  return out;
}

}  // namespace relax::analysis
