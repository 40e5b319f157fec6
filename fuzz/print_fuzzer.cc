// Fuzz harness (c): the printer. For an input that parses without errors, the round-trip
// property of tests/syntax/roundtrip_util.h in both profiles, with constants written in the
// metadata section as `relax print` writes them: the printed text parses without errors to a
// structurally equal module and prints to the same text (a fixpoint). The same holds for what
// `relax print` prints, the normalized module, when normalization finds no errors: its text
// reads back and normalizes without errors to an equal module that prints the same. Inputs with
// errors are printed too (what parsed, what normalized); neither may crash.
#include <string>

#include "analysis/normalize.h"
#include "fuzz/fuzz_support.h"
#include "tests/syntax/roundtrip_util.h"

using namespace relax;

namespace {

std::string print(const syntax::FrontendResult& r, syntax::Profile profile) {
  syntax::PrintOptions options;
  options.profile = profile;
  options.show_meta = true;  // as relax print and relax opt write it
  return r.is_module_class ? syntax::print_module(*r.module, options)
                           : syntax::print_functions(*r.module, options);
}

// `module` printed and read back (normalized again when `normalized`); empty when the property
// holds, else what broke.
std::string round_trip(const syntax::FrontendResult& module, syntax::Profile profile,
                       bool normalized) {
  std::string printed = print(module, profile);
  ir::DiagnosticBag diags;
  syntax::FrontendResult again = syntax::parse_text(printed, "fuzz.printed.relax", diags);
  if (normalized && !diags.has_errors()) analysis::normalize_module(*again.module, diags);
  if (diags.has_errors())
    return "the printed text does not read back:\n" + test::diagnostics_text(diags) + "printed:\n" +
           printed;
  if (auto diff = test::result_diff(module, again))
    return "the printed text reads back to a different module: " + *diff + "\nprinted:\n" + printed;
  if (print(again, profile) != printed)
    return "printing what was read back gives another text (not a fixpoint)\nprinted:\n" + printed;
  return "";
}

void check(const syntax::FrontendResult& module, bool normalized) {
  for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
    std::string failure = round_trip(module, profile, normalized);
    if (!failure.empty())
      fuzz::fail("print_fuzzer", std::string(normalized ? "normalized, " : "as parsed, ") +
                                     test::profile_name(profile) + ": " + failure);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  fuzz::SourceScope scope;

  ir::DiagnosticBag diags;
  syntax::FrontendResult first =
      syntax::parse_text(std::string(fuzz::as_text(data, size)), "fuzz.relax", diags);
  if (diags.has_errors()) {
    (void)print(first, syntax::Profile::kLegacy);
    (void)print(first, syntax::Profile::kCurrent);
    analysis::normalize_module(*first.module, diags);
    (void)print(first, syntax::Profile::kLegacy);
    return 0;
  }
  check(first, /*normalized=*/false);

  analysis::normalize_module(*first.module, diags);
  if (diags.has_errors()) {
    (void)print(first, syntax::Profile::kLegacy);
    return 0;
  }
  check(first, /*normalized=*/true);
  return 0;
}
