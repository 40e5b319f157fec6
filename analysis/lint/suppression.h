// Choosing which diagnostics a run reports, as ruff does: `--select` / `--extend-select` /
// `--ignore` take codes or code prefixes (`W1001`, `W10`, `E`, `ALL`), the most specific
// selector deciding; `# noqa` on a line silences every warning reported there, and
// `# noqa: W1001, W1002` the listed codes. Syntax errors (E01xx) are always reported: the rest
// of a file that does not parse was not checked.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/diagnostic.h"
#include "syntax/cst.h"

namespace relax::analysis::lint {

struct RuleSelection {
  std::vector<std::string> select;         // replaces the default set when not empty
  std::vector<std::string> extend_select;  // added to the set
  std::vector<std::string> ignore;         // removed from the set

  // Whether a code is reported. `default_on` is the code's default: true for every error and
  // front-end warning, the registry's choice for lint rules.
  bool enabled(std::string_view code, bool default_on) const;
};

// True for a selector: `ALL`, or E/W followed by up to four digits.
bool is_valid_selector(std::string_view selector);
// Splits "W1001,W10 E" (commas and/or spaces) into selectors; nullopt with the bad one in
// `bad` when one is not a valid selector.
std::optional<std::vector<std::string>> parse_selectors(std::string_view text,
                                                        std::string* bad = nullptr);

// The `# noqa` comments of a file, by 0-based line.
struct NoqaDirective {
  bool all = false;                // bare `# noqa`
  std::vector<std::string> codes;  // `# noqa: W1001, W1002`
  bool suppresses(const ir::Diagnostic& d) const;
};
using NoqaMap = std::unordered_map<uint32_t, NoqaDirective>;

// Reads one comment's directive (the text from '#'); nullopt when it is not a noqa comment.
std::optional<NoqaDirective> parse_noqa(std::string_view comment);
NoqaMap collect_noqa(const syntax::SyntaxTree& tree);

// Syntax errors, which no selection or noqa hides.
bool is_unsuppressible(std::string_view code);

}  // namespace relax::analysis::lint
