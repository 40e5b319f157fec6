// The interpreter: linking, frames, the dispatch loop and the kernel calling convention.
//
// The loop keeps `pc`, the frame's register pointer and its base in locals. Anything that can
// grow the register stack (a call pushing a frame, a builtin re-entering the VM) invalidates the
// pointer, so it is recomputed from `base` after each such step. Calls of VM functions and of
// closures over VM functions push a frame and continue in the same loop; only builtins that call
// back into the VM (none on the common path) nest C++ calls.
#include "vm/vm.h"

#include <cstring>
#include <iostream>
#include <new>

namespace relax::vm {

namespace {

constexpr int64_t kInlineArgs = 32;  // calls with more arguments use heap buffers

using Clock = std::chrono::steady_clock;

const char* kernel_kind_text(FunctionKind kind) {
  return kind == FunctionKind::kExtern ? "extern function" : "kernel";
}

// A VM-owned copy of a tensor a kernel returned (the kernel keeps its own).
Tensor copy_returned_tensor(const DLTensor& dl) {
  if (!is_compact(dl)) throw_error("a returned tensor with non-compact strides is not supported");
  Tensor view = tensor_from_external(static_cast<char*>(dl.data) + dl.byte_offset,
                                     {dl.shape, static_cast<size_t>(dl.ndim)}, dl.dtype, dl.device);
  return clone_tensor(*view, dl.device);
}

}  // namespace

VirtualMachine::VirtualMachine(std::shared_ptr<const Executable> exe, VMOptions options)
    : exe_(std::move(exe)),
      allocator_(options.allocator ? std::move(options.allocator) : default_allocator(kCPU)),
      pool_(options.thread_pool ? options.thread_pool : &ThreadPool::global()),
      out_(options.out ? options.out : &std::cout),
      max_frames_(options.max_frames) {
  context_value_ = Value::opaque(this);
  kernel_ctx_.abi_version = RELAX_KERNEL_ABI_VERSION;
  kernel_ctx_.parallel_for = &ctx_parallel_for;
  kernel_ctx_.workspace_alloc = &ctx_workspace_alloc;
  kernel_ctx_.workspace_free = &ctx_workspace_free;
  kernel_ctx_.set_error = &ctx_set_error;
  kernel_ctx_.runtime = this;
  regs_.resize(256);
  frames_.reserve(64);
}

VirtualMachine::~VirtualMachine() = default;

Result<std::unique_ptr<VirtualMachine>> VirtualMachine::create(
    std::shared_ptr<const Executable> exe, std::shared_ptr<const KernelLibrary> library,
    VMOptions options) {
  if (!exe) return Error{"no executable"};
  if (!exe->finalized()) return Error{"the executable was not finalized (validated)"};
  std::unique_ptr<VirtualMachine> vm(new VirtualMachine(std::move(exe), std::move(options)));
  if (Status s = vm->link(library.get()); !s) return s.error();
  vm->library_ = std::move(library);
  return vm;
}

Status VirtualMachine::link(const KernelLibrary* library) {
  const auto& functions = exe_->functions;
  callees_.resize(functions.size());
  std::string missing;
  for (size_t i = 0; i < functions.size(); ++i) {
    const FunctionInfo& fn = functions[i];
    Callee& c = callees_[i];
    switch (fn.kind) {
      case FunctionKind::kVMFunction:
        c.kind = CalleeKind::kVM;
        break;
      case FunctionKind::kKernel:
      case FunctionKind::kExtern:
        c.kind = CalleeKind::kKernel;
        c.kernel = library ? library->resolve(fn.name) : nullptr;
        if (!c.kernel) {
          missing += std::string(missing.empty() ? "" : ", ") + kernel_kind_text(fn.kind) + " `" +
                     fn.name + "`";
        }
        break;
      case FunctionKind::kBuiltin: {
        const BuiltinInfo* info = find_builtin(fn.name);
        if (!info) return Error{"unknown builtin `" + fn.name + "`"};
        c.kind = fn.name == "vm.builtin.invoke_closure" ? CalleeKind::kInvokeClosure
                                                        : CalleeKind::kBuiltin;
        c.builtin = info->fn;
        break;
      }
    }
  }
  if (!missing.empty()) {
    return Error{"cannot find " + missing + " in " +
                 (library ? library->describe() : "no library") +
                 (library ? "" : " (none was loaded)")};
  }
  // Builtin arities, so that builtins can index their arguments without checking the count.
  for (const FunctionInfo& fn : functions) {
    if (fn.kind != FunctionKind::kVMFunction) continue;
    for (int64_t pc = fn.start_instr; pc < fn.end_instr; ++pc) {
      const int64_t* w = exe_->instruction(pc);
      if (w[0] != static_cast<int64_t>(Opcode::kCall)) continue;
      const FunctionInfo& callee = functions[static_cast<size_t>(w[2])];
      if (callee.kind != FunctionKind::kBuiltin) continue;
      const BuiltinInfo* info = find_builtin(callee.name);
      int64_t n = w[3];
      auto where = "function `" + fn.name + "`, instruction " + std::to_string(pc) + ": " +
                   callee.name + " ";
      if (n < info->min_args || (info->max_args >= 0 && n > info->max_args)) {
        std::string expect = info->min_args == info->max_args ? std::to_string(info->min_args)
                             : info->max_args < 0 ? "at least " + std::to_string(info->min_args)
                                                  : std::to_string(info->min_args) + " to " +
                                                        std::to_string(info->max_args);
        return Error{where + "takes " + expect + " arguments " + std::string(info->signature) +
                     " but the call passes " + std::to_string(n)};
      }
      if (info->takes_context && w[4] != Arg::context().encode()) {
        return Error{where + "takes the context register %ctx as its first argument"};
      }
    }
  }
  return {};
}

void VirtualMachine::set_profiler(Profiler* profiler) {
  profiler_ = profiler;
  if (!profiler) return;
  for (size_t i = 0; i < callees_.size(); ++i) {
    const FunctionInfo& fn = exe_->functions[i];
    callees_[i].profile_id = profiler->intern(fn.name, function_kind_name(fn.kind));
  }
}

void VirtualMachine::bind_param(const std::string& name, Value value) {
  params_[name] = std::move(value);
}

const Value* VirtualMachine::bound_param(std::string_view name) const {
  auto it = params_.find(std::string(name));
  return it == params_.end() ? nullptr : &it->second;
}

const FunctionInfo& VirtualMachine::current_function() const {
  static const FunctionInfo kNone{FunctionKind::kVMFunction, "<no function>", 0, 0, 0, 0, {}, {}};
  return frames_.empty() ? kNone : exe_->functions[static_cast<size_t>(frames_.back().func)];
}

// ---------------------------------------------------------------------------------------------
// Frames

void VirtualMachine::ensure_registers(int64_t n) {
  if (stack_top_ + n <= static_cast<int64_t>(regs_.size())) return;
  regs_.resize(static_cast<size_t>(
      std::max<int64_t>(stack_top_ + n, 2 * static_cast<int64_t>(regs_.size()))));
}

void VirtualMachine::push_frame(int64_t func, int64_t return_pc, int64_t caller_dst) {
  const FunctionInfo& fn = exe_->functions[static_cast<size_t>(func)];
  if (static_cast<int64_t>(frames_.size()) >= max_frames_) {
    throw VMError("call depth exceeds " + std::to_string(max_frames_) + " frames calling `" +
                      fn.name + "` (unbounded recursion?)",
                  true);
  }
  ensure_registers(fn.register_file_size);
  frames_.push_back({func, stack_top_, return_pc, caller_dst, {}});
  stack_top_ += fn.register_file_size;
}

void VirtualMachine::pop_frame() {
  const Frame& fr = frames_.back();
  int64_t size = exe_->functions[static_cast<size_t>(fr.func)].register_file_size;
  Value* r = regs_.data() + fr.base;
  for (int64_t i = 0; i < size; ++i) r[i].reset();
  stack_top_ = fr.base;
  frames_.pop_back();
}

void VirtualMachine::unwind(size_t depth) {
  while (frames_.size() > depth) pop_frame();
}

// ---------------------------------------------------------------------------------------------
// Entry points

Result<Value> VirtualMachine::invoke(std::string_view name, std::span<const Value> args) {
  // Callers invoke the same function over and over: remember the last name looked up.
  std::optional<int64_t> f;
  if (last_index_ >= 0 && name == last_name_) {
    f = last_index_;
  } else {
    f = exe_->find_function(name);
    if (!f) return Error{"the executable has no function `" + std::string(name) + "`"};
    last_name_ = name;
    last_index_ = *f;
  }
  const FunctionInfo& fn = exe_->functions[static_cast<size_t>(*f)];
  if (fn.kind != FunctionKind::kVMFunction) {
    return Error{"`" + fn.name + "` is a " + function_kind_name(fn.kind) +
                 ", not a function of the executable"};
  }
  auto params_text = [&] {
    std::string s;
    for (const auto& p : fn.param_names) s += (s.empty() ? "" : ", ") + p;
    return s;
  };
  size_t nparams = static_cast<size_t>(fn.num_args);
  std::vector<Value> full;
  if (args.size() != nparams) {
    if (args.size() > nparams) {
      return Error{fn.name + ": expected " + std::to_string(nparams) + " arguments (" +
                   params_text() + ") but got " + std::to_string(args.size())};
    }
    full.assign(args.begin(), args.end());
    std::string unbound;
    for (size_t i = args.size(); i < nparams; ++i) {
      if (const Value* bound = bound_param(fn.param_names[i])) {
        full.push_back(*bound);
      } else {
        unbound += (unbound.empty() ? "`" : ", `") + fn.param_names[i] + "`";
      }
    }
    if (!unbound.empty()) {
      return Error{fn.name + ": expected " + std::to_string(nparams) + " arguments (" +
                   params_text() + ") but got " + std::to_string(args.size()) + "; " + unbound +
                   (unbound.find(',') == std::string::npos ? " is" : " are") +
                   " not bound to a parameter value either"};
    }
    args = full;
  }
  try {
    if (!profiler_) return run_entry(*f, args);
    auto start = Clock::now();
    Value result = run_entry(*f, args);
    profiler_->record_invocation(start, Clock::now());
    return result;
  } catch (const VMError& e) {
    return Error{e.what()};
  } catch (const std::bad_alloc&) {
    return Error{fn.name + ": out of memory"};
  } catch (const std::exception& e) {
    return Error{fn.name + ": internal error: " + e.what()};
  }
}

Result<Value> VirtualMachine::call(const Value& callee, std::span<const Value> args) {
  try {
    std::vector<Value> all(args.begin(), args.end());
    int64_t f;
    if (auto* c = callee.as_closure()) {
      f = c->function();
      all.insert(all.end(), c->captured().begin(), c->captured().end());
    } else if (callee.kind() == ValueKind::kFunction) {
      f = callee.as_int();
    } else {
      return Error{"cannot call " + describe_value(callee)};
    }
    return call_function(f, all);
  } catch (const VMError& e) {
    return Error{e.what()};
  } catch (const std::exception& e) {
    return Error{std::string("internal error: ") + e.what()};
  }
}

Value VirtualMachine::call_function(int64_t index, std::span<const Value> args) {
  if (index < 0 || index >= static_cast<int64_t>(callees_.size())) {
    throw_error("function index " + std::to_string(index) + " is out of range");
  }
  // `args` may point into the register stack, which the call can grow.
  std::vector<Value> copy(args.begin(), args.end());
  const Callee& c = callees_[static_cast<size_t>(index)];
  const FunctionInfo& fn = exe_->functions[static_cast<size_t>(index)];
  if (c.kind == CalleeKind::kVM) {
    if (copy.size() != static_cast<size_t>(fn.num_args)) {
      throw VMError(fn.name + ": expected " + std::to_string(fn.num_args) + " arguments but got " +
                    std::to_string(copy.size()));
    }
    return run_entry(index, copy);
  }
  std::vector<const Value*> ptrs(copy.size());
  for (size_t i = 0; i < copy.size(); ++i) ptrs[i] = &copy[i];
  Value result;
  if (c.kind == CalleeKind::kKernel) {
    call_kernel(index, c.kernel, ptrs.data(), static_cast<int64_t>(ptrs.size()), &result);
  } else {
    c.builtin(*this, ArgList(ptrs.data(), static_cast<int64_t>(ptrs.size())), &result);
  }
  return result;
}

Value VirtualMachine::run_entry(int64_t func, std::span<const Value> args) {
  size_t depth = frames_.size();
  push_frame(func, -1, kVoidRegister);
  Value* regs = regs_.data() + frames_.back().base;
  for (size_t i = 0; i < args.size(); ++i) regs[i] = args[i];
  try {
    if (profiler_) {
      frames_.back().start = Clock::now();
      return run<true>(depth);
    }
    return run<false>(depth);
  } catch (...) {
    unwind(depth);
    throw;
  }
}

void VirtualMachine::rethrow_located(const VMError& e, int64_t func) {
  if (e.located()) throw e;
  throw VMError(current_function().name + ": " + exe_->functions[static_cast<size_t>(func)].name +
                    ": " + e.what(),
                true);
}

// ---------------------------------------------------------------------------------------------
// The dispatch loop

template <bool kProfile>
Value VirtualMachine::run(size_t entry_depth) {
  const int64_t* const code = exe_->instr_data.data();
  const int64_t* const offsets = exe_->instr_offset.data();
  const Value* const consts = exe_->constants.data();
  const FunctionInfo* const functions = exe_->functions.data();

  int64_t base = frames_.back().base;
  Value* regs = regs_.data() + base;
  int64_t pc = functions[frames_.back().func].start_instr;

  // Argument pointers of the current call, and slots for the immediates and function indices
  // it passes. The slots are raw storage: they only ever hold ints and function references,
  // which own nothing, so they are neither constructed up front nor destroyed.
  const Value* ptr_buf[kInlineArgs];
  alignas(Value) unsigned char imm_buf[kInlineArgs * sizeof(Value)];

  auto special = [this](int64_t r) -> const Value& {
    return r == kVoidRegister ? null_ : context_value_;
  };
  // An argument word as a value (a copy), reading registers of `r`.
  auto decode = [&](int64_t word, const Value* r) -> Value {
    int64_t v = arg_value(word);
    switch (arg_kind(word)) {
      case ArgKind::kRegister:
        return v < kVoidRegister ? r[v] : special(v);
      case ArgKind::kImmediate:
        return Value(v);
      case ArgKind::kConstant:
        return consts[v];
      case ArgKind::kFunction:
        return Value::function(v);
    }
    return Value();
  };
  // Enters VM function `f` whose first `n` arguments are the arg words `aw` (read in the
  // caller's frame) followed by `extra`.
  auto enter = [&](int64_t f, const int64_t* aw, int64_t n, std::span<const Value> extra,
                   int64_t dst) {
    push_frame(f, pc + 1, dst);
    const Value* caller = regs_.data() + base;
    base = frames_.back().base;
    regs = regs_.data() + base;
    for (int64_t i = 0; i < n; ++i) regs[i] = decode(aw[i], caller);
    for (size_t j = 0; j < extra.size(); ++j) regs[n + static_cast<int64_t>(j)] = extra[j];
    if constexpr (kProfile) frames_.back().start = Clock::now();
    pc = functions[f].start_instr;
  };

  for (;;) {
    const int64_t* w = code + offsets[pc];
    switch (static_cast<Opcode>(w[0])) {
      case Opcode::kCall: {
        const int64_t dst = w[1], f = w[2], n = w[3];
        const int64_t* aw = w + 4;
        const Callee& callee = callees_[static_cast<size_t>(f)];
        if (callee.kind == CalleeKind::kVM) {
          enter(f, aw, n, {}, dst);
          break;
        }
        if (callee.kind == CalleeKind::kInvokeClosure) {
          // invoke_closure(%ctx, closure, args...): VM targets get a frame here, others a call.
          Value clo = decode(aw[1], regs);
          int64_t target;
          std::span<const Value> captured;
          if (auto* c = clo.as_closure()) {
            target = c->function();
            captured = c->captured();
          } else if (clo.kind() == ValueKind::kFunction) {
            target = clo.as_int();
          } else {
            throw VMError(current_function().name + ": vm.builtin.invoke_closure: " +
                              describe_value(clo) + " is not a closure",
                          true);
          }
          const FunctionInfo& tf = functions[target];
          int64_t nargs = n - 2 + static_cast<int64_t>(captured.size());
          if (callees_[static_cast<size_t>(target)].kind == CalleeKind::kVM) {
            if (nargs != tf.num_args) {
              throw VMError(current_function().name + ": the closure of `" + tf.name + "` takes " +
                                std::to_string(tf.num_args) + " arguments but gets " +
                                std::to_string(n - 2) + " and " + std::to_string(captured.size()) +
                                " captured",
                            true);
            }
            enter(target, aw + 2, n - 2, captured, dst);
            break;
          }
          std::vector<Value> all;
          for (int64_t i = 2; i < n; ++i) all.push_back(decode(aw[i], regs));
          all.insert(all.end(), captured.begin(), captured.end());
          Value result;
          try {
            result = call_function(target, all);
          } catch (const VMError& e) {
            rethrow_located(e, target);
          }
          regs = regs_.data() + base;
          if (dst < kVoidRegister) regs[dst] = std::move(result);
          ++pc;
          break;
        }
        const Value** ptrs = ptr_buf;
        Value* imms = reinterpret_cast<Value*>(imm_buf);
        std::unique_ptr<const Value*[]> ptr_heap;
        std::unique_ptr<unsigned char[]> imm_heap;
        if (n > kInlineArgs) [[unlikely]] {
          ptr_heap.reset(new const Value*[static_cast<size_t>(n)]);
          imm_heap.reset(new unsigned char[static_cast<size_t>(n) * sizeof(Value)]);
          ptrs = ptr_heap.get();
          imms = reinterpret_cast<Value*>(imm_heap.get());
        }
        for (int64_t i = 0; i < n; ++i) {
          int64_t word = aw[i], v = arg_value(word);
          switch (arg_kind(word)) {
            case ArgKind::kRegister:
              ptrs[i] = v < kVoidRegister ? &regs[v] : &special(v);
              break;
            case ArgKind::kImmediate:
              ptrs[i] = new (&imms[i]) Value(v);
              break;
            case ArgKind::kConstant:
              ptrs[i] = &consts[v];
              break;
            case ArgKind::kFunction:
              ptrs[i] = new (&imms[i]) Value(Value::function(v));
              break;
          }
        }
        Value result;
        [[maybe_unused]] Clock::time_point t0;
        if constexpr (kProfile) t0 = Clock::now();
        try {
          if (callee.kind == CalleeKind::kKernel) {
            call_kernel(f, callee.kernel, ptrs, n, &result);
          } else {
            callee.builtin(*this, ArgList(ptrs, n), &result);
          }
        } catch (const VMError& e) {
          rethrow_located(e, f);
        }
        if constexpr (kProfile) profiler_->record(callee.profile_id, t0, Clock::now());
        regs = regs_.data() + base;  // a builtin may have re-entered the VM
        if (dst < kVoidRegister) regs[dst] = std::move(result);
        ++pc;
        break;
      }
      case Opcode::kRet: {
        Value result = w[1] < kVoidRegister ? std::move(regs[w[1]]) : special(w[1]);
        const Frame& fr = frames_.back();
        if constexpr (kProfile) {
          profiler_->record(callees_[static_cast<size_t>(fr.func)].profile_id, fr.start,
                            Clock::now());
        }
        int64_t return_pc = fr.return_pc, caller_dst = fr.caller_dst;
        pop_frame();
        if (frames_.size() == entry_depth) return result;
        base = frames_.back().base;
        regs = regs_.data() + base;
        if (caller_dst < kVoidRegister) regs[caller_dst] = std::move(result);
        pc = return_pc;
        break;
      }
      case Opcode::kGoto:
        pc += w[1];
        break;
      case Opcode::kIf: {
        const Value& c = w[1] < kVoidRegister ? regs[w[1]] : special(w[1]);
        if (c.kind() != ValueKind::kInt) {
          throw VMError(current_function().name + ": instruction " + std::to_string(pc) +
                            ": the condition of `if` is " + describe_value(c) +
                            ", not an int (see vm.builtin.read_if_cond)",
                        true);
        }
        pc += c.as_int() != 0 ? 1 : w[2];
        break;
      }
    }
  }
}

template Value VirtualMachine::run<true>(size_t);
template Value VirtualMachine::run<false>(size_t);

// ---------------------------------------------------------------------------------------------
// Kernels

void VirtualMachine::call_kernel(int64_t func, relax_kernel_fn fn, const Value* const* args,
                                 int64_t n, Value* result) {
  relax_arg arg_buf[kInlineArgs];
  std::vector<relax_arg> arg_heap;
  relax_arg* kargs = arg_buf;
  if (n > kInlineArgs) {
    arg_heap.resize(static_cast<size_t>(n));
    kargs = arg_heap.data();
  }
  const FunctionInfo& info = exe_->functions[static_cast<size_t>(func)];
  auto where = [&] {
    return current_function().name + ": " + kernel_kind_text(info.kind) + " `" + info.name + "`";
  };
  for (int64_t i = 0; i < n; ++i) {
    const Value& v = *args[i];
    relax_arg& a = kargs[i];
    switch (v.kind()) {
      case ValueKind::kTensor:
        a.kind = kRelaxArgTensor;
        a.value.tensor = v.as_tensor()->dl_mutable();
        break;
      case ValueKind::kInt:
        a.kind = kRelaxArgInt;
        a.value.i = v.as_int();
        break;
      case ValueKind::kFloat:
        a.kind = kRelaxArgFloat;
        a.value.f = v.as_float();
        break;
      case ValueKind::kNull:
        a.kind = kRelaxArgNull;
        a.value.handle = nullptr;
        break;
      case ValueKind::kString:
        a.kind = kRelaxArgHandle;
        a.value.handle = const_cast<char*>(v.as_string()->str().c_str());
        break;
      case ValueKind::kOpaque:
        a.kind = kRelaxArgHandle;
        a.value.handle = v.as_opaque();
        break;
      default:
        throw VMError(where() + ": argument " + std::to_string(i) + " is " + describe_value(v) +
                          ", which the kernel ABI cannot pass (tensors, ints, floats, strings, "
                          "handles and null)",
                      true);
    }
  }
  relax_arg ret;
  ret.kind = kRelaxArgNull;
  ret.value.handle = nullptr;
  int32_t rc = fn(&kernel_ctx_, kargs, static_cast<int32_t>(n), &ret);
  if (rc != 0 || kernel_error_set_) {
    std::string message;
    {
      std::lock_guard lock(kernel_error_mu_);
      message = std::exchange(kernel_error_, {});
      kernel_error_set_ = false;
    }
    if (rc == 0) return;  // an error set but not reported: ignore it
    if (message.empty()) message = "returned status " + std::to_string(rc);
    throw VMError(where() + " failed: " + message, true);
  }
  switch (ret.kind) {
    case kRelaxArgNull:
      break;
    case kRelaxArgInt:
      *result = Value(ret.value.i);
      break;
    case kRelaxArgFloat:
      *result = Value(ret.value.f);
      break;
    case kRelaxArgHandle:
      *result = Value::opaque(ret.value.handle);
      break;
    case kRelaxArgTensor:
      if (ret.value.tensor) *result = Value(copy_returned_tensor(*ret.value.tensor));
      break;
    default:
      throw VMError(where() + " returned a value of unknown kind " + std::to_string(ret.kind),
                    true);
  }
}

int32_t VirtualMachine::ctx_parallel_for(relax_kernel_context* ctx, int64_t extent,
                                         relax_parallel_body body, void* closure) {
  auto* vm = static_cast<VirtualMachine*>(ctx->runtime);
  auto chunk = [&](int64_t begin, int64_t end) { return body(begin, end, closure); };
  return vm->pool_->parallel_for(extent, chunk);
}

// Workspace blocks carry their size in a 64-byte header (keeping the payload aligned), so
// workspace_free needs only the pointer.
void* VirtualMachine::ctx_workspace_alloc(relax_kernel_context* ctx, uint64_t nbytes) {
  auto* vm = static_cast<VirtualMachine*>(ctx->runtime);
  // A size near 2^64 (a kernel's negative extent times the element size) must not wrap around
  // to a small block the kernel then overruns.
  if (nbytes > Allocator::kMaxBytes) return nullptr;
  try {
    auto* p = static_cast<char*>(vm->allocator_->allocate(nbytes + kTensorAlignment));
    std::memcpy(p, &nbytes, sizeof nbytes);
    return p + kTensorAlignment;
  } catch (...) {
    return nullptr;
  }
}

void VirtualMachine::ctx_workspace_free(relax_kernel_context* ctx, void* ptr) {
  if (!ptr) return;
  auto* vm = static_cast<VirtualMachine*>(ctx->runtime);
  char* p = static_cast<char*>(ptr) - kTensorAlignment;
  uint64_t nbytes;
  std::memcpy(&nbytes, p, sizeof nbytes);
  vm->allocator_->release(p, nbytes + kTensorAlignment);
}

void VirtualMachine::ctx_set_error(relax_kernel_context* ctx, const char* message) {
  auto* vm = static_cast<VirtualMachine*>(ctx->runtime);
  std::lock_guard lock(vm->kernel_error_mu_);
  if (vm->kernel_error_set_) return;  // the first error wins
  vm->kernel_error_ = message ? message : "";
  vm->kernel_error_set_ = true;
}

}  // namespace relax::vm
