// Editor benchmark (issue 11's numbers): on ../shared/conformance/large_module_20k.relax, the
// full check of a document (parse, front end, normalize, well-formedness, lints), a
// one-character edit inside one function to fresh diagnostics (ide::Document: incremental
// re-parse, then a check of the new text), symbol_at, and the heap after 10,000 edits. Prints
// the best of several runs; a program, not a test. Link it with jemalloc, as `relax` is, for the
// figures a user sees.
// Usage: document_bench [FILE] [--edits N]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/check.h"
#include "ide/document.h"
#include "ide/queries.h"

using namespace relax;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

template <class F>
double best_of(int runs, F&& f) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    f();
    best = std::min(best, ms_since(start));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = RELAX_SHARED_DIR "/conformance/large_module_20k.relax";
  int edits = 200;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--edits") && i + 1 < argc)
      edits = std::atoi(argv[++i]);
    else
      path = argv[i];
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "document_bench: cannot open %s\n", path.c_str());
    return 1;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();

  ide::Document doc(path, text);
  double full = best_of(5, [&] {
    doc.set_text(text);
    doc.check();
  });
  // A one-character edit in the middle of the file: a space added after a `=` and removed.
  auto at = static_cast<uint32_t>(text.find(" = ", text.size() / 2) + 2);
  bool added = false;
  double edit = best_of(20, [&] {
    doc.edit(at, added ? at + 1 : at, added ? "" : " ");
    added = !added;
    doc.check();
  });
  // symbol_at on the first name of the edited line.
  uint32_t use = static_cast<uint32_t>(text.rfind('\n', at) + 1);
  while (text[use] == ' ') ++use;
  std::string name;
  double query_us;
  {
    auto result = doc.check();
    query_us = 1000 * best_of(1000, [&] { (void)ide::symbol_at(*result, use); });
    const syntax::Symbol* s = ide::symbol_at(*result, use);
    name = s ? std::string(syntax::symbol_kind_name(s->kind)) + " " + s->name : "no symbol";
  }

  struct mallinfo2 before = mallinfo2();
  for (int i = 0; i < edits; ++i) {
    doc.edit(at, added ? at + 1 : at, added ? "" : " ");
    added = !added;
    doc.check();
  }
  struct mallinfo2 after = mallinfo2();

  std::printf("file: %s (%zu bytes)\n", path.c_str(), text.size());
  std::printf("full check (parse, front end, normalize, well-formed, lint): %.1f ms\n", full);
  std::printf("one-character edit to fresh diagnostics:                     %.1f ms\n", edit);
  std::printf("symbol_at (%s): %.2f us\n", name.c_str(), query_us);
  std::printf("heap in use (glibc) before %d more edits: %zu KB, after: %zu KB\n", edits,
              (before.uordblks + before.hblkhd) / 1024, (after.uordblks + after.hblkhd) / 1024);
  return 0;
}
