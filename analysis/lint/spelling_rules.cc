// Spellings that changed between TVM releases (TEXT_FORMAT.md §8). Both are off by default:
// W1013 legacy-spelling (a note): a spelling current TVM replaced, with the current one as a fix.
// W1014 mixed-spellings: one file using spellings of both profiles; each TVM release accepts
// only some of them, so a mixed file is readable by neither old nor new TVM alone.
#include <string>
#include <vector>

#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

using syntax::Node;
using syntax::NodeKind;

struct Spelling {
  ir::Span span;
  bool legacy;
  std::string written;      // "out_sinfo="
  std::string replacement;  // "out_ty=" (for the message); empty when there is no direct one
  std::string since;        // the first TVM release with the current spelling
  std::string fix_text;     // the text replacing `span`, when a fix is offered
};

struct Rename {
  const char* legacy;
  const char* current;
  const char* since;
};

// Keyword argument names.
const Rename kKeywords[] = {
    {"out_sinfo", "out_ty", "v0.26"},
    {"sinfo_args", "ty_args", "v0.26"},
    {"tir_vars", nullptr, "v0.26"},
};
// Dotted names (attribute nodes).
const Rename kDotted[] = {
    {"R.Object", "R.Any", "v0.26"},
    {"T.block", "T.sblock", "v0.24"},
    {"T.block_attr", "T.sblock_attr", "v0.24"},
    {"T.Ptr", nullptr, "2023"},
    {"T.LetStmt", nullptr, "v0.25"},
};
const char* const kCurrentDotted[] = {"T.sblock_alloc_buffer"};
// String literal contents.
const Rename kStrings[] = {
    {"e4m3_float8", "float8_e4m3fn", "v0.20"},
    {"e5m2_float8", "float8_e5m2", "v0.20"},
    {"tir.noalias", "tirx.noalias", "v0.24"},
};

std::string compact(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

std::vector<Spelling> find_spellings(const syntax::SyntaxTree& tree) {
  std::vector<Spelling> out;
  auto legacy = [&](ir::Span span, std::string written, const char* current, const char* since,
                    std::string fix) {
    out.push_back({span, true, std::move(written), current ? current : "", since, std::move(fix)});
  };
  auto current = [&](ir::Span span, std::string written) {
    out.push_back({span, false, std::move(written), "", "", ""});
  };
  walk_named_nodes(tree, [&](Node n) {
    switch (n.kind()) {
      case NodeKind::kComment:
        return false;
      case NodeKind::kKeywordArgument: {
        Node name = n.field(syntax::Field::kName);
        if (!name) return true;
        std::string_view key = name.text();
        for (const Rename& r : kKeywords) {
          if (key == r.legacy)
            legacy(name.span(), std::string(key) + "=",
                   r.current ? (std::string(r.current) + "=").c_str() : nullptr, r.since,
                   r.current ? r.current : "");
          else if (r.current && key == r.current)
            current(name.span(), std::string(key) + "=");
        }
        // R.Prim(value=...): the prim value's struct info lost `value` in v0.26.
        if (key == "value" && callee_text(n.parent().parent()) == "R.Prim")
          legacy(name.span(), "R.Prim(value=...)", nullptr, "v0.26", "");
        return true;
      }
      case NodeKind::kAttribute: {
        std::string dotted = compact(n.text());
        for (const Rename& r : kDotted) {
          if (dotted == r.legacy)
            legacy(n.span(), dotted, r.current, r.since, r.current ? r.current : "");
          else if (r.current && dotted == r.current)
            current(n.span(), dotted);
        }
        for (const char* c : kCurrentDotted) {
          if (dotted == c) current(n.span(), dotted);
        }
        Node attr = n.field(syntax::Field::kAttribute);
        if (attr && attr.text() == "struct_info")
          legacy(attr.span(), ".struct_info", ".ty", "v0.26", "ty");
        if (attr && attr.text() == "ty") current(attr.span(), ".ty");
        return true;
      }
      case NodeKind::kSubscript: {
        Node value = n.field(syntax::Field::kValue);
        if (value && compact(value.text()) == "T.Buffer")
          legacy(value.span(), "T.Buffer[...]", "T.Buffer(...)", "2023", "");
        return true;
      }
      case NodeKind::kImportFromStatement: {
        Node module_name = n.field(syntax::Field::kModuleName);
        if (!module_name || compact(module_name.text()) != "tvm.script") return false;
        for (Node name : n.fields(syntax::Field::kName)) {
          Node dotted =
              name.kind() == NodeKind::kAliasedImport ? name.field(syntax::Field::kName) : name;
          if (!dotted) continue;
          if (dotted.text() == "tir")
            legacy(dotted.span(), "from tvm.script import tir", "from tvm.script import tirx",
                   "v0.24", "tirx");
          if (dotted.text() == "tirx") current(dotted.span(), "from tvm.script import tirx");
        }
        return false;
      }
      case NodeKind::kString: {
        std::string_view text = n.text();
        if (text.size() < 2) return false;
        std::string_view content = text.substr(1, text.size() - 2);
        for (const Rename& r : kStrings) {
          if (content == r.legacy)
            legacy(n.span(), "\"" + std::string(r.legacy) + "\"",
                   ("\"" + std::string(r.current) + "\"").c_str(), r.since,
                   "\"" + std::string(r.current) + "\"");
          else if (content == r.current && std::string_view(r.legacy) == "tir.noalias")
            current(n.span(), "\"" + std::string(r.current) + "\"");
        }
        return false;
      }
      default:
        return true;
    }
  });
  return out;
}

void check_legacy(LintContext& ctx) {
  if (!ctx.tree()) return;
  for (const Spelling& s : find_spellings(*ctx.tree())) {
    if (!s.legacy) continue;
    std::string message = "`" + s.written + "` is a legacy spelling";
    if (!s.replacement.empty())
      message += "; TVM " + s.since + " and later write `" + s.replacement + "`";
    else
      message += " (replaced in TVM " + s.since + ")";
    auto& d = ctx.report(s.span, message);
    // Safe: both spellings parse to the same IR.
    if (!s.fix_text.empty())
      d.with_fix("write `" + s.replacement + "`", s.span, s.fix_text, ir::FixSafety::kSafe);
  }
}

void check_mixed(LintContext& ctx) {
  if (!ctx.tree()) return;
  std::vector<Spelling> all = find_spellings(*ctx.tree());
  const Spelling* first_legacy = nullptr;
  const Spelling* first_current = nullptr;
  size_t legacy_count = 0, current_count = 0;
  for (const Spelling& s : all) {
    if (s.legacy) {
      ++legacy_count;
      if (!first_legacy) first_legacy = &s;
    } else {
      ++current_count;
      if (!first_current) first_current = &s;
    }
  }
  if (!first_legacy || !first_current) return;
  // Report at the profile used less (the one to rewrite); a tie points at the current one.
  bool report_legacy = legacy_count < current_count;
  const Spelling& at = report_legacy ? *first_legacy : *first_current;
  const Spelling& other = report_legacy ? *first_current : *first_legacy;
  auto count = [](size_t n) { return std::to_string(n) + (n == 1 ? " spelling" : " spellings"); };
  ctx.report(at.span, "this file mixes TVM spellings: `" + at.written + "` is " +
                          (report_legacy ? "legacy" : "current") + " but `" + other.written +
                          "` is " + (report_legacy ? "current" : "legacy"))
      .label(other.span, std::string("a ") + (report_legacy ? "current" : "legacy") + " spelling")
      .note("the file has " + count(legacy_count) + " of the legacy profile and " +
            count(current_count) +
            " of the current one; `relax print --profile legacy|current` writes one profile");
}

}  // namespace

void register_spelling_rules(LintRegistry& registry) {
  registry.add({"W1013", "legacy-spelling",
                "a spelling of TVM v0.23 and earlier that current TVM replaced", false,
                ir::Severity::kNote, false, check_legacy});
  registry.add({"W1014", "mixed-spellings", "a file mixes legacy and current TVM spellings", false,
                ir::Severity::kWarning, false, check_mixed});
}

}  // namespace relax::analysis::lint
