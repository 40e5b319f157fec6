// Fuzz harness (c): the printer. For an input that parses without errors, the round-trip
// property of tests/syntax/roundtrip_util.h in both profiles: the printed text parses without
// errors to a structurally equal module and prints to the same text (a fixpoint). The same holds
// for what `relax print` writes, the normalized module: when normalization finds no errors, its
// text reads back, normalizes without errors to an equal module and prints the same. Inputs with
// errors are printed too (what parsed, what normalized); neither may crash.
#include <string>

#include "analysis/normalize.h"
#include "fuzz/fuzz_support.h"
#include "tests/syntax/roundtrip_util.h"

using namespace relax;

namespace {

// `relax print`'s output read back: parse, normalize, compare with `normalized`, print again.
std::string normalized_round_trip(const syntax::FrontendResult& normalized,
                                  syntax::Profile profile) {
  std::string printed = test::print_result(normalized, profile);
  ir::DiagnosticBag diags;
  syntax::FrontendResult again = syntax::parse_text(printed, "fuzz.printed.relax", diags);
  if (!diags.has_errors()) analysis::normalize_module(*again.module, diags);
  if (diags.has_errors())
    return "the printed text does not read back:\n" + test::diagnostics_text(diags) + "printed:\n" +
           printed;
  if (auto diff = test::result_diff(normalized, again))
    return "the printed text reads back to a different module: " + *diff + "\nprinted:\n" + printed;
  if (test::print_result(again, profile) != printed)
    return "printing what was read back gives another text (not a fixpoint)\nprinted:\n" + printed;
  return "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  fuzz::SourceScope scope;

  ir::DiagnosticBag diags;
  syntax::FrontendResult first =
      syntax::parse_text(std::string(fuzz::as_text(data, size)), "fuzz.relax", diags);
  bool clean = !diags.has_errors();
  for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
    if (!clean) {
      (void)test::print_result(first, profile);
      continue;
    }
    test::RoundTripResult r = test::round_trip_parsed(first, "fuzz.relax", profile);
    if (!r.ok())
      fuzz::fail("print_fuzzer", std::string(test::profile_name(profile)) + ": " + r.failure +
                                     "\nprinted:\n" + r.printed);
  }

  analysis::normalize_module(*first.module, diags);
  if (!clean || diags.has_errors()) {
    (void)test::print_result(first, syntax::Profile::kLegacy);
    return 0;
  }
  for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
    std::string failure = normalized_round_trip(first, profile);
    if (!failure.empty())
      fuzz::fail("print_fuzzer",
                 std::string("normalized, ") + test::profile_name(profile) + ": " + failure);
  }
  return 0;
}
