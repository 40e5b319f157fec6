// TVM's metadata section: the constants a module refers to as `metadata["relax.expr.Constant"][i]`,
// written as `metadata = tvm.ir.load_json("""...""")` at the top of the text. The JSON is TVM's
// object graph (a Map of kinds to Arrays of nodes) and each tensor is a base64 NDArray blob.
// Read by the front end, written by the printer (PrintOptions::show_meta).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expr.h"

namespace relax::syntax {

using ConstantData = std::shared_ptr<const ir::TensorData>;

// The most dimensions a constant may have: numpy's limit, which TVM's R.const and its NDArray
// blobs inherit (a blob with more is malformed).
inline constexpr int kMaxConstantRank = 64;

// The relax.expr.Constant payloads of a section's JSON (the string after decoding), by index.
// False with `error` set when the JSON, the graph or a tensor blob is malformed.
bool parse_metadata_json(std::string_view json, std::vector<ConstantData>& constants,
                         std::string& error);

// The section's JSON graph for `constants` (index i holds constants[i]), laid out as TVM's
// SaveJSON graph of v0.20: Constant nodes with their TensorStructInfo, ShapeExpr and
// DynTensorType, so that TVM's `tvm.ir.load_json` reads it back.
std::string metadata_json(const std::vector<const ir::TensorData*>& constants);

// The statement that opens a printed module with constants:
// `metadata = tvm.ir.load_json("""<json, with " and \ escaped as TVM does>""")` and a newline.
std::string metadata_statement(const std::vector<const ir::TensorData*>& constants);

// Standard base64 (RFC 4648, with padding). Decoding skips whitespace; false on anything else
// that is not base64.
std::string base64_encode(const std::vector<uint8_t>& bytes);
bool base64_decode(std::string_view text, std::vector<uint8_t>& out);

}  // namespace relax::syntax
