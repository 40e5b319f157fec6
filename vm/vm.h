// The interpreter. A VirtualMachine runs one executable with the kernels of one KernelLibrary:
// frames of registers on one register stack, VM-function calls (recursion and closures
// included) handled inside the dispatch loop rather than by C++ recursion, so deep recursion
// ends with an error instead of a stack overflow; kernels and extern functions are called
// through the kernel ABI, builtins directly. A VM is used by one thread at a time; run one VM
// per thread to serve several.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vm/allocator.h"
#include "vm/builtins.h"
#include "vm/executable.h"
#include "vm/kernel_abi.h"
#include "vm/kernel_library.h"
#include "vm/profiler.h"
#include "vm/result.h"
#include "vm/thread_pool.h"
#include "vm/value.h"

namespace relax::vm {

struct VMOptions {
  // Frames beyond this end the call with an error (unbounded recursion).
  int64_t max_frames = 100000;
  // Tensor memory (default: the process-wide pooled CPU allocator).
  std::shared_ptr<Allocator> allocator;
  // Parallel loops of kernels (default: ThreadPool::global()).
  ThreadPool* thread_pool = nullptr;
  // Where vm.builtin.print writes (default: std::cout).
  std::ostream* out = nullptr;
};

class VirtualMachine {
 public:
  // Resolves every kernel and extern function of `exe` in `library` (which may be null when
  // there are none) and every builtin in the builtin table, and checks builtin arities.
  static Result<std::unique_ptr<VirtualMachine>> create(
      std::shared_ptr<const Executable> exe, std::shared_ptr<const KernelLibrary> library,
      VMOptions options = {});
  ~VirtualMachine();
  VirtualMachine(const VirtualMachine&) = delete;
  VirtualMachine& operator=(const VirtualMachine&) = delete;

  // Calls VM function `name`. Missing trailing arguments are taken from bound parameters of
  // the same name (bind_param); the count must then match exactly.
  Result<Value> invoke(std::string_view name, std::span<const Value> args);
  Result<Value> invoke(std::string_view name, std::initializer_list<Value> args) {
    return invoke(name, std::span<const Value>(args.begin(), args.size()));
  }
  // Calls a function or closure value (for example one a function returned).
  Result<Value> call(const Value& callee, std::span<const Value> args);

  // Binds a value to every parameter called `name` (weights from --params).
  void bind_param(const std::string& name, Value value);
  void clear_params() { params_.clear(); }
  // The value bound to a parameter called `name`, or null: how invoke() fills a missing
  // argument, so tools can ask which parameters the bound values cover.
  const Value* bound_param(std::string_view name) const;

  // Attach a profiler (null to detach); the VM records into it until detached.
  void set_profiler(Profiler* profiler);
  Profiler* profiler() const { return profiler_; }

  const Executable& executable() const { return *exe_; }
  const std::shared_ptr<Allocator>& allocator() const { return allocator_; }
  ThreadPool& thread_pool() const { return *pool_; }
  std::ostream& out() const { return *out_; }

  // For builtins: the VM function whose frame is running.
  const FunctionInfo& current_function() const;
  // Calls function `index` of the table with `args` (builtins such as invoke_closure).
  Value call_function(int64_t index, std::span<const Value> args);

 private:
  enum class CalleeKind : uint8_t { kVM, kKernel, kBuiltin, kInvokeClosure };
  struct Callee {
    CalleeKind kind;
    relax_kernel_fn kernel = nullptr;
    BuiltinFn builtin = nullptr;
    int32_t profile_id = -1;
  };
  struct Frame {
    int64_t func;
    int64_t base;                                 // first register in regs_
    int64_t return_pc;                            // caller's instruction to continue at
    int64_t caller_dst;                           // caller's register for the result
    std::chrono::steady_clock::time_point start;  // when profiling
  };

  VirtualMachine(std::shared_ptr<const Executable> exe, VMOptions options);
  Status link(const KernelLibrary* library);

  Value run_entry(int64_t func, std::span<const Value> args);
  template <bool kProfile>
  Value run(size_t entry_depth);
  void push_frame(int64_t func, int64_t return_pc, int64_t caller_dst);
  void pop_frame();
  void ensure_registers(int64_t n);
  void unwind(size_t depth);
  void call_kernel(int64_t func, relax_kernel_fn fn, const Value* const* args, int64_t n,
                   Value* result);
  [[noreturn]] void rethrow_located(const VMError& e, int64_t func);

  static int32_t ctx_parallel_for(relax_kernel_context* ctx, int64_t extent,
                                  relax_parallel_body body, void* closure);
  static void* ctx_workspace_alloc(relax_kernel_context* ctx, uint64_t nbytes);
  static void ctx_workspace_free(relax_kernel_context* ctx, void* ptr);
  static void ctx_set_error(relax_kernel_context* ctx, const char* message);

  std::shared_ptr<const Executable> exe_;
  std::shared_ptr<const KernelLibrary> library_;  // keeps the kernels loaded
  std::vector<Callee> callees_;
  std::shared_ptr<Allocator> allocator_;
  ThreadPool* pool_;
  std::ostream* out_;
  int64_t max_frames_;

  std::vector<Value> regs_;  // the register stack; slots at and above stack_top_ are null
  int64_t stack_top_ = 0;
  std::vector<Frame> frames_;
  Value null_;
  Value context_value_;

  std::unordered_map<std::string, Value> params_;
  std::string last_name_;  // invoke's last lookup
  int64_t last_index_ = -1;
  Profiler* profiler_ = nullptr;

  relax_kernel_context kernel_ctx_{};
  std::mutex kernel_error_mu_;
  std::string kernel_error_;
  std::atomic<bool> kernel_error_set_{false};
};

}  // namespace relax::vm
