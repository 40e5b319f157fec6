// Formats ../shared/conformance/large_module_20k.relax and prints the time of each stage and
// lines per second, next to ruff's formatter (its WebAssembly build, tools/ruff-oracle) on the
// same file in the same run. Usage: fmt_bench [FILE] [REPEAT]
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "syntax/cst.h"
#include "syntax/format.h"
#include "syntax/format/ast.h"
#include "syntax/format/comments.h"
#include "syntax/format/doc.h"
#include "syntax/format/formatter.h"

using namespace relax;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

double best(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

// Runs ruff (wasm, in node) on the file; returns its best formatting time in seconds, or a
// negative value when node or the package is missing.
double ruff_seconds(const std::string& path, int repeat, std::string& version) {
  std::string oracle = std::string(RELAX_SOURCE_DIR) + "/tools/ruff-oracle/format.mjs";
  std::string cmd =
      "node '" + oracle + "' --time '" + path + "' " + std::to_string(repeat) + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 512> buf{};
  std::string out;
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  int status = ::pclose(p);
  if (status != 0 || out.empty()) return -1;
  unsigned long lines = 0;
  double secs = -1;
  char ver[64] = {0};
  if (std::sscanf(out.c_str(), "%lu %lf %63s", &lines, &secs, ver) < 2) return -1;
  version = ver;
  return secs;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path =
      argc > 1 ? argv[1] : std::string(RELAX_SHARED_DIR) + "/conformance/large_module_20k.relax";
  int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fmt_bench: cannot open %s\n", path.c_str());
    return 2;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) +
                 (text.empty() || text.back() == '\n' ? 0 : 1);

  std::vector<double> t_parse, t_own, t_layout, t_ast, t_comments, t_doc, t_print, t_format,
      t_checked;
  std::string out;
  std::string verified_by;
  bool ok = true;
  for (int r = 0; r < repeat; ++r) {
    // The stages, measured one by one.
    auto t0 = Clock::now();
    auto tree = syntax::SyntaxTree::parse(text);
    t_parse.push_back(seconds_since(t0));
    t0 = Clock::now();
    std::unique_ptr<syntax::format::Ast> own = syntax::format::Ast::parse(text);
    t_own.push_back(seconds_since(t0));
    t0 = Clock::now();
    syntax::format::Ast ast(*tree);
    t_ast.push_back(seconds_since(t0));
    auto t1 = Clock::now();
    syntax::format::Comments comments(ast);
    t_comments.push_back(seconds_since(t1));
    t1 = Clock::now();
    syntax::format::Document doc;
    syntax::format::Formatter formatter(ast, comments, doc);
    formatter.format_module();
    doc.propagate_expand();
    t_doc.push_back(seconds_since(t1));
    t_layout.push_back(seconds_since(t0));
    t0 = Clock::now();
    out = syntax::format::print_document(doc, {});
    t_print.push_back(seconds_since(t0));

    // The public entry point, without and with the safety checks.
    syntax::FormatOptions fast;
    fast.verify = false;
    ir::DiagnosticBag diags;
    t0 = Clock::now();
    syntax::FormatResult unchecked = syntax::format_text(text, fast, diags, path);
    t_format.push_back(seconds_since(t0));
    t0 = Clock::now();
    syntax::FormatResult checked = syntax::format_text(text, syntax::FormatOptions{}, diags, path);
    t_checked.push_back(seconds_since(t0));
    ok = ok && unchecked.ok && checked.ok && checked.text == unchecked.text;
    verified_by = checked.verified_by;
  }
  std::printf("file: %s (%zu lines, %zu bytes), best of %d runs\n", path.c_str(), lines,
              text.size(), repeat);
  std::printf("  own parser (tree)     %8.1f ms\n", best(t_own) * 1e3);
  std::printf("  tree-sitter parse     %8.1f ms\n", best(t_parse) * 1e3);
  std::printf("  layout (tree, doc)    %8.1f ms\n", best(t_layout) * 1e3);
  std::printf("    tree from the CST   %8.1f ms\n", best(t_ast) * 1e3);
  std::printf("    comment placement   %8.1f ms\n", best(t_comments) * 1e3);
  std::printf("    document            %8.1f ms\n", best(t_doc) * 1e3);
  std::printf("  print document        %8.1f ms\n", best(t_print) * 1e3);
  std::printf("relax fmt, unchecked    %8.1f ms  %10.0f lines/s\n", best(t_format) * 1e3,
              lines / best(t_format));
  std::printf("relax fmt, checked      %8.1f ms  %10.0f lines/s  (safety check: %s)\n",
              best(t_checked) * 1e3, lines / best(t_checked),
              verified_by.empty() ? "none" : verified_by.c_str());
  std::string version;
  double ruff = ruff_seconds(path, repeat, version);
  if (ruff > 0) {
    std::printf("ruff format (wasm %s)  %8.1f ms  %10.0f lines/s\n", version.c_str(), ruff * 1e3,
                lines / ruff);
    std::printf("speed-up: %.1fx unchecked, %.1fx checked\n", ruff / best(t_format),
                ruff / best(t_checked));
  } else {
    std::printf("ruff format (wasm)      unavailable (needs node and tools/ruff-oracle: npm ci)\n");
  }
  if (!ok) {
    std::fprintf(stderr,
                 "fmt_bench: formatting failed or the checked and unchecked outputs differ\n");
    return 1;
  }
  return 0;
}
