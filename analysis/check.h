// The check driver behind `relax check` and the language server's diagnostics: parse a file,
// normalize it (struct-info inference), check well-formedness, run the lint rules, then drop
// what `# noqa` comments and the rule selection silence, and sort what is left by position.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/lint/suppression.h"
#include "ir/diagnostic.h"
#include "ir/module.h"
#include "ir/source.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::analysis {

struct CheckOptions {
  lint::RuleSelection rules;
  // Honour `# noqa` comments (`relax check --ignore-noqa` turns this off).
  bool honour_noqa = true;
  // Stop after this many reported errors (0: no limit; `relax check --max-errors`): the rest of
  // the file is not checked, and the diagnostics end with E0001 at the first error left out.
  size_t max_errors = 0;
};

struct CheckResult {
  // The reported diagnostics, sorted by position (then errors first, then by code); E0001 last
  // when the error limit stopped the check.
  std::vector<ir::Diagnostic> diagnostics;
  // How many diagnostics `# noqa` comments silenced.
  size_t suppressed = 0;
  // The normalized module (for the language server's hovers); never null.
  ir::Ref<ir::IRModule> module;
  std::shared_ptr<const syntax::SyntaxTree> tree;
  // The front end's definitions and uses (null only when the text was not parsed).
  std::shared_ptr<const syntax::SymbolIndex> symbols;
  // The text the spans point into, as it was checked (a document's file id keeps its number
  // when the editor changes the text; this is the version these results belong to).
  std::shared_ptr<const ir::SourceFile> source;

  size_t count(ir::Severity severity) const;
};

// Checks a syntax tree (its file already registered in the SourceManager).
CheckResult check_tree(std::shared_ptr<const syntax::SyntaxTree> tree,
                       const CheckOptions& options = {});
// Registers `text` under `name` in the SourceManager and checks it.
CheckResult check_text(std::string text, const std::string& name, const CheckOptions& options = {});

// Whether a code is reported by default: every error and front-end warning; for lint rules
// the registry says.
bool default_enabled(std::string_view code);

// The files a list of command-line inputs names: files as given ("-" is standard input),
// directories walked recursively for `*.relax` files in sorted order. Inputs that do not exist
// are reported in `errors` ("cannot open 'x': No such file or directory").
struct InputFiles {
  std::vector<std::string> files;
  std::vector<std::string> errors;
};
InputFiles expand_inputs(const std::vector<std::string>& inputs);

struct FileCheck {
  std::string path;  // as given ("-" for standard input)
  std::string name;  // as diagnostics show it ("<stdin>")
  bool read_error = false;
  std::string error;  // why the file could not be read
  CheckResult result;
};
// Reads a file, or standard input for "-"; false with `error` set ("cannot open 'x': ...").
// A UTF-8 byte order mark is not part of `text` (so columns count from the first character);
// `bom`, when given, says whether there was one.
bool read_source(const std::string& path, std::string& text, std::string& error,
                 bool* bom = nullptr);

// Reads and checks each file (after expand_inputs), in order.
std::vector<FileCheck> check_files(const std::vector<std::string>& files,
                                   const CheckOptions& options = {});

}  // namespace relax::analysis
