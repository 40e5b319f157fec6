// BindParams: weights as constants of a function (see bind_params.cc).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "ir/diagnostic.h"
#include "ir/expr.h"

namespace relax::compiler::relax_passes {

using ParamMap = std::map<std::string, std::shared_ptr<const ir::TensorData>>;

// How the tensors of a params file find their parameters (match_params): a tensor binds the
// parameter of its own name, else the one whose name is the tensor's with every `.` written `_`
// (PyTorch's state_dict names `conv.weight` what a Relax signature calls `conv_weight`).
struct ParamBinding {
  size_t param;        // index into the parameter list
  std::string tensor;  // the tensor's name in the file
};

// Matches tensor names to a function's parameter names. Reports, at `span`: W0778 for each
// tensor that binds no parameter (with a did-you-mean note), E0779 when a parameter would be
// bound by two tensors (`fc.bias` and `fc_bias`) or a tensor matches two parameters of one
// name. `source` (the file) and `func` name them in messages. The bindings come in parameter
// order; ambiguous ones are left out.
std::vector<ParamBinding> match_params(const std::vector<std::string>& tensors,
                                       const std::vector<std::string>& params,
                                       const std::string& source, const std::string& func,
                                       ir::Span span, ir::DiagnosticBag& diags);

// Binds the parameters of function `func` that the tensors of `params` match (match_params) to
// those tensors. `source` names the file in messages. A module without that function is an
// error (E0773).
Pass bind_params_pass(std::string func, ParamMap params, std::string source = "the params");

// The tensors of a .safetensors file, by name; false with `error` set when it cannot be read.
bool read_params(const std::string& path, ParamMap& out, std::string& error);

}  // namespace relax::compiler::relax_passes
