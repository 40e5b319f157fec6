// The .safetensors format (weights for --params): an 8-byte little-endian header size, a JSON
// header {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...,
// "__metadata__": {"key": "value"}}, then the data. Reading validates everything the format
// requires (known dtypes, sizes that match shapes, offsets in range that tile the data with no
// overlap or hole) and reads each tensor straight into its own storage.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "vm/result.h"
#include "vm/tensor.h"

namespace relax::vm {

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

struct SafetensorsFile {
  std::vector<NamedTensor> tensors;  // in data order
  std::map<std::string, std::string> metadata;
};

Result<SafetensorsFile> read_safetensors(const std::string& path);
Result<SafetensorsFile> parse_safetensors(std::span<const uint8_t> bytes);

Result<std::vector<uint8_t>> encode_safetensors(
    const std::vector<NamedTensor>& tensors,
    const std::map<std::string, std::string>& metadata = {});
Status write_safetensors(const std::string& path, const std::vector<NamedTensor>& tensors,
                         const std::map<std::string, std::string>& metadata = {});

}  // namespace relax::vm
