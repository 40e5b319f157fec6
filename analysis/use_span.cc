// Finding a variable's use in the source text of the expression that uses it.
#include "analysis/use_span.h"

#include <cctype>

#include "ir/source.h"

namespace relax::analysis {

namespace {

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

ir::Span find_identifier(ir::Span within, const std::string& name, size_t occurrence,
                         bool attribute) {
  if (!within.is_known() || name.empty()) return ir::Span::unknown();
  auto file = ir::SourceManager::global().get(within.file);
  if (!file) return ir::Span::unknown();
  std::string_view text = file->slice(within);
  size_t found = 0;
  ir::Span last = ir::Span::unknown();
  for (size_t p = 0; p < text.size();) {
    char c = text[p];
    if (c == '"' || c == '\'') {
      char quote = c;
      for (++p; p < text.size() && text[p] != quote; ++p) {
        if (text[p] == '\\') ++p;
      }
      ++p;
      continue;
    }
    if (c == '#') {
      while (p < text.size() && text[p] != '\n') ++p;
      continue;
    }
    if (!is_ident_char(c)) {
      ++p;
      continue;
    }
    size_t start = p;
    while (p < text.size() && is_ident_char(text[p])) ++p;
    if (text.substr(start, p - start) != name ||
        std::isdigit(static_cast<unsigned char>(text[start])))
      continue;
    size_t before = start;
    while (before > 0 && text[before - 1] == ' ') --before;
    if (before > 0 && text[before - 1] == '.' && !attribute) continue;  // cls.x
    size_t after = p;
    while (after < text.size() && text[after] == ' ') ++after;
    if (after + 1 < text.size() && text[after] == '=' && text[after + 1] != '=')
      continue;  // a keyword name
    if (after < text.size() && text[after] == '=' && after + 1 == text.size()) continue;
    last = ir::Span{within.file, within.begin + static_cast<uint32_t>(start),
                    within.begin + static_cast<uint32_t>(p)};
    if (found++ == occurrence) return last;
  }
  return last;
}

ir::Span argument_span(const ir::Call& call, size_t i) {
  if (i >= call.args.size()) return call.span;
  const auto& arg = call.args[i];
  // Variables and global variables are shared nodes: their spans are their definitions.
  std::string name;
  if (auto v = arg.as_ptr<ir::Var>()) name = v->name;
  if (auto g = arg.as_ptr<ir::GlobalVar>()) name = g->name;
  if (name.empty()) return arg && arg->span.is_known() ? arg->span : call.span;
  size_t occurrence = 0;
  for (size_t j = 0; j < i; ++j) {
    if (call.args[j].get() == arg.get()) ++occurrence;
  }
  // Skip the callee's own text (`R.add`, `cls.f`): arguments start after the first parenthesis.
  ir::Span args = call.span;
  if (auto file = ir::SourceManager::global().get(call.span.file)) {
    std::string_view text = file->slice(call.span);
    size_t open = text.find('(');
    if (open != std::string_view::npos) args.begin += static_cast<uint32_t>(open);
  }
  ir::Span found = find_identifier(args, name, occurrence, arg.is<ir::GlobalVar>());
  return found.is_known() ? found : call.span;
}

}  // namespace relax::analysis
