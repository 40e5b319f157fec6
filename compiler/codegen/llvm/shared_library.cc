// Ahead-of-time output: the kernels' module plus the serialized executable and the ABI version
// as exported constants, emitted as a position-independent object file and linked into a shared
// library by the system C compiler (`cc -shared`, or $CC), with libm for math functions; and the
// kernels as assembly text.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <llvm/ADT/SmallString.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/codegen/llvm/llvm_internal.h"
#include "vm/io/atomic_file.h"

extern char** environ;

namespace relax::compiler::codegen {

namespace {

void add_exports(llvm::Module& module, std::span<const uint8_t> blob) {
  auto& c = module.getContext();
  auto* data = llvm::ConstantDataArray::get(c, llvm::ArrayRef<uint8_t>(blob.data(), blob.size()));
  auto* blob_var =
      new llvm::GlobalVariable(module, data->getType(), true, llvm::GlobalValue::ExternalLinkage,
                               data, "relax_executable_blob");
  blob_var->setAlignment(llvm::Align(64));
  auto* i64 = llvm::Type::getInt64Ty(c);
  new llvm::GlobalVariable(module, i64, true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(i64, blob.size()), "relax_executable_blob_size");
  auto* i32 = llvm::Type::getInt32Ty(c);
  new llvm::GlobalVariable(module, i32, true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(i32, RELAX_KERNEL_ABI_VERSION),
                           "relax_kernel_abi_version");
}

// Runs argv (no shell) with stdout and stderr going to `log`; the exit status, or -1.
int run_linker(const std::vector<std::string>& argv, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string emit_assembly(const std::vector<KernelSource>& funcs, const Target& target,
                          ir::DiagnosticBag& diags, Timings* timings) {
  auto tm = create_target_machine(target, diags);
  if (!tm) return "";
  llvm::LLVMContext context;
  auto module = generate_module(context, funcs, target, *tm, diags, timings);
  if (!module) return "";
  {
    StepTimer timer(timings, "LLVM optimization");
    optimize_module(*module, *tm);
  }
  StepTimer timer(timings, "assembly emission");
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream out(text);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    diags.error("E0712", ir::Span::unknown(), "LLVM cannot emit assembly for this target");
    return "";
  }
  pm.run(*module);
  return std::string(text.str());
}

bool write_shared_library(const std::vector<KernelSource>& funcs,
                          std::span<const uint8_t> executable_bytes, const Target& target,
                          const std::string& path, ir::DiagnosticBag& diags, Timings* timings) {
  auto tm = create_target_machine(target, diags);
  if (!tm) return false;
  llvm::LLVMContext context;
  auto module = generate_module(context, funcs, target, *tm, diags, timings);
  if (!module) return false;
  add_exports(*module, executable_bytes);
  {
    StepTimer timer(timings, "LLVM optimization");
    optimize_module(*module, *tm);
  }

  auto error = [&](const std::string& message) {
    diags.error("E0713", ir::Span::unknown(), "cannot write `" + path + "`: " + message);
    return false;
  };
  auto io_error = [&](const vm::Error& e) {
    diags.error("E0713", ir::Span::unknown(), e.message);
    return false;
  };
  // Every intermediate file is a temporary beside the output, so that the final rename is atomic;
  // each is removed on every path out of here (and when the process is killed by a signal).
  auto object = vm::TempFile::create(path, ".o");
  if (!object) return io_error(object.error());
  auto log = vm::TempFile::create(path, ".log");
  if (!log) return io_error(log.error());
  auto linked = vm::TempFile::create(path, ".so");
  if (!linked) return io_error(linked.error());
  {
    StepTimer timer(timings, "object emission");
    llvm::raw_fd_ostream out(object->fd(), /*shouldClose=*/false);
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile))
      return error("LLVM cannot emit an object file for this target");
    pm.run(*module);
    out.flush();
    if (out.has_error()) {
      std::string reason = out.error().message();
      out.clear_error();  // handled here (an uncleared error aborts in the destructor)
      return error("writing the object file failed: " + reason);
    }
  }
  if (vm::Status s = object->close(); !s) return io_error(s.error());
  // The linker and its log write these by name.
  if (vm::Status s = linked->close(); !s) return io_error(s.error());
  if (vm::Status s = log->close(); !s) return io_error(s.error());
  const char* cc_env = std::getenv("CC");
  std::string cc = cc_env && *cc_env ? cc_env : "cc";
  int rc = 0;
  {
    StepTimer timer(timings, "linking");
    rc = run_linker({cc, "-shared", "-o", linked->path(), object->path(), "-lm"}, log->path());
  }
  if (rc != 0) {
    std::ifstream in(log->path());
    std::stringstream ss;
    ss << in.rdbuf();
    if (rc < 0) return error("cannot run `" + cc + "`");
    return error("`" + cc + " -shared` failed (exit " + std::to_string(rc) + "): " + ss.str());
  }
  if (vm::Status s = linked->commit(); !s) return io_error(s.error());
  return true;
}

}  // namespace relax::compiler::codegen
