// Fuzz harness (d): the .safetensors reader (`relax run --params`). Properties: any bytes give
// the tensors or an error, never a crash or a huge allocation; what it reads can be summarized,
// and writes back to a file that reads to the same names, tensors and metadata and writes the
// same bytes again.
#include <span>
#include <string>

#include "fuzz/fuzz_support.h"
#include "vm/io/safetensors.h"
#include "vm/io/summary.h"

using namespace relax;

namespace {

bool same(const vm::SafetensorsFile& a, const vm::SafetensorsFile& b) {
  if (a.metadata != b.metadata || a.tensors.size() != b.tensors.size()) return false;
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    if (a.tensors[i].name != b.tensors[i].name) return false;
    if (!vm::tensor_equal(*a.tensors[i].tensor, *b.tensors[i].tensor)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  auto file = vm::parse_safetensors(std::span<const uint8_t>(data, size));
  if (!file) return 0;
  for (const auto& t : file->tensors) (void)vm::summarize_tensor(*t.tensor);

  auto encoded = vm::encode_safetensors(file->tensors, file->metadata);
  if (!encoded)
    fuzz::fail("safetensors_fuzzer", "what was read does not write: " + encoded.error().message);
  auto again = vm::parse_safetensors(*encoded);
  if (!again)
    fuzz::fail("safetensors_fuzzer", "the written file does not read: " + again.error().message);
  if (!same(*file, *again)) fuzz::fail("safetensors_fuzzer", "the written file reads differently");
  auto reencoded = vm::encode_safetensors(again->tensors, again->metadata);
  if (!reencoded || *reencoded != *encoded)
    fuzz::fail("safetensors_fuzzer", "writing is not a fixpoint");
  return 0;
}
