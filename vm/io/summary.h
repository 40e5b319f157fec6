// A numpy-like text summary of a tensor for `relax run` output and R.print: its dtype and shape,
// the values (only the first and last few along each axis, with `...`, once the tensor has
// more than `threshold` elements), and min/max/mean for floating-point tensors.
#pragma once

#include <cstdint>
#include <string>

#include "vm/tensor.h"

namespace relax::vm {

struct SummaryOptions {
  int64_t threshold = 1000;  // summarize above this many elements (numpy's default)
  int64_t edge_items = 3;    // elements kept at each end of a summarized axis
  bool header = true;        // first line "float32[2, 3]"
  bool stats = true;         // last line "min …, max …, mean …" for floats
};

std::string summarize_tensor(const TensorObj& t, const SummaryOptions& options = {});

// A double as the summary prints it: integral values without a fraction ("3"), others with up
// to 6 significant digits ("0.333333", "1e-07"), "nan", "inf".
std::string format_scalar(double v);

}  // namespace relax::vm
