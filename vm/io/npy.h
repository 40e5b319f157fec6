// NumPy's .npy format: read and write one tensor. Versions 1.0, 2.0 and 3.0 headers are read;
// 1.0 is written (2.0 when the header needs more than 64 KiB). Little-endian, C order;
// float16/32/64, int8/16/32/64, uint8/16/32/64 and bool. Fortran order, big-endian data,
// other dtypes (complex, strings, structured) and truncated files are errors that say so.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vm/result.h"
#include "vm/tensor.h"

namespace relax::vm {

Result<Tensor> read_npy(const std::string& path);
Result<Tensor> parse_npy(std::span<const uint8_t> bytes);

Result<std::vector<uint8_t>> encode_npy(const TensorObj& tensor);
Status write_npy(const std::string& path, const TensorObj& tensor);

// The numpy descr of a dtype ("<f4", "|b1"), or empty if numpy has none (bfloat16).
std::string npy_descr(DLDataType dtype);

}  // namespace relax::vm
