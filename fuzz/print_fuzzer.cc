// Fuzz harness (c): the printer. For an input that parses without errors, the round-trip
// property of tests/syntax/roundtrip_util.h in both profiles: the printed text parses without
// errors to a structurally equal module and prints to the same text (a fixpoint). Inputs with
// errors are printed too (what parsed), and the normalized module is printed as `relax print`
// does; neither may crash.
#include <string>

#include "analysis/normalize.h"
#include "fuzz/fuzz_support.h"
#include "tests/syntax/roundtrip_util.h"

using namespace relax;

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
  (void)test::print_result(first, syntax::Profile::kLegacy);
  return 0;
}
