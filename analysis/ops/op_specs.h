// Shorthands for declaring op entries (argument and attribute specs with their defaults) and
// the generated one-line signature ("R.nn.softmax(data, axis=-1)") hover and completion show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/ops/op_registry.h"

namespace relax::analysis::spec {

ArgSpec arg(std::string name, std::string doc);
ArgSpec optional_arg(std::string name, std::string doc);
ArgSpec variadic_arg(std::string name, std::string doc);

// Attributes with a default (the value TVM's Python function passes when it is not given).
AttrSpec int_attr(std::string name, int64_t def, std::string doc);
AttrSpec float_attr(std::string name, double def, std::string doc);
AttrSpec bool_attr(std::string name, bool def, std::string doc);
AttrSpec string_attr(std::string name, std::string def, std::string doc);
AttrSpec dtype_attr(std::string name, std::string def, std::string doc);  // "void" = None
AttrSpec ints_attr(std::string name, std::vector<int64_t> def, std::string doc);
// Attributes whose default is None.
AttrSpec optional_attr(std::string name, AttrKind kind, std::string doc);
// The attribute, also accepting None (its default stays).
AttrSpec or_none(AttrSpec spec);
// Attributes that must be given.
AttrSpec required_attr(std::string name, AttrKind kind, std::string doc);

// "R.nn.conv2d(data, weight, strides=[1, 1], ...)": arguments, then attributes in the order they
// bind positionally, each with its default.
std::string signature_of(const OpInfo& op);
// A default value as Python writes it: None, True, -1, 1e-05, "NCHW", [1, 1].
std::string value_text(const ir::ObjectRef& value);

// Registers `op`, generating its signature when none is set.
void add_op(OpRegistry& registry, OpInfo op);

}  // namespace relax::analysis::spec
