// The commands behind the code lenses: `relax.run` (build a function with the default CPU
// pipeline, run it on the VM with .npy inputs or random ones, report each output's shape,
// dtype and values and the times) and `relax.showIR` (the module after a named pass, after the
// whole pipeline, or the lowered TIR). Both build from the snapshot's text on a scratch document
// (its own file id), so the editor's checked module is never touched by the passes.
#include <chrono>
#include <random>
#include <sstream>

#include "compiler/build.h"
#include "compiler/pass.h"
#include "compiler/target.h"
#include "ide/document.h"
#include "lsp/features.h"
#include "syntax/printer.h"
#include "vm/dtype.h"
#include "vm/io/npy.h"
#include "vm/io/summary.h"
#include "vm/kernel_library.h"
#include "vm/run_inputs.h"
#include "vm/runtime.h"

namespace relax::lsp {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

json value_json(const vm::Value& v) {
  if (const vm::TensorObj* t = v.as_tensor()) {
    vm::SummaryOptions options;
    options.header = false;
    return {{"shape", std::vector<int64_t>(t->shape().begin(), t->shape().end())},
            {"dtype", vm::dtype_name(t->dtype())},
            {"summary", vm::summarize_tensor(*t, options)}};
  }
  if (const vm::TupleObj* tuple = v.as_tuple()) {
    json fields = json::array();
    for (size_t i = 0; i < tuple->size(); ++i) fields.push_back(value_json((*tuple)[i]));
    return {{"tuple", fields}};
  }
  return {{"value", vm::describe_value(v)}};
}

// A flat list of outputs: a tuple result counts as several.
void flatten(const vm::Value& v, json& out) {
  if (const vm::TupleObj* tuple = v.as_tuple()) {
    for (size_t i = 0; i < tuple->size(); ++i) flatten((*tuple)[i], out);
  } else {
    out.push_back(value_json(v));
  }
}

// The checked module of the snapshot's text, or a CommandFailure with its errors.
std::shared_ptr<const analysis::CheckResult> checked_for_build(
    const ide::Snapshot& snapshot, std::unique_ptr<ide::Document>& scratch) {
  scratch = std::make_unique<ide::Document>("<build>", snapshot.text());
  auto checked = scratch->check();
  if (checked->count(ir::Severity::kError) > 0)
    throw CommandFailure("the document has errors; fix them to build it", checked->diagnostics,
                         snapshot.text());
  return checked;
}

}  // namespace

CommandFailure::CommandFailure(const std::string& message, std::vector<ir::Diagnostic> diags,
                               const std::string& text)
    : RequestError(kRequestFailed, message, json{{"kind", "buildFailed"}}),
      diagnostics(std::move(diags)) {
  // The spans of a scratch document point into its own text: kept for the positions.
  source = std::make_shared<const ir::SourceFile>("<build>", text);
}

json run_function(const ide::Snapshot& snapshot, const RunRequest& request,
                  const std::atomic<bool>& cancelled) {
  auto started = Clock::now();
  std::unique_ptr<ide::Document> scratch;
  auto checked = checked_for_build(snapshot, scratch);
  auto member = checked->module->functions.find(request.function);
  if (!member || !member->func.as<ir::Function>())
    throw RequestError(kInvalidParams,
                       "the module has no Relax function `" + request.function + "`");
  compiler::PassContext ctx;
  auto built = compiler::build(checked->module, compiler::Target::host(), ctx);
  if (!built.ok()) {
    std::vector<ir::Diagnostic> diags = ctx.diagnostics().items();
    throw CommandFailure("building `" + request.function + "` failed", diags, snapshot.text());
  }
  double compile_ms = ms_since(started);
  if (cancelled) throw RequestError(kRequestCancelled, "cancelled");
  auto model = vm::Module::from_parts(built.executable, built.kernels);
  if (!model) throw RequestError(kRequestFailed, model.error().message);
  const vm::Executable& exe = model->executable();
  auto index = exe.find_function(request.function);
  if (!index)
    throw RequestError(kRequestFailed, "the executable has no function `" + request.function + "`");
  const vm::FunctionInfo& fn = exe.functions[static_cast<size_t>(*index)];
  vm::SizeHeap heap = vm::size_heap(fn, request.sizes);
  std::vector<bool> given;
  for (size_t i = 0; i < fn.param_names.size(); ++i)
    given.push_back(i < request.inputs.size() && !request.inputs[i].empty());
  if (std::vector<std::string> missing = vm::missing_sizes(fn, heap, given); !missing.empty()) {
    // What the client asks the user for, then sends back in `sizes`.
    std::string names, example;
    for (const std::string& n : missing) {
      names += (names.empty() ? "`" : ", `") + n + "`";
      example += (example.empty() ? "\"" : ", \"") + n + "\": 4";
    }
    throw RequestError(kRequestFailed,
                       "random inputs of `" + request.function + "` need the size of " + names +
                           ": give it in the `sizes` argument ({" + example + "})",
                       json{{"kind", "missingSizes"}, {"sizes", missing}});
  }
  std::mt19937 rng(request.seed);
  std::vector<vm::Value> args;
  json inputs = json::array();
  for (size_t i = 0; i < fn.param_names.size(); ++i) {
    if (i < request.inputs.size() && !request.inputs[i].empty()) {
      auto t = vm::read_npy(request.inputs[i]);
      if (!t) throw RequestError(kRequestFailed, t.error().message);
      args.push_back(vm::Value(*t));
      inputs.push_back({{"name", fn.param_names[i]}, {"from", request.inputs[i]}});
    } else {
      std::string error;
      auto v = vm::random_input(fn, i, heap, rng, error);
      if (!v) throw RequestError(kRequestFailed, "parameter `" + fn.param_names[i] + "`: " + error);
      args.push_back(*v);
      inputs.push_back({{"name", fn.param_names[i]},
                        {"from", "random (seed " + std::to_string(request.seed) + ")"}});
    }
  }
  auto run_started = Clock::now();
  auto result = model->invoke(request.function, args);
  double run_ms = ms_since(run_started);
  if (!result) throw RequestError(kRequestFailed, result.error().message);
  json outputs = json::array();
  flatten(*result, outputs);
  return {{"function", request.function},
          {"inputs", inputs},
          {"outputs", outputs},
          {"compileMs", compile_ms},
          {"runMs", run_ms}};
}

json show_ir(const ide::Snapshot& snapshot, const ShowIRRequest& request) {
  std::unique_ptr<ide::Document> scratch;
  auto checked = checked_for_build(snapshot, scratch);
  compiler::PassContext ctx;
  std::ostringstream log;
  ctx.log = &log;
  if (!request.after_pass.empty()) {
    auto lookup = compiler::PassRegistry::global().lookup(request.after_pass);
    if (!lookup.pass)
      throw RequestError(kInvalidParams, "no pass is called `" + request.after_pass + "`");
    ctx.print_after = {lookup.pass->name};
  }
  compiler::BuildOptions options;
  options.skip_kernels = true;
  compiler::Target target = compiler::Target::host();
  auto built = compiler::build(checked->module, target, ctx, options);
  if (!built.ok())
    throw CommandFailure("building the module failed", ctx.diagnostics().items(), snapshot.text());
  std::string text;
  if (!request.after_pass.empty()) {
    text = log.str();
    if (text.empty()) text = "# " + request.after_pass + " did not run in the default pipeline\n";
  } else if (request.tir) {
    auto lowered = compiler::lower_kernels(built.prim_funcs, target, ctx.diagnostics());
    if (!lowered)
      throw CommandFailure("lowering the kernels failed", ctx.diagnostics().items(),
                           snapshot.text());
    auto tir = ir::make<ir::IRModule>();
    for (const auto& [name, func] : *lowered) tir->add(built.lowered->global_var(name), func);
    text = syntax::print_module(*tir);
  } else {
    text = syntax::print_module(*built.lowered);
  }
  if (!text.ends_with('\n')) text += '\n';
  return {{"text", text}, {"language", "relax"}};
}

json code_lenses(const CheckedDocument& doc) {
  json out = json::array();
  if (!doc.result.symbols || !doc.result.module) return out;
  for (const syntax::Symbol* f : doc.result.symbols->functions()) {
    auto member = doc.result.module->functions.find(f->name);
    if (!member || !member->func.as<ir::Function>() || !f->definition.is_known()) continue;
    json range = doc.map.range(f->definition);
    json args = json::array({{{"uri", doc.uri}, {"function", f->name}}});
    out.push_back({{"range", range},
                   {"command", {{"title", "Run"}, {"command", "relax.run"}, {"arguments", args}}}});
    out.push_back(
        {{"range", range},
         {"command",
          {{"title", "Show lowered IR"}, {"command", "relax.showIR"}, {"arguments", args}}}});
  }
  return out;
}

}  // namespace relax::lsp
