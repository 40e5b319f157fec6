// BindParams: weights as constants of a function (see bind_params.cc).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "compiler/pass.h"
#include "ir/expr.h"

namespace relax::compiler::relax_passes {

using ParamMap = std::map<std::string, std::shared_ptr<const ir::TensorData>>;

// Binds the parameters of function `func` named in `params` to those tensors.
Pass bind_params_pass(std::string func, ParamMap params);

// The tensors of a .safetensors file, by name; false with `error` set when it cannot be read.
bool read_params(const std::string& path, ParamMap& out, std::string& error);

}  // namespace relax::compiler::relax_passes
