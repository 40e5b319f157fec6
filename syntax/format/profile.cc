// Profile spelling rewrites (see profile.h). Each rewrite replaces one token (an attribute name,
// a keyword name, a string literal's text, an import name, a comment's text) found through the
// syntax tree; nothing else in the text moves, so comments stay where they are.
#include "syntax/format/profile.h"

#include <tree_sitter/api.h>
#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "syntax/format/literals.h"

namespace relax::syntax::format {

namespace {

// One spelling pair: legacy, current.
struct Pair {
  const char* legacy;
  const char* current;
};

// `T.<name>` attribute names.
constexpr Pair kTirNames[] = {{"block", "sblock"}, {"block_attr", "sblock_attr"}};
// `R.<name>` attribute names.
constexpr Pair kRelaxNames[] = {{"Object", "Any"}};
// Keyword argument names of `R.` calls: `sinfo_args` of any op call; `out_sinfo` only of the
// calls that read it as the output struct info (for another op it is an attribute, whose name
// renaming would change the IR).
constexpr Pair kRelaxKeywords[] = {{"out_sinfo", "out_ty"}, {"sinfo_args", "ty_args"}};
constexpr std::string_view kOutSinfoCalls[] = {"call_tir", "call_tir_inplace", "call_tir_with_grad",
                                               "call_dps_packed"};
// String literal values.
constexpr Pair kStrings[] = {{"tir.noalias", "tirx.noalias"}};
// String literal values renamed in both profiles (the old FP8 names predate both).
constexpr Pair kBothStrings[] = {{"e4m3_float8", "float8_e4m3fn"}, {"e5m2_float8", "float8_e5m2"}};
// Comment texts (after `#` and spaces).
constexpr Pair kComments[] = {
    {"from tvm.script import tir as T", "from tvm.script import tirx as T"},
    {"with T.block(\"root\"):", "with T.sblock(\"root\"):"}};

struct Edit {
  uint32_t start, end;
  std::string text;
};

const char* target(const Pair& p, Profile profile) {
  return profile == Profile::kLegacy ? p.legacy : p.current;
}
const char* other(const Pair& p, Profile profile) {
  return profile == Profile::kLegacy ? p.current : p.legacy;
}

// The replacement for `text` when it is the other profile's spelling of a pair, or null.
template <size_t N>
const char* rename(const Pair (&pairs)[N], std::string_view text, Profile profile) {
  for (const Pair& p : pairs) {
    if (text == other(p, profile)) return target(p, profile);
  }
  return nullptr;
}

bool is_name(const syntax::Node& n, std::string_view name) {
  return n && n.kind() == NodeKind::kIdentifier && n.text() == name;
}

// The object name of the function of the call that holds a keyword argument (`R` in
// `R.call_tir(..., out_sinfo=...)`), or "".
// The callee `R.f` of the call a keyword argument belongs to, as {"R", "f"} (empty otherwise).
std::pair<std::string_view, std::string_view> callee_of(const syntax::Node& keyword) {
  syntax::Node args = keyword.parent();
  if (!args || args.kind() != NodeKind::kArgumentList) return {};
  syntax::Node call = args.parent();
  if (!call || call.kind() != NodeKind::kCall) return {};
  syntax::Node fn = call.field(Field::kFunction);
  if (!fn || fn.kind() != NodeKind::kAttribute) return {};
  syntax::Node object = fn.field(Field::kObject);
  syntax::Node method = fn.field(Field::kAttribute);
  if (!object || object.kind() != NodeKind::kIdentifier || !method) return {};
  return {object.text(), method.text()};
}

std::string_view callee_object(const syntax::Node& keyword) {
  return callee_of(keyword).first;
}

class Rewriter {
 public:
  Rewriter(const SyntaxTree& tree, Profile profile) : tree_(tree), profile_(profile) {}

  std::string run() {
    TSTreeCursor cursor = ts_tree_cursor_new(tree_.root().raw());
    bool more = true;
    while (more) {
      visit(syntax::Node(ts_tree_cursor_current_node(&cursor), &tree_));
      if (ts_tree_cursor_goto_first_child(&cursor)) continue;
      while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
        if (!ts_tree_cursor_goto_parent(&cursor)) {
          more = false;
          break;
        }
      }
    }
    ts_tree_cursor_delete(&cursor);
    std::sort(edits_.begin(), edits_.end(),
              [](const Edit& a, const Edit& b) { return a.start < b.start; });
    std::string_view src = tree_.text();
    std::string out;
    out.reserve(src.size());
    uint32_t at = 0;
    for (const Edit& e : edits_) {
      if (e.start < at) continue;  // (overlaps cannot happen; be safe)
      out.append(src.substr(at, e.start - at));
      out.append(e.text);
      at = e.end;
    }
    out.append(src.substr(at));
    return out;
  }

 private:
  void replace(const syntax::Node& n, std::string text) {
    edits_.push_back({n.start(), n.end(), std::move(text)});
  }

  void visit(const syntax::Node& n) {
    switch (n.kind()) {
      case NodeKind::kAttribute: {
        syntax::Node object = n.field(Field::kObject);
        syntax::Node attr = n.field(Field::kAttribute);
        if (!attr) return;
        const char* to = nullptr;
        if (is_name(object, "T")) to = rename(kTirNames, attr.text(), profile_);
        if (is_name(object, "R")) to = rename(kRelaxNames, attr.text(), profile_);
        if (to) replace(attr, to);
        return;
      }
      case NodeKind::kKeywordArgument: {
        syntax::Node name = n.field(Field::kName);
        if (!name || callee_object(n) != "R") return;
        if (const char* to = rename(kRelaxKeywords, name.text(), profile_)) {
          std::string_view method = callee_of(n).second;
          bool out_sinfo = name.text() == "out_sinfo" || name.text() == "out_ty";
          if (!out_sinfo || std::find(std::begin(kOutSinfoCalls), std::end(kOutSinfoCalls),
                                      method) != std::end(kOutSinfoCalls))
            replace(name, to);
        }
        // `out_dtype="void"` (legacy) is `out_dtype=None` (current).
        syntax::Node value = n.field(Field::kValue);
        if (name.text() == "out_dtype" && value) {
          if (profile_ == Profile::kCurrent && value.kind() == NodeKind::kString &&
              string_text(value) == "void") {
            replace(value, "None");
          } else if (profile_ == Profile::kLegacy && value.kind() == NodeKind::kNone) {
            replace(value, "\"void\"");
          }
        }
        return;
      }
      case NodeKind::kString: {
        std::string_view body = string_text(n);
        if (body.empty()) return;
        const char* to = rename(kStrings, body, profile_);
        if (!to) {
          for (const Pair& p : kBothStrings) {
            if (body == p.legacy) to = p.current;
          }
        }
        if (to) {
          StringParts parts = split_string(n.text());
          replace(n, std::string(parts.prefix) + std::string(parts.quote) + to +
                         std::string(parts.quote));
        }
        return;
      }
      case NodeKind::kImportFromStatement: {
        // `from tvm.script import tir as T` <-> `tirx`.
        syntax::Node module = n.field(Field::kModuleName);
        if (!module || module.text() != "tvm.script") return;
        for (const syntax::Node& c : n.named_children()) {
          if (c.kind() != NodeKind::kAliasedImport) continue;
          syntax::Node name = c.field(Field::kName);
          syntax::Node alias = c.field(Field::kAlias);
          if (!name || !is_name(alias, "T")) continue;
          std::string_view want = profile_ == Profile::kLegacy ? "tir" : "tirx";
          std::string_view from = profile_ == Profile::kLegacy ? "tirx" : "tir";
          if (name.text() == from) replace(name, std::string(want));
        }
        return;
      }
      case NodeKind::kComment: {
        std::string_view text = n.text();
        size_t k = 1;
        while (k < text.size() && text[k] == ' ') ++k;
        std::string_view content = text.substr(k);
        while (!content.empty() &&
               (content.back() == ' ' || content.back() == '\t' || content.back() == '\r')) {
          content.remove_suffix(1);
        }
        if (const char* to = rename(kComments, content, profile_)) {
          edits_.push_back({n.start() + static_cast<uint32_t>(k),
                            n.start() + static_cast<uint32_t>(k + content.size()), to});
        }
        return;
      }
      default:
        return;
    }
  }

  // The body of a plain (non-raw, non-byte, non-f) string without escapes, or "".
  static std::string_view string_text(const syntax::Node& n) {
    StringParts p = split_string(n.text());
    if (p.quote.empty() || p.bytes || p.triple()) return {};
    for (char c : p.prefix) {
      if (c == 'f' || c == 'F' || c == 't' || c == 'T') return {};
    }
    if (p.body.find('\\') != std::string_view::npos) return {};
    return p.body;
  }

  const SyntaxTree& tree_;
  Profile profile_;
  std::vector<Edit> edits_;
};

}  // namespace

std::string rewrite_profile(const SyntaxTree& tree, Profile profile) {
  return Rewriter(tree, profile).run();
}

void normalize_spellings(std::vector<CanonicalToken>& tokens) {
  auto map_to_legacy = [](std::string& text, const char* prefix, const auto& pairs) {
    size_t len = std::strlen(prefix);
    if (text.compare(0, len, prefix) != 0) return;
    std::string_view rest = std::string_view(text).substr(len);
    for (const Pair& p : pairs) {
      if (rest == p.current) {
        text = std::string(prefix) + p.legacy;
        return;
      }
    }
  };
  for (CanonicalToken& t : tokens) {
    map_to_legacy(t.text, "identifier ", kTirNames);
    map_to_legacy(t.text, "identifier ", kRelaxNames);
    map_to_legacy(t.text, "identifier ", kRelaxKeywords);
    map_to_legacy(t.text, "str s:", kStrings);
    map_to_legacy(t.text, "str s:", kBothStrings);
    if (t.text == "identifier tirx") t.text = "identifier tir";
    if (t.text == "none None") t.text = "str s:void";
    map_to_legacy(t.text, "# ", kComments);
  }
}

}  // namespace relax::syntax::format
