// Fuzz harness (e): the executable loader (vm::Executable::load, what `relax run` does with a
// model library's embedded blob or a saved executable). Properties: any bytes give a validated
// executable or an error, never a crash or a huge allocation; a loaded executable disassembles,
// and saves to bytes that load again and save to the same bytes.
#include <span>
#include <string>

#include "fuzz/fuzz_support.h"
#include "vm/executable.h"

using namespace relax;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  auto exe = vm::Executable::load(std::span<const uint8_t>(data, size));
  if (!exe) return 0;
  (void)(*exe)->disassemble();

  std::vector<uint8_t> saved = (*exe)->save();
  auto again = vm::Executable::load(saved);
  if (!again)
    fuzz::fail("executable_fuzzer", "the saved executable does not load: " + again.error().message);
  if ((*again)->save() != saved) fuzz::fail("executable_fuzzer", "saving is not a fixpoint");
  return 0;
}
