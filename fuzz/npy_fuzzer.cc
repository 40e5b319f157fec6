// Fuzz harness (d): the .npy reader (`relax run` inputs). Properties: any bytes give a tensor or
// an error, never a crash or a huge allocation; a tensor it reads can be summarized, and writes
// back to a file that reads to an equal tensor and writes the same bytes again.
#include <span>
#include <string>

#include "fuzz/fuzz_support.h"
#include "vm/io/npy.h"
#include "vm/io/summary.h"

using namespace relax;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  auto tensor = vm::parse_npy(std::span<const uint8_t>(data, size));
  if (!tensor) return 0;
  (void)vm::summarize_tensor(**tensor);

  auto encoded = vm::encode_npy(**tensor);
  if (!encoded)
    fuzz::fail("npy_fuzzer", "a tensor read does not write: " + encoded.error().message);
  auto again = vm::parse_npy(*encoded);
  if (!again) fuzz::fail("npy_fuzzer", "the written file does not read: " + again.error().message);
  if (!vm::tensor_equal(**tensor, **again))
    fuzz::fail("npy_fuzzer", "the written file reads to another tensor");
  auto reencoded = vm::encode_npy(**again);
  if (!reencoded || *reencoded != *encoded) fuzz::fail("npy_fuzzer", "writing is not a fixpoint");
  return 0;
}
