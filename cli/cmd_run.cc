// `relax run`: build a .relax file (or load a model library or a serialized executable, told
// apart by their first bytes), bind inputs and weights, run a function on the VM (warm-up runs
// first when timing with --repeat), print the result and timing as text or one JSON object, and
// write the result.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "cli/build_common.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/file_kind.h"
#include "compiler/build.h"
#include "ir/parse_int.h"
#include "ir/tir_visitor.h"
#include "syntax/printer.h"
#include "vm/dtype.h"
#include "vm/run_inputs.h"
#include "vm/runtime.h"
#include "vm/shape_program.h"

namespace relax::cli {

namespace {

using vm::random_input;
using vm::size_heap;
using vm::SizeHeap;
using vm::symbolic_dims;

using json = nlohmann::ordered_json;

std::string shape_text(std::span<const int64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

void print_value(const vm::Value& v, const std::string& label) {
  if (const vm::TensorObj* t = v.as_tensor()) {
    std::cout << label << "shape " << shape_text(t->shape()) << ", dtype "
              << vm::dtype_name(t->dtype()) << "\n"
              << vm::summarize_tensor(*t) << "\n";
  } else if (const vm::TupleObj* tup = v.as_tuple()) {
    std::cout << label << "tuple of " << tup->size() << "\n";
    for (size_t i = 0; i < tup->size(); ++i)
      print_value((*tup)[i], label + "[" + std::to_string(i) + "] ");
  } else {
    std::cout << label << vm::describe_value(v) << "\n";
  }
}

// A JSON number, or null for NaN and infinities (JSON has none).
json number(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

// Tensors with at most this many elements list their values (numpy's summary threshold).
constexpr int64_t kJsonValuesLimit = 1000;

json value_json(const vm::Value& v) {
  json j;
  if (const vm::TensorObj* t = v.as_tensor()) {
    j["kind"] = "tensor";
    j["shape"] = std::vector<int64_t>(t->shape().begin(), t->shape().end());
    j["dtype"] = vm::dtype_name(t->dtype());
    int64_t n = t->numel();
    j["numel"] = n;
    DLDataType dt = t->dtype();
    bool numeric = (vm::is_float(dt) || vm::is_integer(dt) || vm::is_bool(dt)) && dt.lanes == 1 &&
                   t->device().device_type == kDLCPU;
    if (!numeric) {
      j["summary"] = vm::summarize_tensor(*t);
      return j;
    }
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    json values = json::array();
    bool integral = !vm::is_float(dt);
    for (int64_t i = 0; i < n; ++i) {
      double x = vm::load_as_double(t->data(), dt, i);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
      if (n <= kJsonValuesLimit) {
        if (integral && dt.bits == 64 && dt.code == kDLInt)
          values.push_back(t->data_as<int64_t>()[i]);  // exact beyond 2^53
        else if (integral && dt.bits == 64)
          values.push_back(t->data_as<uint64_t>()[i]);
        else
          values.push_back(number(x));
      }
    }
    json summary;
    summary["min"] = n ? number(lo) : json(nullptr);
    summary["max"] = n ? number(hi) : json(nullptr);
    summary["mean"] = n ? number(sum / static_cast<double>(n)) : json(nullptr);
    j["summary"] = summary;
    j["values"] = n <= kJsonValuesLimit ? values : json(nullptr);
  } else if (const vm::TupleObj* tup = v.as_tuple()) {
    j["kind"] = "tuple";
    j["fields"] = json::array();
    for (size_t i = 0; i < tup->size(); ++i) j["fields"].push_back(value_json((*tup)[i]));
  } else if (v.kind() == vm::ValueKind::kInt) {
    j["kind"] = "int";
    j["value"] = v.as_int();
  } else if (v.kind() == vm::ValueKind::kFloat) {
    j["kind"] = "float";
    j["value"] = number(v.as_float());
  } else if (const vm::ShapeObj* s = v.as_shape()) {
    j["kind"] = "shape";
    j["value"] = std::vector<int64_t>(s->dims().begin(), s->dims().end());
  } else {
    j["kind"] = "other";
    j["text"] = vm::describe_value(v);
  }
  return j;
}

// Writes the result to `path` (a tuple to PATH_0.npy, PATH_1.npy, ...), each file atomically and
// never over one of the command's `inputs`.
bool write_outputs(const vm::Value& v, const std::string& path,
                   const std::vector<std::string>& inputs) {
  if (const vm::TupleObj* tup = v.as_tuple()) {
    auto dot = path.rfind(".npy");
    std::string stem = dot == std::string::npos ? path : path.substr(0, dot);
    for (size_t i = 0; i < tup->size(); ++i) {
      if (!write_outputs((*tup)[i], stem + "_" + std::to_string(i) + ".npy", inputs)) return false;
    }
    return true;
  }
  if (!refuse_overwriting_inputs("-o", path, inputs)) return false;
  const vm::TensorObj* t = v.as_tensor();
  if (!t) {
    print_error("cannot write " + path + ": the result is " + vm::describe_value(v) +
                ", not a tensor");
    return false;
  }
  auto st = vm::write_npy(path, *t);
  if (!st) {
    print_error(st.error().message);
    return false;
  }
  return true;
}

// The VM functions of an executable, comma-separated.
std::string function_names(const vm::Executable& exe) {
  std::string names;
  for (const auto& f : exe.functions) {
    if (f.kind == vm::FunctionKind::kVMFunction) names += (names.empty() ? "" : ", ") + f.name;
  }
  return names.empty() ? "none" : names;
}

// Timing statistics of the timed runs (seconds, sorted in place).
struct Stats {
  double min = 0, median = 0, mean = 0, p90 = 0;
};
Stats stats_of(std::vector<double> times) {
  Stats s;
  if (times.empty()) return s;
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  s.min = times.front();
  s.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  double total = 0;
  for (double t : times) total += t;
  s.mean = total / static_cast<double>(n);
  // Nearest rank: the smallest time at least 90% of the runs do not exceed.
  size_t rank = static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n)));
  s.p90 = times[std::max<size_t>(rank, 1) - 1];
  return s;
}

}  // namespace

Runner add_run_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::vector<std::string> args;
    std::string func = "main";
    bool random = false;
    std::vector<std::string> shapes;
    std::string output;
    int repeat = 1;
    bool profile = false;
    bool json = false;
    std::string trace;
    std::string params;
    std::vector<std::string> load;
    std::string target = "llvm";
    unsigned seed = 0;
    bool bounds_check = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Compile and run a function of a .relax file (or a model library) on the VM");
  cmd->add_option("file", o->input,
                  "Input: a .relax file, a model library (relax build) or a serialized "
                  "executable, told apart by their contents")
      ->required();
  cmd->add_option("inputs", o->args, "Inputs: .npy files in parameter order, or NAME=path.npy");
  cmd->add_option("--func", o->func, "The function to run (default main)");
  cmd->add_flag("--random", o->random,
                "Random inputs for the parameters not given (floats in [-1, 1))");
  cmd->add_option("--shape", o->shapes,
                  "NAME=N: the value of a symbolic dimension for --random (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("-o,--output", o->output,
                  "Write the result to OUT.npy (a tuple writes OUT_0.npy, OUT_1.npy, ...)");
  CLI::Option* repeat =
      cmd->add_option("--repeat", o->repeat,
                      "Time N runs after max(1, N/10) warm-up runs; print min, median, mean, p90")
          ->transform(whole_integer())
          ->check(CLI::PositiveNumber);
  cmd->add_flag("--profile", o->profile, "Print the time spent in each kernel and builtin");
  cmd->add_flag("--json", o->json,
                "Print one JSON object (outputs, timing, profile) on stdout instead of text");
  cmd->add_option("--trace", o->trace,
                  "Write every call (kernels, builtins, functions) as a Chrome trace to OUT.json "
                  "(chrome://tracing, Perfetto)");
  cmd->add_option("--params", o->params,
                  "Bind the tensors of a .safetensors file to the parameters of those names, "
                  "`.` matching `_` (conv.weight binds conv_weight)");
  cmd->add_option("--load", o->load,
                  "Load a shared library of extern functions (R.call_dps_packed); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--target", o->target, "Target (default llvm: the host CPU)");
  cmd->add_option("--seed", o->seed, "Seed of --random (default 0)")->transform(whole_integer());
  add_bounds_check_flag(cmd, o->bounds_check);
  add_max_errors_option(cmd);
  cmd->footer(
      "Outputs are written atomically (a temporary file beside them, then a rename) and never over "
      "an\ninput file; a failed write exits 2 and keeps the previous file.\n"
      "Exit codes: 0 ok, 1 errors in the input, the build or the run, 2 usage or I/O errors.");
  return [o, repeat]() -> int {
    // Every file the command reads: no output may replace one.
    std::vector<std::string> read_files = {o->input, o->params};
    read_files.insert(read_files.end(), o->load.begin(), o->load.end());
    for (const std::string& a : o->args) {
      auto eq = a.find('=');
      read_files.push_back(eq == std::string::npos ? a : a.substr(eq + 1));
    }
    if (!refuse_overwriting_inputs("-o", o->output, read_files) ||
        !refuse_overwriting_inputs("--trace", o->trace, read_files))
      return kExitUsage;
    std::vector<std::shared_ptr<const vm::KernelLibrary>> libraries;
    for (const std::string& path : o->load) {
      auto lib = vm::SharedLibrary::open(path);
      if (!lib) {
        print_error(lib.error().message);
        return kExitUsage;
      }
      libraries.push_back(*lib);
    }
    auto kind = detect_file_kind(o->input);
    if (!kind) return kExitUsage;
    // The content decides what a file is; but a `.so` that is not ELF (an empty or cut-off copy,
    // a text file renamed) is a broken model library, not a module to parse.
    if (o->input.ends_with(".so") && *kind != FileKind::kSharedLibrary) {
      std::error_code ec;
      bool empty = std::filesystem::file_size(o->input, ec) == 0 && !ec;
      print_error("cannot load " + o->input + ": it is not an ELF shared library (" +
                  (empty ? std::string("the file is empty") : std::string(describe(*kind))) + ")");
      return kExitInputErrors;
    }
    std::optional<vm::Module> model;
    if (*kind == FileKind::kSharedLibrary) {
      if (o->bounds_check) {
        print_error(
            "--bounds-check applies when kernels are compiled; build the model with "
            "`relax build --bounds-check` instead");
        return kExitUsage;
      }
      vm::ModuleOptions mo;
      mo.libraries = o->load;
      auto loaded = vm::Module::load(o->input, mo);
      if (!loaded) {
        print_error(loaded.error().message);
        return kExitInputErrors;
      }
      model.emplace(std::move(*loaded));
    } else if (*kind == FileKind::kExecutable) {
      // An executable alone has no kernels: they come from the --load libraries.
      auto exe = vm::Executable::load_file(o->input);
      if (!exe) {
        print_error(exe.error().message);
        return kExitInputErrors;
      }
      auto m = vm::Module::from_parts(*exe, std::make_shared<vm::LibraryChain>(libraries));
      if (!m) {
        bool kernels =
            std::any_of((*exe)->functions.begin(), (*exe)->functions.end(),
                        [](const auto& f) { return f.kind == vm::FunctionKind::kKernel; });
        print_error(m.error().message +
                    (kernels ? " (" + o->input +
                                   " is a serialized executable, which holds no kernels: build a "
                                   "model library with `relax build FILE -o OUT`, or --load one "
                                   "with them)"
                             : ""));
        return kExitInputErrors;
      }
      model.emplace(std::move(*m));
    } else if (*kind == FileKind::kText) {
      auto target = parse_target_option(o->target);
      if (!target) return kExitUsage;
      int load_exit = kExitOk;
      auto module = load_relax_module(o->input, load_exit);
      if (!module) return load_exit;
      if (!check_relax_function(*module, o->func)) return kExitInputErrors;
      compiler::PassContext ctx;
      apply_bounds_check(o->bounds_check, ctx);
      auto result = compiler::build(module, *target, ctx);
      print_diagnostics(ctx.diagnostics());
      if (!result.ok()) return kExitInputErrors;
      auto chain = std::make_shared<vm::LibraryChain>();
      if (result.kernels) chain->add(result.kernels);
      for (const auto& lib : libraries) chain->add(lib);
      auto m = vm::Module::from_parts(result.executable, chain);
      if (!m) {
        print_error(m.error().message);
        return kExitInputErrors;
      }
      model.emplace(std::move(*m));
    } else {
      print_error(o->input + " is " + describe(*kind) +
                  ", not a .relax file, a model library or a serialized executable");
      return kExitUsage;
    }
    const vm::Executable& exe = model->executable();
    auto index = exe.find_function(o->func);
    if (!index ||
        exe.functions[static_cast<size_t>(*index)].kind != vm::FunctionKind::kVMFunction) {
      print_error("the model has no function `" + o->func +
                  "` (its functions: " + function_names(exe) + ")");
      return kExitInputErrors;
    }
    const vm::FunctionInfo& fn = exe.functions[static_cast<size_t>(*index)];
    const std::vector<std::string>& names = fn.param_names;
    if (!o->params.empty()) {
      if (!expect_file_kind(o->params, FileKind::kSafetensors, "--params")) return kExitUsage;
      std::vector<std::string> bound;
      int bind_exit = bind_model_params(*model, o->params, o->func, bound);
      if (bind_exit != kExitOk) return bind_exit;
    }

    // Inputs given, in parameter order or by name.
    std::vector<std::optional<vm::Value>> inputs(names.size());
    std::vector<std::string> sources(names.size());
    size_t next = 0;
    for (const std::string& a : o->args) {
      auto eq = a.find('=');
      std::string path = eq == std::string::npos ? a : a.substr(eq + 1);
      size_t slot = next;
      if (eq != std::string::npos) {
        auto it = std::find(names.begin(), names.end(), a.substr(0, eq));
        if (it == names.end()) {
          print_error("`" + o->func + "` has no parameter `" + a.substr(0, eq) + "`");
          return kExitUsage;
        }
        slot = static_cast<size_t>(it - names.begin());
      } else {
        while (slot < inputs.size() && inputs[slot]) ++slot;
        next = slot + 1;
      }
      if (slot >= inputs.size()) {
        print_error("too many inputs: `" + o->func + "` takes " + std::to_string(names.size()));
        return kExitUsage;
      }
      if (!expect_file_kind(path, FileKind::kNpy, "input `" + names[slot] + "`")) return kExitUsage;
      auto t = vm::read_npy(path);
      if (!t) {
        print_error(t.error().message);
        return kExitUsage;
      }
      inputs[slot] = vm::Value(*t);
      sources[slot] = path;
    }
    // A parameter is either given or bound by --params, never both.
    for (size_t i = 0; i < names.size(); ++i) {
      if (inputs[i] && model->bound_param(names[i])) {
        print_error("parameter `" + names[i] + "` of `" + o->func + "` is given as an input (" +
                    sources[i] + ") and bound by --params (" + o->params + "); give it once");
        return kExitUsage;
      }
    }

    // Symbolic sizes for --random, each one a variable of the function's parameters.
    std::map<std::string, int64_t> sizes;
    std::vector<std::string> symbolic = symbolic_dims(fn);
    for (const std::string& s : o->shapes) {
      auto eq = s.find('=');
      std::string name = s.substr(0, eq == std::string::npos ? 0 : eq);
      std::string value = eq == std::string::npos ? "" : s.substr(eq + 1);
      // The whole value, in decimal: `5x`, `0x10` and `1e3` are refused, not read as 5, 0, 1.
      std::optional<int64_t> size = ir::parse_int64(value);
      if (name.empty() || !size || *size < 0) {
        print_error("--shape expects NAME=N with N a non-negative decimal integer, not `" + s +
                    "`");
        return kExitUsage;
      }
      if (!fn.param_info.empty() &&
          std::find(symbolic.begin(), symbolic.end(), name) == symbolic.end()) {
        std::string known;
        for (const auto& n : symbolic) known += (known.empty() ? "" : ", ") + n;
        print_error("--shape " + s + ": the parameters of `" + o->func +
                    "` have no symbolic dimension `" + name + "`" +
                    (known.empty() ? " (they have none)" : " (they use " + known + ")"));
        return kExitUsage;
      }
      sizes[name] = *size;
    }
    SizeHeap heap = size_heap(fn, sizes);
    // A dimension that is a plain variable also takes its size from a given or bound tensor.
    for (size_t i = 0; i < inputs.size() && i < fn.param_info.size(); ++i) {
      const vm::Value* given = inputs[i] ? &*inputs[i] : model->bound_param(names[i]);
      const vm::TensorObj* t = given ? given->as_tensor() : nullptr;
      const auto& dims = fn.param_info[i].dims;
      if (!t || dims.size() != t->shape().size()) continue;
      for (size_t d = 0; d < dims.size(); ++d) {
        const auto& p = dims[d].program;
        if (p.size() == 2 && p[0] == static_cast<int64_t>(vm::ShapeProgramCode::kPushHeap) &&
            !heap.known[static_cast<size_t>(p[1])]) {
          heap.values[static_cast<size_t>(p[1])] = t->shape()[d];
          heap.known[static_cast<size_t>(p[1])] = true;
        }
      }
    }

    std::mt19937 rng(o->seed);
    std::vector<vm::Value> args;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i]) {
        args.push_back(*inputs[i]);
      } else if (const vm::Value* bound = model->bound_param(names[i])) {
        args.push_back(*bound);
      } else if (o->random) {
        std::string error;
        auto v = random_input(fn, i, heap, rng, error);
        if (!v) {
          print_error(error);
          return kExitUsage;
        }
        args.push_back(*v);
      } else {
        break;  // the VM reports what is missing
      }
    }

    if (o->profile || !o->trace.empty()) model->enable_profiling(!o->trace.empty());
    bool timed = repeat->count() > 0;
    int warmups = timed ? std::max(1, o->repeat / 10) : 0;
    vm::Result<vm::Value> result = vm::Value();
    for (int w = 0; w < warmups && result; ++w) result = model->invoke(o->func, args);
    if (warmups && model->profiler()) model->profiler()->reset();
    std::vector<double> times;
    for (int r = 0; r < o->repeat && result; ++r) {
      auto start = std::chrono::steady_clock::now();
      result = model->invoke(o->func, args);
      times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (!result) {
      print_error(result.error().message);
      return kExitInputErrors;
    }
    Stats st = stats_of(times);
    if (o->json) {
      json out;
      out["function"] = o->func;
      out["outputs"] = json::array();
      if (const vm::TupleObj* tup = result->as_tuple()) {
        for (size_t i = 0; i < tup->size(); ++i) out["outputs"].push_back(value_json((*tup)[i]));
      } else {
        out["outputs"].push_back(value_json(*result));
      }
      json timing;
      timing["runs"] = times.size();
      timing["warmup_runs"] = warmups;
      timing["min_ms"] = st.min * 1e3;
      timing["median_ms"] = st.median * 1e3;
      timing["mean_ms"] = st.mean * 1e3;
      timing["p90_ms"] = st.p90 * 1e3;
      json runs = json::array();
      for (double t : times) runs.push_back(t * 1e3);
      timing["times_ms"] = runs;
      out["timing"] = timing;
      if (o->profile && model->profiler()) {
        const vm::Profiler& p = *model->profiler();
        json prof;
        prof["invocations"] = p.invocations();
        prof["wall_ms"] = static_cast<double>(p.wall_ns()) / 1e6;
        prof["entries"] = json::array();
        for (const auto& row : p.rows()) {
          prof["entries"].push_back({{"name", row.name},
                                     {"kind", row.kind},
                                     {"calls", row.calls},
                                     {"total_ms", static_cast<double>(row.total_ns) / 1e6},
                                     {"mean_ms", row.mean_ns / 1e6},
                                     {"share", row.share}});
        }
        out["profile"] = prof;
      }
      std::cout << out.dump(2) << "\n";
    } else {
      print_value(*result, "");
      if (timed) {
        auto ns = [](double s) { return vm::format_duration(s * 1e9); };
        std::cout << "time: min " << ns(st.min) << ", median " << ns(st.median) << ", mean "
                  << ns(st.mean) << ", p90 " << ns(st.p90) << " over " << times.size()
                  << (times.size() == 1 ? " run" : " runs") << " (" << warmups
                  << (warmups == 1 ? " warm-up" : " warm-ups") << ")\n";
      }
      if (o->profile && model->profiler()) std::cout << model->profiler()->table();
    }
    if (!o->trace.empty() && model->profiler()) {
      vm::Status written = model->profiler()->write_chrome_trace(o->trace);
      if (!written.ok()) {
        print_error("--trace: " + written.error().message);
        return kExitUsage;
      }
    }
    if (!o->output.empty() && !write_outputs(*result, o->output, read_files)) return kExitUsage;
    return kExitOk;
  };
}

}  // namespace relax::cli
