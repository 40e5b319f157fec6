// `relax run`: build a .relax file (or load a model library), bind inputs and weights, run a
// function on the VM, print and write the result.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <random>

#include "analysis/arith/evaluate.h"
#include "cli/build_common.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "compiler/build.h"
#include "ir/tir_visitor.h"
#include "syntax/printer.h"
#include "vm/runtime.h"

namespace relax::cli {

namespace {

std::string shape_text(std::span<const int64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// A random tensor for a parameter of tensor struct info, dims from `sizes` when symbolic.
std::optional<vm::Value> random_input(const ir::Ref<ir::Var>& param,
                                      const std::map<std::string, int64_t>& sizes,
                                      std::mt19937& rng, std::string& error) {
  auto t = param->struct_info.as<ir::TensorStructInfo>();
  const auto* dims = t ? t->shape_values() : nullptr;
  if (!t || !dims || t->is_unknown_dtype()) {
    error = "--random: parameter `" + param->name + "` is not a tensor of known shape and dtype";
    return std::nullopt;
  }
  std::vector<int64_t> shape;
  for (const auto& d : *dims) {
    if (auto c = ir::tir::as_const_int(d)) {
      shape.push_back(*c);
    } else if (auto v = d.as<ir::tir::Var>(); v && sizes.count(v->name)) {
      shape.push_back(sizes.at(v->name));
    } else {
      // A compound dim (`n - 2`): evaluated from the sizes given for its variables.
      struct Vars : ir::tir::Visitor {
        std::vector<ir::Ref<ir::tir::Var>> found;
        void visit_var(const ir::Ref<ir::tir::Var>& var) override { found.push_back(var); }
      } vars;
      vars.visit_expr(d);
      analysis::arith::Assignment values;
      std::string missing;
      for (const auto& var : vars.found) {
        if (sizes.count(var->name))
          values.set(var, sizes.at(var->name));
        else if (missing.empty())
          missing = var->name;
      }
      std::optional<int64_t> value =
          missing.empty() ? analysis::arith::evaluate(d, values) : std::nullopt;
      if (!value || *value < 0) {
        error = "--random: give the size of `" + (missing.empty() ? syntax::to_text(d) : missing) +
                "` for parameter `" + param->name + "` with --shape NAME=N";
        return std::nullopt;
      }
      shape.push_back(*value);
    }
  }
  auto dt = vm::parse_dtype(t->dtype.str());
  if (!dt) {
    error = "--random: unsupported dtype " + t->dtype.str();
    return std::nullopt;
  }
  vm::Tensor tensor = vm::empty_tensor(shape, *dt);
  int64_t n = tensor->numel();
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0; i < n; ++i) {
    auto* p = static_cast<uint8_t*>(tensor->data());
    const DLDataType t_ = *dt;
    if (t_ == vm::kFloat32) {
      reinterpret_cast<float*>(p)[i] = static_cast<float>(real(rng));
    } else if (t_ == vm::kFloat64) {
      reinterpret_cast<double*>(p)[i] = real(rng);
    } else if (t_ == vm::kFloat16) {
      reinterpret_cast<uint16_t*>(p)[i] = vm::float_to_half(static_cast<float>(real(rng)));
    } else if (t_ == vm::kBFloat16) {
      reinterpret_cast<uint16_t*>(p)[i] = vm::float_to_bfloat16(static_cast<float>(real(rng)));
    } else if (vm::is_bool(t_)) {
      p[i] = static_cast<uint8_t>(small(rng) % 2);
    } else if (vm::is_integer(t_) && t_.lanes == 1) {
      // Small non-negative integers (valid as indices of most axes), stored at the width.
      int64_t v = small(rng);
      switch (t_.bits) {
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
          error = "--random: unsupported dtype " + t->dtype.str();
          return std::nullopt;
      }
    } else {
      error = "--random: unsupported dtype " + t->dtype.str();
      return std::nullopt;
    }
  }
  return vm::Value(tensor);
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

bool write_outputs(const vm::Value& v, const std::string& path) {
  if (const vm::TupleObj* tup = v.as_tuple()) {
    auto dot = path.rfind(".npy");
    std::string stem = dot == std::string::npos ? path : path.substr(0, dot);
    for (size_t i = 0; i < tup->size(); ++i) {
      if (!write_outputs((*tup)[i], stem + "_" + std::to_string(i) + ".npy")) return false;
    }
    return true;
  }
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
    std::string trace;
    std::string params;
    std::vector<std::string> load;
    std::string target = "llvm";
    unsigned seed = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Compile and run a function of a .relax file (or a model library) on the VM");
  cmd->add_option("file", o->input, "Input .relax file (or a model.so built by relax build)")
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
  cmd->add_option("--repeat", o->repeat, "Run N times and print the mean and best time")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--profile", o->profile, "Print the time spent in each kernel and builtin");
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
  cmd->add_option("--seed", o->seed, "Seed of --random (default 0)");
  add_max_errors_option(cmd);
  cmd->footer(
      "Exit codes: 0 ok, 1 errors in the input, the build or the run, 2 usage or I/O errors.");
  return [o]() -> int {
    ir::Ref<ir::Function> func;
    std::vector<std::shared_ptr<const vm::KernelLibrary>> libraries;
    for (const std::string& path : o->load) {
      auto lib = vm::SharedLibrary::open(path);
      if (!lib) {
        print_error(lib.error().message);
        return kExitUsage;
      }
      libraries.push_back(*lib);
    }
    std::optional<vm::Module> model;
    if (o->input.ends_with(".so")) {
      vm::ModuleOptions mo;
      mo.libraries = o->load;
      auto loaded = vm::Module::load(o->input, mo);
      if (!loaded) {
        print_error(loaded.error().message);
        return kExitInputErrors;
      }
      model.emplace(std::move(*loaded));
    } else {
      std::string error;
      auto target = compiler::Target::parse(o->target, &error);
      if (!target) {
        print_error(error);
        return kExitUsage;
      }
      int load_exit = kExitOk;
      auto module = load_relax_module(o->input, load_exit);
      if (!module) return load_exit;
      func = ir::as_relax_function(module->lookup(o->func));
      if (!func) {
        print_error("the module has no Relax function `" + o->func + "`");
        return kExitInputErrors;
      }
      compiler::PassContext ctx;
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
    }
    std::vector<std::string> bound;  // parameters --params binds: --random leaves them alone
    if (!o->params.empty()) {
      int bind_exit = bind_model_params(*model, o->params, o->func, bound);
      if (bind_exit != kExitOk) return bind_exit;
    }
    // Parameter names, in order.
    std::vector<std::string> names;
    auto index = model->executable().find_function(o->func);
    if (!index) {
      print_error("the executable has no function `" + o->func + "`");
      return kExitInputErrors;
    }
    names = model->executable().functions[static_cast<size_t>(*index)].param_names;
    std::vector<std::optional<vm::Value>> inputs(names.size());
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
      auto t = vm::read_npy(path);
      if (!t) {
        print_error(t.error().message);
        return kExitUsage;
      }
      inputs[slot] = vm::Value(*t);
    }
    std::map<std::string, int64_t> sizes;
    for (const std::string& s : o->shapes) {
      auto eq = s.find('=');
      if (eq == std::string::npos) {
        print_error("--shape expects NAME=N, not `" + s + "`");
        return kExitUsage;
      }
      sizes[s.substr(0, eq)] = std::stoll(s.substr(eq + 1));
    }
    std::mt19937 rng(o->seed);
    std::vector<vm::Value> args;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i]) {
        args.push_back(*inputs[i]);
        continue;
      }
      // The rest may be bound weights (--params), taken by the VM as missing trailing arguments.
      if (!o->random || std::find(bound.begin(), bound.end(), names[i]) != bound.end()) break;
      if (!func) {
        print_error(
            "--random needs the parameter types: run the .relax file rather than a model library");
        return kExitUsage;
      }
      std::string error;
      auto v = random_input(func->params[i], sizes, rng, error);
      if (!v) {
        print_error(error);
        return kExitUsage;
      }
      args.push_back(*v);
    }
    if (o->profile || !o->trace.empty()) model->enable_profiling(!o->trace.empty());
    vm::Result<vm::Value> result = vm::Value();
    double best = 1e300, total = 0;
    for (int r = 0; r < o->repeat; ++r) {
      auto start = std::chrono::steady_clock::now();
      result = model->invoke(o->func, args);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!result) break;
      best = std::min(best, s);
      total += s;
    }
    if (!result) {
      print_error(result.error().message);
      return kExitInputErrors;
    }
    print_value(*result, "");
    if (o->repeat > 1) {
      std::cout << "time: mean " << vm::format_duration(total / o->repeat * 1e9) << ", best "
                << vm::format_duration(best * 1e9) << " over " << o->repeat << " runs\n";
    }
    if (o->profile && model->profiler()) std::cout << model->profiler()->table();
    if (!o->trace.empty() && model->profiler()) {
      vm::Status written = model->profiler()->write_chrome_trace(o->trace);
      if (!written.ok()) {
        print_error("--trace: " + written.error().message);
        return kExitUsage;
      }
    }
    if (!o->output.empty() && !write_outputs(*result, o->output)) return kExitUsage;
    return kExitOk;
  };
}

}  // namespace relax::cli
