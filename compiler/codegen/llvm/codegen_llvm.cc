// TIR to LLVM IR: one kernel function per lowered prim_func with the kernel ABI. The entry
// checks the argument count, each tensor's kind, device, rank, dtype, shape and layout (failing
// with a message through ctx->set_error), binds symbolic variables from the shapes, then runs
// the body: loops (parallel ones outlined and run through ctx->parallel_for, vectorized and
// unrolled ones with LLVM loop hints), scalar and vector arithmetic, buffer loads and stores,
// local allocations (stack when small and constant, workspace otherwise), math intrinsics,
// `T.ret` (the kernel's result), `T.assume` (no code). A prim_func that another one calls
// (`Module.f(A.data, n)`) also gets an internal function `f.impl(ctx, result, params...)` taking
// its parameters as plain values, which the callers call directly.
// It does not schedule: functions come lowered by lower.h (run here first, which is harmless on
// functions already lowered).
#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/codegen/llvm/llvm_internal.h"
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::codegen {

namespace {

using namespace ir::tir;
using ir::DataType;
using ir::ObjectKind;
using ir::Ref;

// A construct the code generator cannot compile; reported as a diagnostic for its function.
struct CodegenError {
  std::string code;
  std::string message;
  ir::Span span;
};

[[noreturn]] void fail(const std::string& code, const std::string& message,
                       ir::Span span = ir::Span::unknown()) {
  throw CodegenError{code, message, span};
}

// Local buffers up to this size (bytes, constant extents) live on the stack.
constexpr uint64_t kMaxStackBytes = 64 * 1024;

// Escapes `%` for use in a printf format.
std::string printf_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

// The x of a range check `lo <= x and x < n`, or `x < n` alone (`n > x` too) on a scalar
// integer: the forms InstrumentBoundCheckers asserts (Simplify drops a proven lower bound), whose
// failure message then reports x's value. Null for any other condition.
Ref<PrimExpr> range_checked_value(const Ref<PrimExpr>& cond) {
  auto upper = cond.as<BinaryOp>();
  if (upper && upper->kind() == ObjectKind::kAnd) upper = upper->b.as<BinaryOp>();
  if (!upper) return nullptr;
  Ref<PrimExpr> x;
  if (upper->kind() == ObjectKind::kLT) x = upper->a;
  if (upper->kind() == ObjectKind::kGT) x = upper->b;
  if (!x || !x->dtype.is_scalar() || !(x->dtype.is_int() || x->dtype.is_uint())) return nullptr;
  return x;
}

// The layouts of the C structures the kernel reads (kernel_abi.h, dlpack.h).
struct AbiTypes {
  llvm::StructType* arg;       // relax_arg: {union (8 bytes), i32 kind}
  llvm::StructType* ctx;       // relax_kernel_context
  llvm::StructType* tensor;    // DLTensor
  llvm::FunctionType* kernel;  // relax_kernel_fn
  llvm::FunctionType* body;    // relax_parallel_body

  explicit AbiTypes(llvm::LLVMContext& c) {
    auto* i8 = llvm::Type::getInt8Ty(c);
    auto* i16 = llvm::Type::getInt16Ty(c);
    auto* i32 = llvm::Type::getInt32Ty(c);
    auto* i64 = llvm::Type::getInt64Ty(c);
    auto* ptr = llvm::PointerType::getUnqual(c);
    arg = llvm::StructType::create(c, {i64, i32}, "relax_arg");
    ctx = llvm::StructType::create(c, {i32, ptr, ptr, ptr, ptr, ptr}, "relax_kernel_context");
    auto* device = llvm::StructType::get(c, {i32, i32});
    auto* dtype = llvm::StructType::get(c, {i8, i8, i16});
    tensor = llvm::StructType::create(c, {ptr, device, i32, dtype, ptr, ptr, i64}, "DLTensor");
    kernel = llvm::FunctionType::get(i32, {ptr, ptr, i32, ptr}, false);
    body = llvm::FunctionType::get(i32, {i64, i64, ptr}, false);
  }
};

// Context fields (indices into AbiTypes::ctx).
enum CtxField { kParallelFor = 1, kWorkspaceAlloc = 2, kWorkspaceFree = 3, kSetError = 4 };

// A prim_func that other prim_funcs call, by module member name: its lowered form and its
// internal function `i32 name.impl(ptr ctx, ptr result, params...)` (result may be null).
struct Callee {
  Ref<PrimFunc> func;
  size_t source = 0;  // its index in the functions being compiled
  llvm::Function* impl = nullptr;
};
using CalleeTable = std::map<std::string, Callee>;

// The LLVM type an internal function takes a parameter in: a handle (a buffer parameter passes
// its data pointer) or the scalar's type.
llvm::Type* param_type(llvm::IRBuilder<>& b, const PrimFunc& f, const Ref<Var>& param,
                       const std::function<llvm::Type*(DataType)>& scalar) {
  if (f.buffer_of(param) || param->dtype.is_handle()) return b.getPtrTy();
  return scalar(param->dtype);
}

class KernelBuilder {
 public:
  KernelBuilder(llvm::Module& module, const AbiTypes& abi, const CpuDescription& cpu,
                std::string name, const PrimFunc& func, const CalleeTable& callees)
      : module_(module),
        context_(module.getContext()),
        abi_(abi),
        cpu_(cpu),
        builder_(module.getContext()),
        name_(std::move(name)),
        func_(func),
        callees_(callees) {}

  llvm::Type* type_of(DataType t) { return llvm_type(t); }

  void build() {
    function_ =
        llvm::Function::Create(abi_.kernel, llvm::Function::ExternalLinkage, name_, module_);
    if (function_->getName() != name_) {
      fail("E0714", "two kernels are named `" + name_ + "`");
    }
    set_attributes(function_);
    auto* entry = llvm::BasicBlock::Create(context_, "entry", function_);
    builder_.SetInsertPoint(entry);
    ctx_ = function_->getArg(0);
    ctx_->setName("ctx");
    function_->getArg(1)->setName("args");
    function_->getArg(2)->setName("num_args");
    function_->getArg(3)->setName("result");
    entry_block_ = entry;
    in_parallel_ = false;
    unpack_arguments();
    emit_stmt(func_.body);
    builder_.CreateRet(builder_.getInt32(0));
  }

  // The body of the internal function `impl` (declared with the signature callers use).
  void build_internal(llvm::Function* impl) {
    internal_ = true;
    function_ = impl;
    set_attributes(function_);
    auto* entry = llvm::BasicBlock::Create(context_, "entry", function_);
    builder_.SetInsertPoint(entry);
    entry_block_ = entry;
    ctx_ = function_->getArg(0);
    ctx_->setName("ctx");
    function_->getArg(1)->setName("result");
    for (size_t i = 0; i < func_.params.size(); ++i) {
      const Ref<Var>& param = func_.params[i];
      llvm::Value* arg = function_->getArg(static_cast<unsigned>(i + 2));
      arg->setName(param->name);
      Ref<Buffer> buffer = func_.buffer_of(param);
      if (!buffer) {
        bind(param, arg);
        continue;
      }
      // Callers pass a buffer parameter's data pointer only: the rest must be known here.
      for (const auto& d : buffer->shape)
        if (!as_const_int(d))
          fail("E0710", "buffer `" + buffer->name +
                            "` has a symbolic shape, so the prim_func cannot be called from TIR");
      if (!buffer->strides.empty())
        fail("E0710", "buffer `" + buffer->name +
                          "` has strides, so the prim_func cannot be called from TIR");
      if (buffer->data) bind(buffer->data, arg);
      if (auto off = buffer->elem_offset.as<Var>())
        bind(off, llvm::ConstantInt::get(llvm_type(off->dtype), 0));
    }
    emit_stmt(func_.body);
    builder_.CreateRet(builder_.getInt32(0));
  }

 private:
  // ---- Types and constants ----

  llvm::Type* scalar_type(DataType t, bool memory) {
    if (t.is_scalable_vector())
      fail("E0711", "scalable vector type " + t.str() + " is not supported");
    if (t.is_bool()) return memory ? builder_.getInt8Ty() : builder_.getInt1Ty();
    if (t.is_int() || t.is_uint()) {
      if (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64)
        return llvm::IntegerType::get(context_, t.bits());
    } else if (t.is_float()) {
      if (t.bits() == 16) return builder_.getHalfTy();
      if (t.bits() == 32) return builder_.getFloatTy();
      if (t.bits() == 64) return builder_.getDoubleTy();
    } else if (t.is_handle()) {
      return builder_.getPtrTy();
    }
    fail("E0711", "type " + t.element_of().str() + " is not supported by LLVM code generation");
  }

  llvm::Type* llvm_type(DataType t, bool memory = false) {
    llvm::Type* s = scalar_type(t.element_of(), memory);
    if (t.lanes() > 1) return llvm::FixedVectorType::get(s, static_cast<unsigned>(t.lanes()));
    return s;
  }

  llvm::Value* i64(int64_t v) { return builder_.getInt64(static_cast<uint64_t>(v)); }

  void set_attributes(llvm::Function* f) {
    f->addFnAttr("target-cpu", cpu_.cpu);
    if (!cpu_.features.empty()) f->addFnAttr("target-features", cpu_.features);
    if (cpu_.vector_bits > 0) f->addFnAttr("prefer-vector-width", std::to_string(cpu_.vector_bits));
    f->addFnAttr(llvm::Attribute::NoUnwind);
  }

  // ---- Context services ----

  llvm::Value* ctx_field(CtxField field) {
    auto* slot = builder_.CreateStructGEP(abi_.ctx, ctx_, field);
    return builder_.CreateLoad(builder_.getPtrTy(), slot);
  }

  llvm::Value* string_constant(const std::string& s) {
    auto it = strings_.find(s);
    if (it != strings_.end()) return it->second;
    auto* g = builder_.CreateGlobalString(s, ".str", 0, &module_);
    g->setLinkage(llvm::GlobalValue::PrivateLinkage);
    strings_[s] = g;
    return g;
  }

  llvm::FunctionCallee libc(const std::string& name, llvm::FunctionType* type) {
    return module_.getOrInsertFunction(name, type);
  }

  // Emits: set_error(ctx, message formatted with the int64 `values`); return 1.
  void emit_error_return(const std::string& format, const std::vector<llvm::Value*>& values) {
    llvm::Value* message;
    if (values.empty()) {
      message = string_constant(format);
    } else {
      constexpr uint64_t kSize = 512;
      llvm::IRBuilderBase::InsertPoint here = builder_.saveIP();
      builder_.SetInsertPoint(entry_block_, entry_block_->getFirstInsertionPt());
      auto* buffer =
          builder_.CreateAlloca(llvm::ArrayType::get(builder_.getInt8Ty(), kSize), nullptr, "msg");
      builder_.restoreIP(here);
      auto* snprintf_type = llvm::FunctionType::get(
          builder_.getInt32Ty(), {builder_.getPtrTy(), builder_.getInt64Ty(), builder_.getPtrTy()},
          true);
      std::vector<llvm::Value*> args = {buffer, i64(kSize), string_constant(format)};
      args.insert(args.end(), values.begin(), values.end());
      builder_.CreateCall(libc("snprintf", snprintf_type), args);
      message = buffer;
    }
    auto* set_error_type = llvm::FunctionType::get(
        builder_.getVoidTy(), {builder_.getPtrTy(), builder_.getPtrTy()}, false);
    builder_.CreateCall(set_error_type, ctx_field(kSetError), {ctx_, message});
    builder_.CreateRet(builder_.getInt32(1));
  }

  // Continues when `ok` holds, otherwise fails with the message.
  void check(llvm::Value* ok, const std::string& format,
             const std::vector<llvm::Value*>& values = {}) {
    auto* fail_block = llvm::BasicBlock::Create(context_, "check_fail", current_function());
    auto* cont = llvm::BasicBlock::Create(context_, "check_ok", current_function());
    llvm::MDBuilder md(context_);
    builder_.CreateCondBr(ok, cont, fail_block, md.createBranchWeights(1 << 20, 1));
    builder_.SetInsertPoint(fail_block);
    emit_error_return(format, values);
    builder_.SetInsertPoint(cont);
  }

  // Returns the status from the current function when it is not zero.
  void propagate_status(llvm::Value* status) {
    auto* fail_block = llvm::BasicBlock::Create(context_, "status_fail", current_function());
    auto* cont = llvm::BasicBlock::Create(context_, "status_ok", current_function());
    builder_.CreateCondBr(builder_.CreateICmpEQ(status, builder_.getInt32(0)), cont, fail_block);
    builder_.SetInsertPoint(fail_block);
    builder_.CreateRet(status);
    builder_.SetInsertPoint(cont);
  }

  llvm::Function* current_function() { return builder_.GetInsertBlock()->getParent(); }

  // ---- Arguments ----

  std::string arg_label(size_t i, const std::string& name) {
    return "kernel `" + printf_escape(name_) + "`: argument " + std::to_string(i) + " (`" +
           printf_escape(name) + "`)";
  }

  static std::string dtype_description(DataType t) { return t.str(); }

  void unpack_arguments() {
    auto* num_args = function_->getArg(2);
    auto* args = function_->getArg(1);
    size_t n = func_.params.size();
    check(builder_.CreateICmpEQ(num_args, builder_.getInt32(static_cast<uint32_t>(n))),
          "kernel `" + printf_escape(name_) + "`: expected " + std::to_string(n) +
              " arguments, got %d",
          {num_args});

    struct TensorParam {
      size_t index;
      Ref<Buffer> buffer;
      llvm::Value* tensor;
      std::vector<llvm::Value*> shape;  // loaded dimensions
      llvm::Value* strides;
    };
    std::vector<TensorParam> tensors;

    for (size_t i = 0; i < n; ++i) {
      const Ref<Var>& param = func_.params[i];
      auto* arg = builder_.CreateConstInBoundsGEP1_64(abi_.arg, args, i);
      auto* kind =
          builder_.CreateLoad(builder_.getInt32Ty(), builder_.CreateStructGEP(abi_.arg, arg, 1));
      auto* value_slot = builder_.CreateStructGEP(abi_.arg, arg, 0);
      Ref<Buffer> buffer = func_.buffer_of(param);
      if (buffer) {
        std::string label = arg_label(i, buffer->name);
        check(builder_.CreateICmpEQ(kind, builder_.getInt32(kRelaxArgTensor)),
              label + " must be a tensor");
        auto* tensor =
            builder_.CreateLoad(builder_.getPtrTy(), value_slot, buffer->name + ".tensor");
        check(builder_.CreateIsNotNull(tensor), label + " is a null tensor");
        auto* device_type = builder_.CreateLoad(builder_.getInt32Ty(),
                                                builder_.CreateStructGEP(abi_.tensor, tensor, 1));
        check(builder_.CreateICmpEQ(device_type, builder_.getInt32(kDLCPU)),
              label + " is on device type %d, expected the CPU", {device_type});
        auto* ndim = builder_.CreateLoad(builder_.getInt32Ty(),
                                         builder_.CreateStructGEP(abi_.tensor, tensor, 2));
        size_t rank = buffer->shape.size();
        check(builder_.CreateICmpEQ(ndim, builder_.getInt32(static_cast<uint32_t>(rank))),
              label + " has %d dimensions, expected " + std::to_string(rank), {ndim});
        auto* dtype_ptr = builder_.CreateStructGEP(abi_.tensor, tensor, 3);
        auto* dtype_word = builder_.CreateLoad(builder_.getInt32Ty(), dtype_ptr);
        DataType dt = buffer->dtype;
        if (!dt.is_bool() && !dt.is_int() && !dt.is_uint() && !dt.is_float() && !dt.is_bfloat())
          fail("E0711", "buffer `" + buffer->name + "` has type " + dt.str() +
                            ", which kernels cannot take");
        uint32_t code = static_cast<uint32_t>(dt.code());
        uint32_t expected = code | (static_cast<uint32_t>(dt.bits()) << 8) |
                            (static_cast<uint32_t>(dt.lanes()) << 16);
        auto* code_v = builder_.CreateAnd(dtype_word, builder_.getInt32(0xff));
        auto* bits_v =
            builder_.CreateAnd(builder_.CreateLShr(dtype_word, 8), builder_.getInt32(0xff));
        auto* lanes_v = builder_.CreateLShr(dtype_word, 16);
        check(builder_.CreateICmpEQ(dtype_word, builder_.getInt32(expected)),
              label + " has dtype (code %d, %d bits, %d lanes), expected " + dtype_description(dt) +
                  " (code " + std::to_string(code) + ", " + std::to_string(dt.bits()) + " bits, " +
                  std::to_string(dt.lanes()) + " lanes)",
              {code_v, bits_v, lanes_v});
        llvm::Value* data = builder_.CreateLoad(builder_.getPtrTy(),
                                                builder_.CreateStructGEP(abi_.tensor, tensor, 0));
        auto* byte_offset = builder_.CreateLoad(builder_.getInt64Ty(),
                                                builder_.CreateStructGEP(abi_.tensor, tensor, 6));
        data = builder_.CreateInBoundsGEP(builder_.getInt8Ty(), data, byte_offset,
                                          buffer->name + ".data");
        if (buffer->data) bind(buffer->data, data);
        auto* shape_ptr = builder_.CreateLoad(builder_.getPtrTy(),
                                              builder_.CreateStructGEP(abi_.tensor, tensor, 4));
        auto* strides = builder_.CreateLoad(builder_.getPtrTy(),
                                            builder_.CreateStructGEP(abi_.tensor, tensor, 5));
        TensorParam tp{i, buffer, tensor, {}, strides};
        for (size_t k = 0; k < rank; ++k) {
          tp.shape.push_back(builder_.CreateLoad(
              builder_.getInt64Ty(),
              builder_.CreateConstInBoundsGEP1_64(builder_.getInt64Ty(), shape_ptr, k),
              buffer->name + ".shape" + std::to_string(k)));
        }
        tensors.push_back(std::move(tp));
      } else if (param->dtype.is_handle()) {
        check(builder_.CreateICmpEQ(kind, builder_.getInt32(kRelaxArgHandle)),
              arg_label(i, param->name) + " must be a handle");
        bind(param, builder_.CreateLoad(builder_.getPtrTy(), value_slot, param->name));
      } else if (param->dtype.is_float()) {
        std::string label = arg_label(i, param->name);
        auto* is_float = builder_.CreateICmpEQ(kind, builder_.getInt32(kRelaxArgFloat));
        auto* is_int = builder_.CreateICmpEQ(kind, builder_.getInt32(kRelaxArgInt));
        check(builder_.CreateOr(is_float, is_int), label + " must be a number");
        auto* as_float = builder_.CreateLoad(builder_.getDoubleTy(), value_slot);
        auto* as_int = builder_.CreateSIToFP(builder_.CreateLoad(builder_.getInt64Ty(), value_slot),
                                             builder_.getDoubleTy());
        llvm::Value* v = builder_.CreateSelect(is_float, as_float, as_int);
        bind(param, builder_.CreateFPCast(v, llvm_type(param->dtype)));
      } else if (param->dtype.is_integer_like() && param->dtype.is_scalar()) {
        check(builder_.CreateICmpEQ(kind, builder_.getInt32(kRelaxArgInt)),
              arg_label(i, param->name) + " must be an integer");
        llvm::Value* v = builder_.CreateLoad(builder_.getInt64Ty(), value_slot, param->name);
        if (param->dtype.is_bool())
          v = builder_.CreateICmpNE(v, i64(0));
        else
          v = builder_.CreateSExtOrTrunc(v, llvm_type(param->dtype));
        bind(param, v);
      } else {
        fail("E0711",
             "parameter `" + param->name + "` of type " + param->dtype.str() + " is not supported");
      }
    }

    // Symbolic variables take their values from the first dimension (or stride) that is exactly
    // that variable; every other dimension is then checked.
    std::set<std::pair<size_t, size_t>>
        binding_dims;  // (tensor, dimension) pairs that bound a variable
    for (size_t ti = 0; ti < tensors.size(); ++ti) {
      auto& tp = tensors[ti];
      for (size_t k = 0; k < tp.shape.size(); ++k) {
        auto var = tp.buffer->shape[k].as<Var>();
        if (var && !vars_.count(var.get())) {
          bind(var, builder_.CreateSExtOrTrunc(tp.shape[k], llvm_type(var->dtype)));
          binding_dims.insert({ti, k});
        }
      }
    }
    for (size_t ti = 0; ti < tensors.size(); ++ti) {
      auto& tp = tensors[ti];
      std::string label = arg_label(tp.index, tp.buffer->name);
      for (size_t k = 0; k < tp.shape.size(); ++k) {
        if (binding_dims.count({ti, k}) && tp.buffer->shape[k]->dtype.bits() == 64) continue;
        llvm::Value* expected = to_i64(emit_expr(tp.buffer->shape[k]), tp.buffer->shape[k]->dtype);
        check(builder_.CreateICmpEQ(tp.shape[k], expected),
              label + " has shape[" + std::to_string(k) + "] = %lld, expected %lld",
              {tp.shape[k], expected});
      }
      check_layout(tp.buffer, tp.strides, tp.shape, label);
    }
  }

  llvm::Value* to_i64(llvm::Value* v, DataType t) {
    if (t.is_uint() || t.is_bool()) return builder_.CreateZExtOrTrunc(v, builder_.getInt64Ty());
    return builder_.CreateSExtOrTrunc(v, builder_.getInt64Ty());
  }

  // Compact buffers accept a null strides array or strides of a compact row-major layout
  // (dimensions of extent 1 may have any stride). Buffers with strides bind or check them.
  void check_layout(const Ref<Buffer>& buffer, llvm::Value* strides,
                    const std::vector<llvm::Value*>& shape, const std::string& label) {
    size_t rank = shape.size();
    if (rank == 0) return;
    if (!buffer->elem_offset.as<Var>() && buffer->elem_offset &&
        !ir::tir::is_const_int(buffer->elem_offset, 0))
      fail("E0710", "buffer `" + buffer->name +
                        "` has a constant element offset, which kernel parameters cannot have");
    if (auto off = buffer->elem_offset.as<Var>(); off && !vars_.count(off.get()))
      bind(off, llvm::ConstantInt::get(llvm_type(off->dtype), 0));
    auto* has_strides = builder_.CreateIsNotNull(strides);
    // Compact strides from the actual shape.
    std::vector<llvm::Value*> compact(rank);
    llvm::Value* running = i64(1);
    for (size_t k = rank; k-- > 0;) {
      compact[k] = running;
      running = builder_.CreateMul(running, shape[k]);
    }
    std::vector<llvm::Value*> actual(rank);
    for (size_t k = 0; k < rank; ++k) {
      // select(strides != null, strides[k], compact[k]) without reading through a null pointer.
      auto* here = builder_.GetInsertBlock();
      auto* load_block = llvm::BasicBlock::Create(context_, "load_stride", current_function());
      auto* join = llvm::BasicBlock::Create(context_, "stride", current_function());
      builder_.CreateCondBr(has_strides, load_block, join);
      builder_.SetInsertPoint(load_block);
      auto* loaded = builder_.CreateLoad(
          builder_.getInt64Ty(),
          builder_.CreateConstInBoundsGEP1_64(builder_.getInt64Ty(), strides, k));
      builder_.CreateBr(join);
      builder_.SetInsertPoint(join);
      auto* phi = builder_.CreatePHI(builder_.getInt64Ty(), 2);
      phi->addIncoming(compact[k], here);
      phi->addIncoming(loaded, load_block);
      actual[k] = phi;
    }
    if (buffer->strides.empty()) {
      for (size_t k = 0; k < rank; ++k) {
        auto* ok = builder_.CreateOr(builder_.CreateICmpEQ(actual[k], compact[k]),
                                     builder_.CreateICmpEQ(shape[k], i64(1)));
        check(
            ok,
            label + " is not contiguous: stride[" + std::to_string(k) + "] is %lld, expected %lld",
            {actual[k], compact[k]});
      }
      return;
    }
    if (buffer->strides.size() != rank)
      fail("E0710", "buffer `" + buffer->name + "` has strides of the wrong rank");
    for (size_t k = 0; k < rank; ++k) {
      auto var = buffer->strides[k].as<Var>();
      if (var && !vars_.count(var.get())) {
        bind(var, builder_.CreateSExtOrTrunc(actual[k], llvm_type(var->dtype)));
        continue;
      }
      llvm::Value* expected = to_i64(emit_expr(buffer->strides[k]), buffer->strides[k]->dtype);
      check(builder_.CreateICmpEQ(actual[k], expected),
            label + " has stride[" + std::to_string(k) + "] = %lld, expected %lld",
            {actual[k], expected});
    }
  }

  // ---- Variables ----

  void bind(const Ref<Var>& var, llvm::Value* value) { vars_[var.get()] = value; }

  llvm::Value* lookup(const Ref<Var>& var) {
    auto it = vars_.find(var.get());
    if (it == vars_.end())
      fail("E0710", "variable `" + var->name + "` is used but has no value here", var->span);
    return it->second;
  }

  // ---- Expressions ----

  llvm::Value* splat_to(llvm::Value* v, DataType t) {
    if (t.lanes() > 1 && !v->getType()->isVectorTy())
      return builder_.CreateVectorSplat(static_cast<unsigned>(t.lanes()), v);
    return v;
  }

  llvm::Value* emit_expr(const Ref<PrimExpr>& e) {
    switch (e->kind()) {
      case ObjectKind::kTirVar:
        return lookup(e.as<Var>());
      case ObjectKind::kIntImm: {
        auto imm = e.as<IntImm>();
        return llvm::ConstantInt::get(llvm_type(imm->dtype), static_cast<uint64_t>(imm->value),
                                      imm->dtype.is_int());
      }
      case ObjectKind::kFloatImm: {
        auto imm = e.as<FloatImm>();
        return llvm::ConstantFP::get(llvm_type(imm->dtype), imm->value);
      }
      case ObjectKind::kTirStringImm:
        return string_constant(e.as<StringImm>()->value);
      case ObjectKind::kCast: {
        auto c = e.as<Cast>();
        return emit_cast(emit_expr(c->value), c->value->dtype, c->dtype);
      }
      case ObjectKind::kNot:
        return builder_.CreateNot(emit_expr(e.as<Not>()->a));
      case ObjectKind::kSelect: {
        auto s = e.as<Select>();
        auto* c = emit_expr(s->condition);
        auto* t = splat_to(emit_expr(s->true_value), s->dtype);
        auto* f = splat_to(emit_expr(s->false_value), s->dtype);
        return builder_.CreateSelect(c, t, f);
      }
      case ObjectKind::kBufferLoad:
        return emit_load(e.as<BufferLoad>());
      case ObjectKind::kRamp: {
        auto r = e.as<Ramp>();
        auto lanes = as_const_int(r->lanes);
        if (!lanes) fail("E0710", "a ramp of symbolic length is not supported", e->span);
        auto* base = emit_expr(r->base);
        auto* stride = emit_expr(r->stride);
        llvm::Value* vec = llvm::PoisonValue::get(llvm_type(r->dtype));
        for (int64_t i = 0; i < *lanes; ++i) {
          auto* lane = builder_.CreateAdd(
              base, builder_.CreateMul(
                        stride, llvm::ConstantInt::get(base->getType(), static_cast<uint64_t>(i))));
          vec = builder_.CreateInsertElement(vec, lane, static_cast<uint64_t>(i));
        }
        return vec;
      }
      case ObjectKind::kBroadcast: {
        auto b = e.as<Broadcast>();
        auto lanes = as_const_int(b->lanes);
        if (!lanes) fail("E0710", "a broadcast of symbolic length is not supported", e->span);
        return builder_.CreateVectorSplat(static_cast<unsigned>(*lanes), emit_expr(b->value));
      }
      case ObjectKind::kLet: {
        auto l = e.as<Let>();
        bind(l->var, emit_expr(l->value));
        return emit_expr(l->body);
      }
      case ObjectKind::kTirCall:
        return emit_call(e.as<Call>());
      default:
        break;
    }
    if (auto op = e.as<BinaryOp>()) return emit_binary(op);
    fail("E0710",
         std::string("expression of kind ") + std::to_string(static_cast<int>(e->kind())) +
             " is not supported by LLVM code generation",
         e->span);
  }

  llvm::Value* emit_cast(llvm::Value* v, DataType from, DataType to) {
    llvm::Type* target = llvm_type(to);
    if (from == to) return v;
    v = splat_to(v, to);
    if (to.is_bool()) {
      if (from.is_floating())
        return builder_.CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
      return builder_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    }
    bool from_signed = from.is_int();
    if (from.is_integer_like() && to.is_integer_like())
      return builder_.CreateIntCast(v, target, from_signed);
    if (from.is_integer_like() && to.is_float())
      return from_signed ? builder_.CreateSIToFP(v, target) : builder_.CreateUIToFP(v, target);
    if (from.is_float() && to.is_integer_like())
      return to.is_int() ? builder_.CreateFPToSI(v, target) : builder_.CreateFPToUI(v, target);
    if (from.is_float() && to.is_float()) return builder_.CreateFPCast(v, target);
    fail("E0711", "cast from " + from.str() + " to " + to.str() + " is not supported");
  }

  // `a + b + c + ...` nests to the left, one node a term (30,000 deep in generated code): the
  // chain of binary nodes down the left operands is emitted in a loop, leftmost first, each
  // right operand recursively.
  llvm::Value* emit_binary(const Ref<BinaryOp>& top) {
    std::vector<const BinaryOp*> spine{top.get()};
    while (auto next = spine.back()->a.as_ptr<BinaryOp>()) spine.push_back(next);
    llvm::Value* acc = emit_expr(spine.back()->a);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it)
      acc = emit_binary_node(**it, acc, emit_expr((*it)->b));
    return acc;
  }

  // One binary node, its operands emitted.
  llvm::Value* emit_binary_node(const BinaryOp& node, llvm::Value* a, llvm::Value* b) {
    const BinaryOp* op = &node;
    DataType t = op->a->dtype;
    DataType operand_type =
        op->a->dtype.lanes() >= op->b->dtype.lanes() ? op->a->dtype : op->b->dtype;
    a = splat_to(a, operand_type);
    b = splat_to(b, operand_type);
    t = operand_type;
    bool is_float = t.is_float();
    bool is_signed = t.is_int();
    switch (op->kind()) {
      case ObjectKind::kAdd:
        return is_float ? builder_.CreateFAdd(a, b) : builder_.CreateAdd(a, b);
      case ObjectKind::kSub:
        return is_float ? builder_.CreateFSub(a, b) : builder_.CreateSub(a, b);
      case ObjectKind::kMul:
        return is_float ? builder_.CreateFMul(a, b) : builder_.CreateMul(a, b);
      case ObjectKind::kDiv:
        if (is_float) return builder_.CreateFDiv(a, b);
        return is_signed ? builder_.CreateSDiv(a, b) : builder_.CreateUDiv(a, b);
      case ObjectKind::kMod:
        if (is_float) return builder_.CreateFRem(a, b);
        return is_signed ? builder_.CreateSRem(a, b) : builder_.CreateURem(a, b);
      case ObjectKind::kFloorDiv: {
        if (is_float)
          return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, builder_.CreateFDiv(a, b));
        if (!is_signed) return builder_.CreateUDiv(a, b);
        // q = a / b (truncated), minus one when the remainder is non-zero and its sign differs from
        // b.
        auto* q = builder_.CreateSDiv(a, b);
        auto* r = builder_.CreateSRem(a, b);
        auto* zero = llvm::Constant::getNullValue(a->getType());
        auto* adjust = builder_.CreateAnd(
            builder_.CreateICmpNE(r, zero),
            builder_.CreateXor(builder_.CreateICmpSLT(r, zero), builder_.CreateICmpSLT(b, zero)));
        return builder_.CreateSub(q, builder_.CreateZExt(adjust, a->getType()));
      }
      case ObjectKind::kFloorMod: {
        if (is_float) {
          auto* q =
              builder_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, builder_.CreateFDiv(a, b));
          return builder_.CreateFSub(a, builder_.CreateFMul(q, b));
        }
        if (!is_signed) return builder_.CreateURem(a, b);
        auto* r = builder_.CreateSRem(a, b);
        auto* zero = llvm::Constant::getNullValue(a->getType());
        auto* adjust = builder_.CreateAnd(
            builder_.CreateICmpNE(r, zero),
            builder_.CreateXor(builder_.CreateICmpSLT(r, zero), builder_.CreateICmpSLT(b, zero)));
        return builder_.CreateSelect(adjust, builder_.CreateAdd(r, b), r);
      }
      case ObjectKind::kMin:
        if (is_float) return builder_.CreateSelect(builder_.CreateFCmpOLT(a, b), a, b);
        return builder_.CreateSelect(
            is_signed ? builder_.CreateICmpSLT(a, b) : builder_.CreateICmpULT(a, b), a, b);
      case ObjectKind::kMax:
        if (is_float) return builder_.CreateSelect(builder_.CreateFCmpOGT(a, b), a, b);
        return builder_.CreateSelect(
            is_signed ? builder_.CreateICmpSGT(a, b) : builder_.CreateICmpUGT(a, b), a, b);
      case ObjectKind::kEQ:
        return is_float ? builder_.CreateFCmpOEQ(a, b) : builder_.CreateICmpEQ(a, b);
      case ObjectKind::kNE:
        return is_float ? builder_.CreateFCmpUNE(a, b) : builder_.CreateICmpNE(a, b);
      case ObjectKind::kLT:
        if (is_float) return builder_.CreateFCmpOLT(a, b);
        return is_signed ? builder_.CreateICmpSLT(a, b) : builder_.CreateICmpULT(a, b);
      case ObjectKind::kLE:
        if (is_float) return builder_.CreateFCmpOLE(a, b);
        return is_signed ? builder_.CreateICmpSLE(a, b) : builder_.CreateICmpULE(a, b);
      case ObjectKind::kGT:
        if (is_float) return builder_.CreateFCmpOGT(a, b);
        return is_signed ? builder_.CreateICmpSGT(a, b) : builder_.CreateICmpUGT(a, b);
      case ObjectKind::kGE:
        if (is_float) return builder_.CreateFCmpOGE(a, b);
        return is_signed ? builder_.CreateICmpSGE(a, b) : builder_.CreateICmpUGE(a, b);
      case ObjectKind::kAnd:
        return builder_.CreateAnd(a, b);
      case ObjectKind::kOr:
        return builder_.CreateOr(a, b);
      default:
        break;
    }
    fail("E0710", "unknown binary operator", op->span);
  }

  // A libm function applied lane by lane (vectors are scalarized; LLVM has no vector form).
  llvm::Value* call_libm(const std::string& name, DataType t,
                         const std::vector<llvm::Value*>& args) {
    DataType scalar = t.element_of();
    if ((scalar.is_float() && scalar.bits() == 16) || scalar.is_bfloat()) {
      // No half-precision libm: computed in float32, rounded back.
      DataType wide = DataType::Float(32, t.lanes());
      std::vector<llvm::Value*> wide_args;
      for (auto* a : args) wide_args.push_back(builder_.CreateFPExt(a, llvm_type(wide)));
      return builder_.CreateFPTrunc(call_libm(name, wide, wide_args), llvm_type(t));
    }
    if (!scalar.is_float() || (scalar.bits() != 32 && scalar.bits() != 64))
      fail("E0711", name + " needs float32 or float64, not " + t.str());
    std::string fn = scalar.bits() == 32 ? name + "f" : name;
    llvm::Type* st = llvm_type(scalar);
    std::vector<llvm::Type*> params(args.size(), st);
    auto callee = libc(fn, llvm::FunctionType::get(st, params, false));
    if (t.lanes() == 1) return builder_.CreateCall(callee, args);
    llvm::Value* out = llvm::PoisonValue::get(llvm_type(t));
    for (int i = 0; i < t.lanes(); ++i) {
      std::vector<llvm::Value*> lane_args;
      for (auto* a : args)
        lane_args.push_back(builder_.CreateExtractElement(a, static_cast<uint64_t>(i)));
      out = builder_.CreateInsertElement(out, builder_.CreateCall(callee, lane_args),
                                         static_cast<uint64_t>(i));
    }
    return out;
  }

  llvm::Value* emit_call(const Ref<Call>& call) {
    const std::string& op = call->op;
    auto arg = [&](size_t i) {
      if (i >= call->args.size()) fail("E0710", op + " needs more arguments", call->span);
      return splat_to(emit_expr(call->args[i]), call->dtype);
    };
    static const std::map<std::string, llvm::Intrinsic::ID> kUnary = {
        {"tir.exp", llvm::Intrinsic::exp},
        {"tir.exp2", llvm::Intrinsic::exp2},
        {"tir.log", llvm::Intrinsic::log},
        {"tir.log2", llvm::Intrinsic::log2},
        {"tir.log10", llvm::Intrinsic::log10},
        {"tir.sqrt", llvm::Intrinsic::sqrt},
        {"tir.fabs", llvm::Intrinsic::fabs},
        {"tir.floor", llvm::Intrinsic::floor},
        {"tir.ceil", llvm::Intrinsic::ceil},
        {"tir.round", llvm::Intrinsic::nearbyint},
        {"tir.nearbyint", llvm::Intrinsic::nearbyint},
        {"tir.trunc", llvm::Intrinsic::trunc},
        {"tir.sin", llvm::Intrinsic::sin},
        {"tir.cos", llvm::Intrinsic::cos},
    };
    static const std::map<std::string, std::string> kLibmUnary = {
        {"tir.tanh", "tanh"},   {"tir.tan", "tan"},     {"tir.erf", "erf"},
        {"tir.atan", "atan"},   {"tir.asin", "asin"},   {"tir.acos", "acos"},
        {"tir.sinh", "sinh"},   {"tir.cosh", "cosh"},   {"tir.asinh", "asinh"},
        {"tir.acosh", "acosh"}, {"tir.atanh", "atanh"}, {"tir.log1p", "log1p"},
        {"tir.expm1", "expm1"}, {"tir.exp10", "exp10"},
    };
    if (auto it = kUnary.find(op); it != kUnary.end()) {
      if (!call->dtype.is_float())
        fail("E0711", op + " needs a float argument, not " + call->dtype.str(), call->span);
      return builder_.CreateUnaryIntrinsic(it->second, arg(0));
    }
    if (auto it = kLibmUnary.find(op); it != kLibmUnary.end())
      return call_libm(it->second, call->dtype, {arg(0)});
    if (op == "tir.pow")
      return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, arg(0), arg(1));
    if (op == "tir.atan2") return call_libm("atan2", call->dtype, {arg(0), arg(1)});
    if (op == "tir.hypot") return call_libm("hypot", call->dtype, {arg(0), arg(1)});
    if (op == "tir.nextafter") return call_libm("nextafter", call->dtype, {arg(0), arg(1)});
    if (op == "tir.copysign")
      return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, arg(0), arg(1));
    if (op == "tir.popcount") return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, arg(0));
    if (op == "tir.clz")
      return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, arg(0), builder_.getFalse());
    if (op == "tir.fmod") return builder_.CreateFRem(arg(0), arg(1));
    if (op == "tir.sigmoid") {
      auto* x = arg(0);
      auto* one = llvm::ConstantFP::get(x->getType(), 1.0);
      auto* e = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::exp, builder_.CreateFNeg(x));
      return builder_.CreateFDiv(one, builder_.CreateFAdd(one, e));
    }
    if (op == "tir.rsqrt") {
      auto* x = arg(0);
      return builder_.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0),
                                 builder_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x));
    }
    if (op == "tir.abs" || op == "tir.fabs") {
      auto* x = arg(0);
      if (call->dtype.is_float()) return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
      if (call->dtype.is_uint()) return x;
      return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, x, builder_.getFalse());
    }
    if (op == "tir.isnan") {
      auto* x = emit_expr(call->args.at(0));
      return builder_.CreateFCmpUNO(x, x);
    }
    if (op == "tir.isinf" || op == "tir.isfinite") {
      auto* x = emit_expr(call->args.at(0));
      auto* abs = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
      auto* inf = llvm::ConstantFP::getInfinity(x->getType()->getScalarType());
      auto* inf_v = splat_to(inf, call->args[0]->dtype);
      return op == "tir.isinf" ? builder_.CreateFCmpOEQ(abs, inf_v)
                               : builder_.CreateFCmpOLT(abs, inf_v);
    }
    if (op == "tir.likely") return emit_expr(call->args.at(0));
    // An assumption only informs analyses (TVM removes it before code generation).
    if (op == "tir.assume") return builder_.getInt32(0);
    if (op == "tir.ret") {
      if (call->args.size() != 1) fail("E0710", "T.ret takes one value", call->span);
      emit_return(call->args[0], call->span);
      return builder_.getInt32(0);
    }
    if (op.starts_with("@")) return emit_prim_func_call(call);
    if (op == "tir.bitwise_and") return builder_.CreateAnd(arg(0), arg(1));
    if (op == "tir.bitwise_or") return builder_.CreateOr(arg(0), arg(1));
    if (op == "tir.bitwise_xor") return builder_.CreateXor(arg(0), arg(1));
    if (op == "tir.bitwise_not") return builder_.CreateNot(arg(0));
    if (op == "tir.shift_left") return builder_.CreateShl(arg(0), arg(1));
    if (op == "tir.shift_right")
      return call->dtype.is_int() ? builder_.CreateAShr(arg(0), arg(1))
                                  : builder_.CreateLShr(arg(0), arg(1));
    if (op == "tir.reinterpret")
      return builder_.CreateBitCast(emit_expr(call->args.at(0)), llvm_type(call->dtype));
    if (op == "tir.if_then_else") return emit_if_then_else(call);
    if (op == "tir.call_extern" || op == "tir.call_pure_extern" ||
        op == "tir.call_llvm_pure_intrin") {
      auto name = call->args.empty() ? nullptr : call->args[0].as<StringImm>();
      if (!name) fail("E0710", op + " needs the function's name first", call->span);
      std::vector<llvm::Value*> values;
      std::vector<llvm::Type*> types;
      for (size_t i = 1; i < call->args.size(); ++i) {
        values.push_back(emit_expr(call->args[i]));
        types.push_back(values.back()->getType());
      }
      llvm::Type* ret = call->dtype.is_void() ? builder_.getVoidTy() : llvm_type(call->dtype);
      auto callee = libc(name->value, llvm::FunctionType::get(ret, types, false));
      llvm::Value* result = builder_.CreateCall(callee, values);
      if (call->dtype.is_void()) return builder_.getInt32(0);
      return result;
    }
    fail("E0710", "the intrinsic `" + op + "` is not supported by LLVM code generation",
         call->span);
  }

  // `T.ret(value)`: stores the value where the caller wants the result (a tagged relax_arg for a
  // kernel, the plain value for an internal function; nothing when the caller passed null),
  // frees the local buffers still allocated on the heap and returns success.
  void emit_return(const Ref<PrimExpr>& value_expr, ir::Span span) {
    if (in_parallel_) fail("E0710", "T.ret inside a parallel loop cannot return", span);
    if (!value_expr->dtype.is_scalar())
      fail("E0711", "T.ret of a vector (" + value_expr->dtype.str() + ") is not supported", span);
    DataType t = func_.ret_type.is_void() ? value_expr->dtype : func_.ret_type;
    llvm::Value* value = emit_expr(value_expr);
    if (value_expr->dtype != t) value = emit_cast(value, value_expr->dtype, t);
    llvm::Value* result = function_->getArg(internal_ ? 1 : 3);
    auto* store_block = llvm::BasicBlock::Create(context_, "ret_store", current_function());
    auto* done = llvm::BasicBlock::Create(context_, "ret_done", current_function());
    builder_.CreateCondBr(builder_.CreateIsNotNull(result), store_block, done);
    builder_.SetInsertPoint(store_block);
    if (internal_) {
      builder_.CreateStore(value, result);
    } else {
      auto* slot = builder_.CreateStructGEP(abi_.arg, result, 0);
      int32_t kind;
      if (t.is_handle()) {
        kind = kRelaxArgHandle;
        builder_.CreateStore(value, slot);
      } else if (t.is_floating()) {
        kind = kRelaxArgFloat;
        builder_.CreateStore(builder_.CreateFPCast(value, builder_.getDoubleTy()), slot);
      } else {
        kind = kRelaxArgInt;
        builder_.CreateStore(to_i64(value, t), slot);
      }
      builder_.CreateStore(builder_.getInt32(static_cast<uint32_t>(kind)),
                           builder_.CreateStructGEP(abi_.arg, result, 1));
    }
    builder_.CreateBr(done);
    builder_.SetInsertPoint(done);
    for (size_t i = heap_buffers_.size(); i-- > 0;) free_heap_buffer(heap_buffers_[i]);
    builder_.CreateRet(builder_.getInt32(0));
    // Anything after the return is unreachable; it still needs a block to go in.
    builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "after_ret", current_function()));
  }

  // `Module.f(args)`: a direct call of f's internal function; a failure status returns from
  // here too. The value is the callee's result (int32 0 for a function without one).
  llvm::Value* emit_prim_func_call(const Ref<Call>& call) {
    std::string name = call->op.substr(1);
    auto it = callees_.find(name);
    if (it == callees_.end() || !it->second.impl)
      fail("E0710", "`" + name + "` is not a prim_func of the module", call->span);
    const PrimFunc& callee = *it->second.func;
    if (call->args.size() != callee.params.size())
      fail("E0710",
           "`" + name + "` takes " + std::to_string(callee.params.size()) + " arguments, got " +
               std::to_string(call->args.size()),
           call->span);
    std::vector<llvm::Value*> args = {ctx_, nullptr};
    for (size_t i = 0; i < call->args.size(); ++i) {
      const Ref<Var>& param = callee.params[i];
      llvm::Value* v = emit_expr(call->args[i]);
      bool pointer = callee.buffer_of(param) || param->dtype.is_handle();
      if (pointer != call->args[i]->dtype.is_handle())
        fail("E0710",
             "argument " + std::to_string(i) + " of `" + name + "` must be " +
                 (pointer ? "a handle (a buffer's data pointer, `A.data`)" : "a scalar"),
             call->span);
      if (!pointer && call->args[i]->dtype != param->dtype)
        v = emit_cast(v, call->args[i]->dtype, param->dtype);
      args.push_back(v);
    }
    llvm::Value* slot = nullptr;
    if (!callee.ret_type.is_void()) {
      llvm::IRBuilderBase::InsertPoint here = builder_.saveIP();
      builder_.SetInsertPoint(entry_block_, entry_block_->getFirstInsertionPt());
      slot = builder_.CreateAlloca(llvm_type(callee.ret_type), nullptr, name + ".result");
      builder_.restoreIP(here);
      // A callee that ends without T.ret leaves its result alone: it reads as zero.
      builder_.CreateStore(llvm::Constant::getNullValue(llvm_type(callee.ret_type)), slot);
      args[1] = slot;
    } else {
      args[1] = llvm::ConstantPointerNull::get(builder_.getPtrTy());
    }
    propagate_status(builder_.CreateCall(it->second.impl, args));
    if (!slot) return builder_.getInt32(0);
    llvm::Value* out = builder_.CreateLoad(llvm_type(callee.ret_type), slot);
    if (call->dtype != callee.ret_type && !call->dtype.is_void())
      out = emit_cast(out, callee.ret_type, call->dtype);
    return out;
  }

  // The lazy conditional: only the chosen side is evaluated (for scalars).
  llvm::Value* emit_if_then_else(const Ref<Call>& call) {
    if (call->args.size() != 3) fail("E0710", "T.if_then_else takes three arguments", call->span);
    auto* cond = emit_expr(call->args[0]);
    if (cond->getType()->isVectorTy()) {
      auto* t = splat_to(emit_expr(call->args[1]), call->dtype);
      auto* f = splat_to(emit_expr(call->args[2]), call->dtype);
      return builder_.CreateSelect(cond, t, f);
    }
    auto* fn = current_function();
    auto* then_block = llvm::BasicBlock::Create(context_, "ite_then", fn);
    auto* else_block = llvm::BasicBlock::Create(context_, "ite_else", fn);
    auto* join = llvm::BasicBlock::Create(context_, "ite_end", fn);
    builder_.CreateCondBr(cond, then_block, else_block);
    builder_.SetInsertPoint(then_block);
    auto* t = splat_to(emit_expr(call->args[1]), call->dtype);
    auto* then_end = builder_.GetInsertBlock();
    builder_.CreateBr(join);
    builder_.SetInsertPoint(else_block);
    auto* f = splat_to(emit_expr(call->args[2]), call->dtype);
    auto* else_end = builder_.GetInsertBlock();
    builder_.CreateBr(join);
    builder_.SetInsertPoint(join);
    auto* phi = builder_.CreatePHI(t->getType(), 2);
    phi->addIncoming(t, then_end);
    phi->addIncoming(f, else_end);
    return phi;
  }

  // ---- Memory ----

  // The address of element 0 of a buffer (its data pointer plus its element offset).
  llvm::Value* buffer_base(const Ref<Buffer>& buffer) {
    if (!buffer->data) fail("E0710", "buffer `" + buffer->name + "` has no data pointer");
    llvm::Value* base = lookup(buffer->data);
    if (buffer->elem_offset && !ir::tir::is_const_int(buffer->elem_offset, 0)) {
      base = builder_.CreateInBoundsGEP(
          llvm_type(buffer->dtype.element_of(), true), base,
          to_i64(emit_expr(buffer->elem_offset), buffer->elem_offset->dtype));
    }
    return base;
  }

  // The flat index of a (lowered, one-dimensional) access.
  const Ref<PrimExpr>& flat_index(const std::vector<Ref<PrimExpr>>& indices,
                                  const Ref<Buffer>& buffer, ir::Span span) {
    if (indices.size() != 1)
      fail("E0705",
           "buffer `" + buffer->name + "` is accessed with " + std::to_string(indices.size()) +
               " indices; code generation needs flattened buffers",
           span);
    return indices[0];
  }

  llvm::Value* from_memory(llvm::Value* v, DataType t) {
    if (t.is_bool()) return builder_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    return v;
  }
  llvm::Value* to_memory(llvm::Value* v, DataType t) {
    if (!t.is_bool()) return v;
    llvm::Type* byte = builder_.getInt8Ty();
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType()))
      return builder_.CreateZExt(v, llvm::FixedVectorType::get(byte, vt->getNumElements()));
    return builder_.CreateZExt(v, byte);
  }

  llvm::Align element_align(DataType element) {
    return llvm::Align(static_cast<uint64_t>(std::max(1, element.bytes())));
  }

  // A vector of `lanes` pointers to the elements at `index` (a scalar index is broadcast).
  llvm::Value* lane_pointers(llvm::Type* mem, llvm::Value* base, const Ref<PrimExpr>& index,
                             int lanes) {
    auto* idx = splat_to(emit_expr(index), index->dtype.with_lanes(lanes));
    auto* wide = llvm::FixedVectorType::get(builder_.getInt64Ty(), static_cast<unsigned>(lanes));
    idx = index->dtype.is_uint() ? builder_.CreateZExtOrTrunc(idx, wide)
                                 : builder_.CreateSExtOrTrunc(idx, wide);
    return builder_.CreateInBoundsGEP(mem, base, idx);
  }

  // The pointer to the first element of a contiguous (stride-1 ramp) vector access, or null.
  llvm::Value* contiguous_pointer(llvm::Type* mem, llvm::Value* base, const Ref<PrimExpr>& index,
                                  int lanes) {
    auto ramp = index.as<Ramp>();
    if (!ramp || !is_const_int(ramp->stride, 1) || lanes <= 1) return nullptr;
    return builder_.CreateInBoundsGEP(mem, base, to_i64(emit_expr(ramp->base), ramp->base->dtype));
  }

  llvm::Value* emit_load(const Ref<BufferLoad>& load) {
    const Ref<Buffer>& buffer = load->buffer;
    DataType element = buffer->dtype.element_of();
    llvm::Type* mem = llvm_type(element, true);
    llvm::Value* base = buffer_base(buffer);
    const Ref<PrimExpr>& index = flat_index(load->indices, buffer, load->span);
    int lanes = std::max(load->dtype.lanes(), index->dtype.lanes());
    llvm::Align align = element_align(element);
    if (lanes == 1) {
      if (load->predicate) fail("E0710", "a predicated scalar load is not supported", load->span);
      auto* ptr = builder_.CreateInBoundsGEP(mem, base, to_i64(emit_expr(index), index->dtype));
      return from_memory(builder_.CreateAlignedLoad(mem, ptr, align), element);
    }
    DataType vt = element.with_lanes(lanes);
    llvm::Type* vmem = llvm_type(vt, true);
    llvm::Value* mask =
        load->predicate ? splat_to(emit_expr(load->predicate), DataType::Bool(lanes)) : nullptr;
    if (auto* ptr = contiguous_pointer(mem, base, index, lanes)) {
      llvm::Value* v = mask ? static_cast<llvm::Value*>(builder_.CreateMaskedLoad(
                                  vmem, ptr, align, mask, llvm::Constant::getNullValue(vmem)))
                            : builder_.CreateAlignedLoad(vmem, ptr, align);
      return from_memory(v, vt);
    }
    auto* ptrs = lane_pointers(mem, base, index, lanes);
    if (!mask)
      mask = llvm::ConstantInt::getTrue(
          llvm::FixedVectorType::get(builder_.getInt1Ty(), static_cast<unsigned>(lanes)));
    return from_memory(
        builder_.CreateMaskedGather(vmem, ptrs, align, mask, llvm::Constant::getNullValue(vmem)),
        vt);
  }

  void emit_store(const Ref<BufferStore>& store) {
    const Ref<Buffer>& buffer = store->buffer;
    DataType element = buffer->dtype.element_of();
    llvm::Type* mem = llvm_type(element, true);
    llvm::Value* base = buffer_base(buffer);
    const Ref<PrimExpr>& index = flat_index(store->indices, buffer, store->span);
    DataType t = store->value->dtype;
    int lanes = std::max(t.lanes(), index->dtype.lanes());
    llvm::Align align = element_align(element);
    llvm::Value* value = to_memory(splat_to(emit_expr(store->value), t.with_lanes(lanes)), element);
    if (lanes == 1) {
      if (store->predicate)
        fail("E0710", "a predicated scalar store is not supported", store->span);
      auto* ptr = builder_.CreateInBoundsGEP(mem, base, to_i64(emit_expr(index), index->dtype));
      builder_.CreateAlignedStore(value, ptr, align);
      return;
    }
    llvm::Value* mask =
        store->predicate ? splat_to(emit_expr(store->predicate), DataType::Bool(lanes)) : nullptr;
    if (auto* ptr = contiguous_pointer(mem, base, index, lanes)) {
      if (mask)
        builder_.CreateMaskedStore(value, ptr, align, mask);
      else
        builder_.CreateAlignedStore(value, ptr, align);
      return;
    }
    auto* ptrs = lane_pointers(mem, base, index, lanes);
    builder_.CreateMaskedScatter(value, ptrs, align, mask);
  }

  // a op b in int64 with LLVM's overflow intrinsic; the kernel fails with `message` on overflow.
  llvm::Value* checked_arith(llvm::Intrinsic::ID op, llvm::Value* a, llvm::Value* b,
                             const std::string& message) {
    auto* r = builder_.CreateBinaryIntrinsic(op, a, b);
    check(builder_.CreateNot(builder_.CreateExtractValue(r, 1)), message);
    return builder_.CreateExtractValue(r, 0);
  }

  // An allocation size (flattened: a product of extents, perhaps rewritten by Simplify) in int64
  // with every +, - and * checked, so that a size past int64 fails instead of wrapping around to
  // a small block.
  llvm::Value* emit_checked_size(const Ref<PrimExpr>& e, const std::string& message) {
    if (e->dtype.is_int() && e->dtype.is_scalar()) {
      if (auto b = e.as<BinaryOp>()) {
        llvm::Intrinsic::ID op = llvm::Intrinsic::not_intrinsic;
        if (b->kind() == ObjectKind::kAdd) op = llvm::Intrinsic::sadd_with_overflow;
        if (b->kind() == ObjectKind::kSub) op = llvm::Intrinsic::ssub_with_overflow;
        if (b->kind() == ObjectKind::kMul) op = llvm::Intrinsic::smul_with_overflow;
        if (op != llvm::Intrinsic::not_intrinsic) {
          return checked_arith(op, emit_checked_size(b->a, message),
                               emit_checked_size(b->b, message), message);
        }
      }
      if (auto c = e.as<Cast>(); c && c->value->dtype.is_int() && c->value->dtype.is_scalar())
        return emit_checked_size(c->value, message);
    }
    return to_i64(emit_expr(e), e->dtype);
  }

  void emit_allocate(const Ref<Allocate>& alloc) {
    DataType element = alloc->dtype.element_of();
    llvm::Type* mem = llvm_type(element, true);
    uint64_t elem_bytes = static_cast<uint64_t>(std::max(1, element.bytes())) *
                          static_cast<uint64_t>(std::max(1, alloc->dtype.lanes()));
    bool is_constant = true;
    uint64_t constant = 1;
    for (const auto& extent : alloc->extents) {
      auto c = as_const_int(extent);
      if (!c || *c < 0 || __builtin_mul_overflow(constant, static_cast<uint64_t>(*c), &constant))
        is_constant = false;
    }
    uint64_t constant_bytes = 0;
    if (is_constant && !__builtin_mul_overflow(constant, elem_bytes, &constant_bytes) &&
        constant_bytes <= kMaxStackBytes) {
      llvm::IRBuilderBase::InsertPoint here = builder_.saveIP();
      llvm::BasicBlock* entry = &current_function()->getEntryBlock();
      builder_.SetInsertPoint(entry, entry->getFirstInsertionPt());
      auto* slot = builder_.CreateAlloca(
          mem, i64(static_cast<int64_t>(std::max<uint64_t>(1, constant))), alloc->buffer_var->name);
      slot->setAlignment(llvm::Align(64));
      builder_.restoreIP(here);
      bind(alloc->buffer_var, slot);
      emit_stmt(alloc->body);
      return;
    }
    // The size in bytes, checked: a negative extent or a product past int64 must fail the
    // kernel, not allocate a small block that the loops then overrun.
    std::string what = "kernel `" + printf_escape(name_) + "`: local buffer `" +
                       printf_escape(alloc->buffer_var->name) + "`";
    std::string overflow = what + " has more bytes than an int64 counts";
    llvm::Value* count = i64(1);
    for (const auto& extent : alloc->extents)
      count = checked_arith(llvm::Intrinsic::smul_with_overflow, count,
                            emit_checked_size(extent, overflow), overflow);
    check(builder_.CreateICmpSGE(count, i64(0)), what + " has a negative size (%lld elements)",
          {count});
    llvm::Value* nbytes = checked_arith(llvm::Intrinsic::smul_with_overflow, count,
                                        i64(static_cast<int64_t>(elem_bytes)), overflow);
    llvm::Value* ptr;
    auto* ptr_ty = builder_.getPtrTy();
    if (in_parallel_) {
      // Worker threads allocate from the C heap: the workspace belongs to the calling thread.
      auto* rounded = builder_.CreateMul(
          builder_.CreateUDiv(builder_.CreateAdd(nbytes, i64(63)), i64(64)), i64(64));
      auto aligned_alloc = libc(
          "aligned_alloc",
          llvm::FunctionType::get(ptr_ty, {builder_.getInt64Ty(), builder_.getInt64Ty()}, false));
      ptr = builder_.CreateCall(aligned_alloc, {i64(64), rounded}, alloc->buffer_var->name);
    } else {
      auto* alloc_type = llvm::FunctionType::get(ptr_ty, {ptr_ty, builder_.getInt64Ty()}, false);
      ptr = builder_.CreateCall(alloc_type, ctx_field(kWorkspaceAlloc), {ctx_, nbytes},
                                alloc->buffer_var->name);
    }
    check(builder_.CreateIsNotNull(ptr),
          "kernel `" + printf_escape(name_) + "`: cannot allocate %lld bytes for local buffer `" +
              printf_escape(alloc->buffer_var->name) + "`",
          {nbytes});
    bind(alloc->buffer_var, ptr);
    heap_buffers_.push_back({ptr, in_parallel_});
    emit_stmt(alloc->body);
    heap_buffers_.pop_back();
    free_heap_buffer({ptr, in_parallel_});
  }

  struct HeapBuffer {
    llvm::Value* ptr;
    bool c_heap;  // allocated with aligned_alloc (in a parallel body), else workspace memory
  };

  void free_heap_buffer(const HeapBuffer& b) {
    auto* ptr_ty = builder_.getPtrTy();
    if (b.c_heap) {
      builder_.CreateCall(
          libc("free", llvm::FunctionType::get(builder_.getVoidTy(), {ptr_ty}, false)), {b.ptr});
    } else {
      auto* free_type = llvm::FunctionType::get(builder_.getVoidTy(), {ptr_ty, ptr_ty}, false);
      builder_.CreateCall(free_type, ctx_field(kWorkspaceFree), {ctx_, b.ptr});
    }
  }

  // ---- Statements ----

  void emit_stmt(const Ref<Stmt>& s) {
    if (!s) return;
    switch (s->kind()) {
      case ObjectKind::kSeqStmt:
        for (const auto& child : s.as<SeqStmt>()->seq) emit_stmt(child);
        return;
      case ObjectKind::kBufferStore:
        emit_store(s.as<BufferStore>());
        return;
      case ObjectKind::kEvaluate: {
        auto e = s.as<Evaluate>();
        if (!e->value.is<IntImm>()) emit_expr(e->value);
        return;
      }
      case ObjectKind::kLetStmt: {
        auto l = s.as<LetStmt>();
        bind(l->var, emit_expr(l->value));
        emit_stmt(l->body);
        return;
      }
      case ObjectKind::kAttrStmt:
        emit_stmt(s.as<AttrStmt>()->body);
        return;
      case ObjectKind::kDeclBuffer:
        emit_stmt(s.as<DeclBuffer>()->body);
        return;
      case ObjectKind::kAllocate:
        emit_allocate(s.as<Allocate>());
        return;
      case ObjectKind::kAssertStmt: {
        auto a = s.as<AssertStmt>();
        std::string message = "kernel `" + name_ + "`: assertion failed";
        if (auto text = a->message.as<StringImm>())
          message = "kernel `" + name_ + "`: " + text->value;
        // A range check (InstrumentBoundCheckers' `lo <= x and x < n`) also reports x's value.
        if (auto x = range_checked_value(a->condition)) {
          llvm::Value* value = to_i64(emit_expr(x), x->dtype);
          check(emit_expr(a->condition), printf_escape(message) + " (it is %lld)", {value});
        } else {
          check(emit_expr(a->condition), printf_escape(message));
        }
        emit_stmt(a->body);
        return;
      }
      case ObjectKind::kIfThenElse:
        emit_if(s.as<IfThenElse>());
        return;
      case ObjectKind::kFor:
        emit_for(s.as<For>());
        return;
      case ObjectKind::kWhile:
        emit_while(s.as<While>());
        return;
      case ObjectKind::kBlock:
      case ObjectKind::kBlockRealize:
        fail("E0705", "a block is left in the function; it must be lowered first", s->span);
      default:
        break;
    }
    fail("E0710",
         "statement of kind " + std::to_string(static_cast<int>(s->kind())) +
             " is not supported by LLVM code generation",
         s->span);
  }

  void emit_if(const Ref<IfThenElse>& s) {
    auto* fn = current_function();
    auto* cond = emit_expr(s->condition);
    auto* then_block = llvm::BasicBlock::Create(context_, "if_then", fn);
    auto* join = llvm::BasicBlock::Create(context_, "if_end", fn);
    llvm::BasicBlock* else_block =
        s->else_case ? llvm::BasicBlock::Create(context_, "if_else", fn) : join;
    builder_.CreateCondBr(cond, then_block, else_block);
    builder_.SetInsertPoint(then_block);
    emit_stmt(s->then_case);
    builder_.CreateBr(join);
    if (s->else_case) {
      builder_.SetInsertPoint(else_block);
      emit_stmt(s->else_case);
      builder_.CreateBr(join);
    }
    builder_.SetInsertPoint(join);
  }

  void emit_while(const Ref<While>& s) {
    auto* fn = current_function();
    auto* head = llvm::BasicBlock::Create(context_, "while_cond", fn);
    auto* body = llvm::BasicBlock::Create(context_, "while_body", fn);
    auto* exit = llvm::BasicBlock::Create(context_, "while_end", fn);
    builder_.CreateBr(head);
    builder_.SetInsertPoint(head);
    builder_.CreateCondBr(emit_expr(s->condition), body, exit);
    builder_.SetInsertPoint(body);
    emit_stmt(s->body);
    builder_.CreateBr(head);
    builder_.SetInsertPoint(exit);
  }

  llvm::MDNode* loop_metadata(ir::tir::ForKind kind) {
    std::vector<llvm::Metadata*> ops;
    auto temp = llvm::MDNode::getTemporary(context_, {});
    ops.push_back(temp.get());
    if (kind == ForKind::kVectorized) {
      ops.push_back(
          llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.vectorize.enable"),
                                       llvm::ConstantAsMetadata::get(builder_.getTrue())}));
    } else if (kind == ForKind::kUnrolled) {
      ops.push_back(
          llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.enable")}));
    } else {
      return nullptr;
    }
    auto* node = llvm::MDNode::getDistinct(context_, ops);
    node->replaceOperandWith(0, node);
    return node;
  }

  // A counted loop for var in [begin, end); the body is emitted by `body`.
  void emit_counted_loop(const Ref<Var>& var, llvm::Value* begin, llvm::Value* end, ForKind kind,
                         const std::function<void()>& body) {
    auto* fn = current_function();
    auto* pre = builder_.GetInsertBlock();
    auto* head = llvm::BasicBlock::Create(context_, "for_head", fn);
    auto* body_block = llvm::BasicBlock::Create(context_, "for_body", fn);
    auto* exit = llvm::BasicBlock::Create(context_, "for_end", fn);
    builder_.CreateBr(head);
    builder_.SetInsertPoint(head);
    auto* phi = builder_.CreatePHI(begin->getType(), 2, var->name);
    phi->addIncoming(begin, pre);
    bool is_signed = !var->dtype.is_uint();
    auto* more = is_signed ? builder_.CreateICmpSLT(phi, end) : builder_.CreateICmpULT(phi, end);
    builder_.CreateCondBr(more, body_block, exit);
    builder_.SetInsertPoint(body_block);
    bind(var, phi);
    body();
    // No unsigned-wrap flag: loops may start below zero.
    auto* next = builder_.CreateAdd(phi, llvm::ConstantInt::get(phi->getType(), 1), "", false,
                                    !var->dtype.is_uint());
    auto* latch = builder_.GetInsertBlock();
    auto* back = builder_.CreateBr(head);
    if (auto* md = loop_metadata(kind)) back->setMetadata(llvm::LLVMContext::MD_loop, md);
    phi->addIncoming(next, latch);
    builder_.SetInsertPoint(exit);
  }

  void emit_for(const Ref<For>& loop) {
    if (loop->for_kind == ForKind::kThreadBinding)
      fail("E0700",
           "loop `" + loop->loop_var->name + "` is bound to a thread, which a CPU cannot run",
           loop->span);
    llvm::Type* t = llvm_type(loop->loop_var->dtype);
    auto* begin = builder_.CreateIntCast(emit_expr(loop->min), t, loop->min->dtype.is_int());
    auto* extent = builder_.CreateIntCast(emit_expr(loop->extent), t, loop->extent->dtype.is_int());
    if (loop->for_kind == ForKind::kParallel && !in_parallel_) {
      emit_parallel_for(loop, begin, extent);
      return;
    }
    auto* end = builder_.CreateAdd(begin, extent);
    emit_counted_loop(loop->loop_var, begin, end, loop->for_kind, [&] { emit_stmt(loop->body); });
  }

  // Outlines the loop body into `kernel.parallelN(begin, end, closure)`, passes the values it
  // uses in a closure on the stack and runs it through ctx->parallel_for over [0, extent).
  void emit_parallel_for(const Ref<For>& loop, llvm::Value* begin, llvm::Value* extent) {
    // The values the body needs from outside: every variable it uses that has a value now.
    std::vector<const Var*> captured;
    std::vector<llvm::Value*> values;
    for (const auto& v : compiler::tir::used_vars(loop->body)) {
      auto it = vars_.find(v.get());
      if (it == vars_.end() || v.get() == loop->loop_var.get()) continue;
      captured.push_back(v.get());
      values.push_back(it->second);
    }
    std::vector<llvm::Type*> field_types = {builder_.getPtrTy(), begin->getType()};
    for (auto* v : values) field_types.push_back(v->getType());
    auto* closure_type = llvm::StructType::get(context_, field_types);

    llvm::IRBuilderBase::InsertPoint here = builder_.saveIP();
    llvm::BasicBlock* entry = &current_function()->getEntryBlock();
    builder_.SetInsertPoint(entry, entry->getFirstInsertionPt());
    auto* closure = builder_.CreateAlloca(closure_type, nullptr, "closure");
    builder_.restoreIP(here);
    builder_.CreateStore(ctx_, builder_.CreateStructGEP(closure_type, closure, 0));
    builder_.CreateStore(begin, builder_.CreateStructGEP(closure_type, closure, 1));
    for (size_t i = 0; i < values.size(); ++i)
      builder_.CreateStore(
          values[i], builder_.CreateStructGEP(closure_type, closure, static_cast<unsigned>(i + 2)));

    auto* body_fn =
        llvm::Function::Create(abi_.body, llvm::Function::InternalLinkage,
                               name_ + ".parallel" + std::to_string(parallel_count_++), module_);
    set_attributes(body_fn);
    auto* parallel_for_type = llvm::FunctionType::get(
        builder_.getInt32Ty(),
        {builder_.getPtrTy(), builder_.getInt64Ty(), builder_.getPtrTy(), builder_.getPtrTy()},
        false);
    auto* status =
        builder_.CreateCall(parallel_for_type, ctx_field(kParallelFor),
                            {ctx_, to_i64(extent, loop->extent->dtype), body_fn, closure});
    llvm::IRBuilderBase::InsertPoint after_call = builder_.saveIP();

    // The body function: unpack the closure, loop over [begin + lo, begin + hi).
    auto saved_vars = vars_;
    llvm::Value* saved_ctx = ctx_;
    llvm::BasicBlock* saved_entry = entry_block_;
    auto* body_entry = llvm::BasicBlock::Create(context_, "entry", body_fn);
    builder_.SetInsertPoint(body_entry);
    entry_block_ = body_entry;
    auto* env = body_fn->getArg(2);
    ctx_ = builder_.CreateLoad(builder_.getPtrTy(), builder_.CreateStructGEP(closure_type, env, 0),
                               "ctx");
    auto* loop_begin =
        builder_.CreateLoad(begin->getType(), builder_.CreateStructGEP(closure_type, env, 1));
    for (size_t i = 0; i < captured.size(); ++i) {
      vars_[captured[i]] = builder_.CreateLoad(
          field_types[i + 2],
          builder_.CreateStructGEP(closure_type, env, static_cast<unsigned>(i + 2)));
    }
    auto* lo = builder_.CreateAdd(
        loop_begin, builder_.CreateIntCast(body_fn->getArg(0), begin->getType(), true));
    auto* hi = builder_.CreateAdd(
        loop_begin, builder_.CreateIntCast(body_fn->getArg(1), begin->getType(), true));
    in_parallel_ = true;
    emit_counted_loop(loop->loop_var, lo, hi, ForKind::kSerial, [&] { emit_stmt(loop->body); });
    in_parallel_ = false;
    builder_.CreateRet(builder_.getInt32(0));

    vars_ = std::move(saved_vars);
    ctx_ = saved_ctx;
    entry_block_ = saved_entry;
    builder_.restoreIP(after_call);
    propagate_status(status);
  }

  llvm::Module& module_;
  llvm::LLVMContext& context_;
  const AbiTypes& abi_;
  const CpuDescription& cpu_;
  llvm::IRBuilder<> builder_;
  std::string name_;
  const PrimFunc& func_;
  const CalleeTable& callees_;
  bool internal_ = false;                 // building f.impl rather than the kernel
  std::vector<HeapBuffer> heap_buffers_;  // local buffers on the heap, innermost last
  llvm::Function* function_ = nullptr;
  llvm::Value* ctx_ = nullptr;
  llvm::BasicBlock* entry_block_ = nullptr;
  bool in_parallel_ = false;
  int parallel_count_ = 0;
  std::unordered_map<const Var*, llvm::Value*> vars_;
  std::map<std::string, llvm::Value*> strings_;
};

bool valid_symbol(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '$')
      return false;
  return true;
}

}  // namespace

std::vector<KernelSource> prim_funcs_of(const ir::IRModule& module) {
  std::vector<KernelSource> out;
  for (const auto& member : module.functions) {
    auto pf = ir::as_prim_func(member.func);
    if (!pf) continue;
    out.push_back(
        {pf->attrs.get_string("global_symbol", member.gvar->name), pf, member.gvar->name});
  }
  return out;
}

std::unique_ptr<llvm::Module> generate_module(llvm::LLVMContext& context,
                                              const std::vector<KernelSource>& funcs,
                                              const Target& target, llvm::TargetMachine& tm,
                                              ir::DiagnosticBag& diags, Timings* timings) {
  auto module = std::make_unique<llvm::Module>("relax_kernels", context);
  module->setDataLayout(tm.createDataLayout());
  module->setTargetTriple(tm.getTargetTriple().str());
  AbiTypes abi(context);
  CpuDescription cpu = describe_cpu(target);
  bool ok = true;
  auto report = [&](const CodegenError& e, const KernelSource& source, const PrimFunc& func) {
    diags.error(e.code, e.span.is_known() ? e.span : func.span,
                "prim_func `" + source.name + "`: " + e.message);
    ok = false;
  };
  // Lowering is idempotent: functions without blocks still get flattened, vectorized and
  // simplified.
  std::vector<Ref<PrimFunc>> lowered(funcs.size());
  CalleeTable callees;
  for (size_t i = 0; i < funcs.size(); ++i) {
    const KernelSource& source = funcs[i];
    if (!valid_symbol(source.name)) {
      diags.error(
          "E0714", source.func ? source.func->span : ir::Span::unknown(),
          "`" + source.name +
              "` cannot be the symbol of a kernel (letters, digits, `_`, `.` and `$` only)");
      ok = false;
      continue;
    }
    {
      StepTimer timer(timings, "TIR lowering");
      lowered[i] = compiler::tir::lower_prim_func(source.func, target, diags, {}, source.name);
    }
    if (!lowered[i]) {
      ok = false;
      continue;
    }
    Callee& callee = callees[source.member.empty() ? source.name : source.member];
    callee.func = lowered[i];
    callee.source = i;
  }
  if (!ok) return nullptr;
  // Functions that other prim_funcs call get an internal function, declared before any body so
  // that calls may go in any order.
  std::vector<std::pair<size_t, llvm::Function*>> internal;
  for (const auto& f : lowered) {
    for (const std::string& name : compiler::tir::called_functions(f->body)) {
      auto it = callees.find(name);
      if (it == callees.end() || it->second.impl) continue;
      size_t index = it->second.source;
      KernelBuilder types(*module, abi, cpu, funcs[index].name, *lowered[index], callees);
      try {
        std::vector<llvm::Type*> params = {llvm::PointerType::getUnqual(context),
                                           llvm::PointerType::getUnqual(context)};
        llvm::IRBuilder<> b(context);
        for (const auto& p : lowered[index]->params)
          params.push_back(
              param_type(b, *lowered[index], p, [&](DataType t) { return types.type_of(t); }));
        it->second.impl = llvm::Function::Create(
            llvm::FunctionType::get(llvm::Type::getInt32Ty(context), params, false),
            llvm::Function::InternalLinkage, funcs[index].name + ".impl", *module);
        internal.emplace_back(index, it->second.impl);
      } catch (const CodegenError& e) {
        report(e, funcs[index], *lowered[index]);
      }
    }
  }
  StepTimer timer(timings, "LLVM IR generation");
  for (size_t i = 0; i < funcs.size(); ++i) {
    try {
      KernelBuilder(*module, abi, cpu, funcs[i].name, *lowered[i], callees).build();
    } catch (const CodegenError& e) {
      report(e, funcs[i], *lowered[i]);
    }
  }
  for (const auto& [index, impl] : internal) {
    try {
      KernelBuilder(*module, abi, cpu, funcs[index].name, *lowered[index], callees)
          .build_internal(impl);
    } catch (const CodegenError& e) {
      report(e, funcs[index], *lowered[index]);
    }
  }
  if (!ok) return nullptr;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (llvm::verifyModule(*module, &os)) {
    diags.error("E0712", ir::Span::unknown(),
                "internal error: the generated LLVM module is invalid: " + os.str());
    return nullptr;
  }
  return module;
}

std::string emit_llvm_ir(const std::vector<KernelSource>& funcs, const Target& target,
                         ir::DiagnosticBag& diags, bool optimize, Timings* timings) {
  auto tm = create_target_machine(target, diags);
  if (!tm) return "";
  llvm::LLVMContext context;
  auto module = generate_module(context, funcs, target, *tm, diags, timings);
  if (!module) return "";
  if (optimize) {
    StepTimer timer(timings, "LLVM optimization");
    optimize_module(*module, *tm);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  return os.str();
}

}  // namespace relax::compiler::codegen
