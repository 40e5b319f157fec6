// Random inputs and symbolic sizes from a function's parameter struct info (see run_inputs.h).
#include "vm/run_inputs.h"

#include <algorithm>

#include "vm/dtype.h"
#include "vm/shape_program.h"
#include "vm/tensor.h"

namespace relax::vm {

namespace {

// The slots the dims of `p` (and of its tuple fields) read, appended to `out` once each.
void dim_slots(const vm::ParamInfo& p, std::vector<int64_t>& out) {
  for (const auto& d : p.dims) {
    for (int64_t s : vm::shape_program_slots(d.program))
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  for (const auto& f : p.fields) dim_slots(f, out);
}

// The dims of `p` under the sizes given; nullopt with `error` when one cannot be computed.
std::optional<std::vector<int64_t>> eval_dims(const FunctionInfo& fn, const vm::ParamInfo& p,
                                              const std::string& param, const SizeHeap& heap,
                                              std::string& error) {
  std::vector<int64_t> dims;
  for (const auto& d : p.dims) {
    if (d.program.empty()) {
      error = "--random: dimension `" + d.text + "` of parameter `" + param +
              "` cannot be computed from --shape sizes";
      return std::nullopt;
    }
    for (int64_t s : vm::shape_program_slots(d.program)) {
      if (!heap.known[static_cast<size_t>(s)]) {
        error = "--random: give the size of `" + fn.shape_slot_names[static_cast<size_t>(s)] +
                "` for parameter `" + param + "` with --shape NAME=N";
        return std::nullopt;
      }
    }
    auto value = vm::eval_shape_program(d.program, heap.values);
    if (!value) {
      error = "--random: dimension `" + d.text + "` of parameter `" + param +
              "`: " + value.error().message;
      return std::nullopt;
    }
    if (*value < 0) {
      error = "--random: dimension `" + d.text + "` of parameter `" + param + "` is " +
              std::to_string(*value) + " with the sizes given";
      return std::nullopt;
    }
    dims.push_back(*value);
  }
  return dims;
}

// Fills a tensor with random values of its dtype; false for a dtype it cannot fill.
bool fill_random(vm::TensorObj& tensor, std::mt19937& rng) {
  const DLDataType t = tensor.dtype();
  int64_t n = tensor.numel();
  auto* p = static_cast<uint8_t*>(tensor.data());
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0; i < n; ++i) {
    if (t == vm::kFloat32) {
      reinterpret_cast<float*>(p)[i] = static_cast<float>(real(rng));
    } else if (t == vm::kFloat64) {
      reinterpret_cast<double*>(p)[i] = real(rng);
    } else if (t == vm::kFloat16) {
      reinterpret_cast<uint16_t*>(p)[i] = vm::float_to_half(static_cast<float>(real(rng)));
    } else if (t == vm::kBFloat16) {
      reinterpret_cast<uint16_t*>(p)[i] = vm::float_to_bfloat16(static_cast<float>(real(rng)));
    } else if (vm::is_bool(t)) {
      p[i] = static_cast<uint8_t>(small(rng) % 2);
    } else if (vm::is_integer(t) && t.lanes == 1) {
      // Small non-negative integers (valid as indices of most axes), stored at the width.
      int64_t v = small(rng);
      switch (t.bits) {
        case 8:
          p[i] = static_cast<uint8_t>(v);
          break;
        case 16:
          reinterpret_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(v);
          break;
        case 32:
          reinterpret_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(v);
          break;
        case 64:
          reinterpret_cast<uint64_t*>(p)[i] = static_cast<uint64_t>(v);
          break;
        default:
          return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

std::optional<Value> random_value(const FunctionInfo& fn, const vm::ParamInfo& p,
                                  const std::string& param, const SizeHeap& heap, std::mt19937& rng,
                                  std::string& error) {
  using Kind = vm::ParamInfo::Kind;
  auto unsupported = [&](const std::string& why) {
    error = "--random: parameter `" + param + "` is " + p.text + ": " + why;
    return std::nullopt;
  };
  switch (p.kind) {
    case Kind::kTensor: {
      if (p.dtype.empty() || p.ndim < 0 || p.dims.size() != static_cast<size_t>(p.ndim))
        return unsupported("--random needs a tensor of known shape and dtype");
      auto dt = vm::parse_dtype(p.dtype);
      if (!dt) return unsupported("unsupported dtype " + p.dtype);
      auto dims = eval_dims(fn, p, param, heap, error);
      if (!dims) return std::nullopt;
      vm::Tensor tensor = vm::empty_tensor(*dims, *dt);
      if (!fill_random(*tensor, rng)) return unsupported("unsupported dtype " + p.dtype);
      return Value(tensor);
    }
    case Kind::kShape: {
      if (p.ndim < 0 || p.dims.size() != static_cast<size_t>(p.ndim))
        return unsupported("--random needs a shape of known dims");
      auto dims = eval_dims(fn, p, param, heap, error);
      if (!dims) return std::nullopt;
      return Value::shape(std::move(*dims));
    }
    case Kind::kPrim: {
      if (p.dims.size() != 1 || p.dtype.empty() || p.dtype.starts_with("float") ||
          p.dtype.starts_with("bfloat"))
        return unsupported("--random needs an integer of known value");
      auto dims = eval_dims(fn, p, param, heap, error);
      if (!dims) return std::nullopt;
      return Value((*dims)[0]);
    }
    case Kind::kTuple: {
      std::vector<Value> fields;
      for (size_t i = 0; i < p.fields.size(); ++i) {
        auto v =
            random_value(fn, p.fields[i], param + "[" + std::to_string(i) + "]", heap, rng, error);
        if (!v) return std::nullopt;
        fields.push_back(std::move(*v));
      }
      return Value::tuple(std::move(fields));
    }
    default:
      return unsupported("--random makes tensors, shapes, integers and tuples of them");
  }
}

}  // namespace

std::vector<std::string> symbolic_dims(const FunctionInfo& fn) {
  std::vector<int64_t> slots;
  for (const auto& p : fn.param_info) dim_slots(p, slots);
  std::vector<std::string> names;
  for (int64_t s : slots) names.push_back(fn.shape_slot_names[static_cast<size_t>(s)]);
  return names;
}

SizeHeap size_heap(const FunctionInfo& fn, const std::map<std::string, int64_t>& sizes) {
  SizeHeap heap;
  heap.values.assign(fn.shape_slot_names.size(), 0);
  heap.known.assign(fn.shape_slot_names.size(), false);
  for (size_t i = 0; i < fn.shape_slot_names.size(); ++i) {
    auto it = sizes.find(fn.shape_slot_names[i]);
    if (it == sizes.end()) continue;
    heap.values[i] = it->second;
    heap.known[i] = true;
  }
  return heap;
}

std::vector<std::string> missing_sizes(const FunctionInfo& fn, const SizeHeap& heap,
                                       const std::vector<bool>& given) {
  std::vector<int64_t> slots;
  if (fn.param_info.size() != fn.param_names.size()) return {};
  for (size_t i = 0; i < fn.param_info.size(); ++i)
    if (i >= given.size() || !given[i]) dim_slots(fn.param_info[i], slots);
  std::vector<std::string> out;
  for (int64_t s : slots) {
    auto slot = static_cast<size_t>(s);
    if (slot < heap.known.size() && !heap.known[slot] && slot < fn.shape_slot_names.size())
      out.push_back(fn.shape_slot_names[slot]);
  }
  return out;
}

std::optional<Value> random_input(const FunctionInfo& fn, size_t index, const SizeHeap& heap,
                                  std::mt19937& rng, std::string& error) {
  if (fn.param_info.size() != fn.param_names.size()) {
    error = "--random: the executable records no struct info for the parameters of `" + fn.name +
            "` (it was not built by relax build)";
    return std::nullopt;
  }
  return random_value(fn, fn.param_info[index], fn.param_names[index], heap, rng, error);
}

}  // namespace relax::vm
