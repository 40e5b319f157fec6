// Rule selection and noqa comments.
#include "analysis/lint/suppression.h"

#include <cctype>

#include "analysis/lint/lint_util.h"
#include "ir/source.h"

namespace relax::analysis::lint {

namespace {

// How specifically `selector` matches `code`: its length (ALL: 0), or -1 for no match.
int match_length(std::string_view selector, std::string_view code) {
  if (selector == "ALL") return 0;
  if (code.substr(0, selector.size()) == selector) return static_cast<int>(selector.size());
  return -1;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool is_unsuppressible(std::string_view code) {
  return code.substr(0, 3) == "E01";
}

bool RuleSelection::enabled(std::string_view code, bool default_on) const {
  if (is_unsuppressible(code)) return true;
  int best = -1;
  bool on = select.empty() && default_on;
  auto consider = [&](const std::vector<std::string>& selectors, bool value) {
    for (const auto& s : selectors) {
      int len = match_length(s, code);
      // Longer selectors win; at equal length a later list (ignore) wins.
      if (len >= 0 && len >= best) {
        best = len;
        on = value;
      }
    }
  };
  consider(select, true);
  consider(extend_select, true);
  consider(ignore, false);
  return on;
}

bool is_valid_selector(std::string_view selector) {
  if (selector == "ALL") return true;
  if (selector.empty() || selector.size() > 5 || (selector[0] != 'E' && selector[0] != 'W'))
    return false;
  for (size_t i = 1; i < selector.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(selector[i]))) return false;
  }
  return true;
}

std::optional<std::vector<std::string>> parse_selectors(std::string_view text, std::string* bad) {
  std::vector<std::string> out;
  std::string current;
  auto flush = [&]() -> bool {
    if (current.empty()) return true;
    std::string s = upper(current);
    current.clear();
    if (!is_valid_selector(s)) {
      if (bad) *bad = s;
      return false;
    }
    out.push_back(s);
    return true;
  };
  for (char c : text) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!flush()) return std::nullopt;
    } else {
      current.push_back(c);
    }
  }
  if (!flush()) return std::nullopt;
  return out;
}

bool NoqaDirective::suppresses(const ir::Diagnostic& d) const {
  if (is_unsuppressible(d.code)) return false;
  // A bare `# noqa` silences warnings; errors are only silenced by naming their code.
  if (all) return d.severity != ir::Severity::kError;
  for (const auto& c : codes) {
    if (c == d.code) return true;
  }
  return false;
}

std::optional<NoqaDirective> parse_noqa(std::string_view comment) {
  // `# noqa`, `#noqa: W1001,W1002`, also after other comment text (`# type: x  # noqa`).
  std::string lower;
  for (char c : comment)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  size_t at = std::string::npos;
  for (size_t pos = lower.find("noqa"); pos != std::string::npos;
       pos = lower.find("noqa", pos + 1)) {
    // It must follow a '#' (and blanks).
    size_t k = pos;
    while (k > 0 && (lower[k - 1] == ' ' || lower[k - 1] == '\t')) --k;
    if (k > 0 && lower[k - 1] == '#') {
      at = pos;
      break;
    }
  }
  if (at == std::string::npos) return std::nullopt;
  NoqaDirective d;
  std::string_view rest = comment.substr(at + 4);
  size_t i = 0;
  while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
  if (i >= rest.size() || rest[i] != ':') {
    // `# noqa` alone (or followed by prose).
    if (!rest.empty() && std::isalnum(static_cast<unsigned char>(rest[0])))
      return std::nullopt;  // "noqab"
    d.all = true;
    return d;
  }
  ++i;
  // Codes separated by commas and/or blanks, up to the first word that is not a code.
  std::string current;
  for (; i <= rest.size(); ++i) {
    char c = i < rest.size() ? rest[i] : ' ';
    if (c == ',' || c == ' ' || c == '\t') {
      if (!current.empty()) {
        std::string code = upper(current);
        current.clear();
        if (code.size() != 5 || !is_valid_selector(code)) break;
        d.codes.push_back(code);
      }
      continue;
    }
    current.push_back(c);
  }
  // `# noqa:` without a code means all, as in ruff.
  if (d.codes.empty()) d.all = true;
  return d;
}

NoqaMap collect_noqa(const syntax::SyntaxTree& tree) {
  NoqaMap out;
  auto source = ir::SourceManager::global().get(tree.file());
  uint32_t last_comment = UINT32_MAX;
  for_each_occurrence(
      tree, "noqa",
      [&](syntax::Node n) {
        if (n.kind() != syntax::NodeKind::kComment || n.start() == last_comment) return;
        last_comment = n.start();
        if (auto d = parse_noqa(n.text())) {
          uint32_t line = source ? source->position(n.span().begin).line : n.start_point().row;
          NoqaDirective& slot = out[line];
          slot.all = slot.all || d->all;
          slot.codes.insert(slot.codes.end(), d->codes.begin(), d->codes.end());
        }
      },
      /*ignore_case=*/true);
  return out;
}

}  // namespace relax::analysis::lint
