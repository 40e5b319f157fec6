// The executable: what the compiler produces and the VM runs. A function table (VM functions
// with their bytecode ranges, and kernels / extern functions / builtins resolved by name when a
// VM is created), a constant pool, and one instruction stream (bytecode.h). It validates,
// serializes to bytes (the blob a model library embeds) and disassembles to text
// (`relax build --emit=bytecode`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vm/bytecode.h"
#include "vm/result.h"
#include "vm/value.h"

namespace relax::vm {

enum class FunctionKind : uint8_t {
  kVMFunction = 0,  // bytecode in this executable
  kKernel = 1,      // a compiled kernel in the model library
  kExtern = 2,      // a user function (R.call_dps_packed / R.call_packed) in a loaded library
  kBuiltin = 3,     // a runtime builtin (vm.builtin.*)
};
const char* function_kind_name(FunctionKind kind);  // "vm", "kernel", "extern", "builtin"

// What a VM function requires of one parameter: its struct info, carried by the executable so
// that tools can make inputs and explain them without the source (`relax run model.so --random`).
// Each dimension is a shape program (shape_program.h) over the function's shape-heap slots, whose
// names (FunctionInfo::shape_slot_names) are the symbolic variables.
struct ParamInfo {
  enum class Kind : uint8_t {
    kObject = 0,  // anything (R.Object)
    kTensor = 1,
    kShape = 2,
    kPrim = 3,
    kTuple = 4,
    kCallable = 5,
  };
  struct Dim {
    std::string text;              // "n - 2", "4"
    std::vector<int64_t> program;  // empty when the VM cannot compute it
  };
  Kind kind = Kind::kObject;
  std::string text;               // the struct info as TVMScript: R.Tensor((n, 4), dtype="float32")
  std::string dtype;              // tensors and prims; empty when unknown
  int32_t ndim = -1;              // tensors and shapes; -1 when unknown
  std::vector<Dim> dims;          // tensors and shapes whose dims are known; a prim's known value
  std::vector<ParamInfo> fields;  // tuples
};
// Tuples in parameter struct info nest at most this deep (deeper ones are recorded as kObject).
inline constexpr int kMaxParamInfoDepth = 32;

struct FunctionInfo {
  FunctionKind kind = FunctionKind::kVMFunction;
  std::string name;
  // VM functions only: the instructions [start_instr, end_instr), the parameter count and
  // names (arguments arrive in registers 0..num_args-1) and the register file size.
  int64_t start_instr = 0;
  int64_t end_instr = 0;
  int32_t num_args = 0;
  int32_t register_file_size = 0;
  std::vector<std::string> param_names;
  // The variable each register holds, where codegen named it (validation messages); not saved.
  std::vector<std::string> register_names;
  // What each slot of the function's shape heap holds ("n", "k + 1"), for error messages.
  std::vector<std::string> shape_slot_names;
  // VM functions: one per parameter, or none (an executable built by hand).
  std::vector<ParamInfo> param_info;
};

struct DisassembleOptions {
  bool legend = true;  // the opcode table as a comment block
};

class Executable {
 public:
  // Format of save(): the magic number, then this version.
  static constexpr uint64_t kMagic = 0x0158454D56584C52;  // "RLXVMEX\x01"
  // Version 2 added the parameter struct info; older files are refused with a clear error.
  static constexpr uint32_t kFormatVersion = 2;

  std::vector<FunctionInfo> functions;
  // Host values: int, float, dtype, string, shape or CPU tensor.
  std::vector<Value> constants;
  std::vector<int64_t> instr_data;
  // Start of each instruction in instr_data (computed by finalize()).
  std::vector<int64_t> instr_offset;

  // Computes instr_offset and the name index, then validates. Builders and the loader call it;
  // a VM accepts only finalized executables.
  Status finalize();
  bool finalized() const { return finalized_; }

  std::optional<int64_t> find_function(std::string_view name) const;
  int64_t num_instructions() const { return static_cast<int64_t>(instr_offset.size()); }
  const int64_t* instruction(int64_t i) const { return instr_data.data() + instr_offset[i]; }

  std::vector<uint8_t> save() const;
  static Result<std::shared_ptr<Executable>> load(std::span<const uint8_t> bytes);
  Status save_file(const std::string& path) const;
  static Result<std::shared_ptr<Executable>> load_file(const std::string& path);

  std::string disassemble(const DisassembleOptions& options = {}) const;
  // One argument word as the disassembler prints it: %3, %void, %ctx, 42, c1, @name.
  std::string arg_text(int64_t word) const;

 private:
  Status validate() const;
  // Looked up by string_view without building a string (heterogeneous lookup).
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, int64_t, NameHash, std::equal_to<>> index_;
  bool finalized_ = false;
};

// Builds an executable: the compiler's codegen declares functions, emits each VM function's
// instructions between begin_function and end_function, patches jump offsets, and calls
// finish(), which validates. Misuse (emitting outside a function, an unknown name) is recorded
// and reported by finish().
class ExecutableBuilder {
 public:
  ExecutableBuilder();

  // Declaring a name again returns its index (the kinds must agree).
  int64_t declare_function(const std::string& name, std::vector<std::string> param_names);
  int64_t declare_kernel(const std::string& name);
  int64_t declare_extern(const std::string& name);
  int64_t declare_builtin(const std::string& name);
  std::optional<int64_t> function_index(std::string_view name) const;

  // Starts the body of a declared VM function; registers 0..num_args-1 hold the arguments.
  void begin_function(const std::string& name);
  // A fresh register in the current function (after the arguments and any used so far).
  int64_t new_register();
  // Names register `r` of the current function after the variable it holds (messages only).
  void name_register(int64_t r, const std::string& name);
  // The shape heap's slot names of the current function (error messages).
  void set_shape_slot_names(std::vector<std::string> names);
  // The struct info of the current function's parameters (one each).
  void set_param_info(std::vector<ParamInfo> info);
  // Each returns the index of the emitted instruction.
  int64_t emit_call(int64_t func, std::span<const Arg> args, int64_t dst = kVoidRegister);
  int64_t emit_call(int64_t func, std::initializer_list<Arg> args, int64_t dst = kVoidRegister) {
    return emit_call(func, std::span<const Arg>(args.begin(), args.size()), dst);
  }
  // A call by name: a builtin if the name starts with "vm.builtin.", else an already declared
  // function.
  int64_t emit_call(const std::string& callee, std::initializer_list<Arg> args,
                    int64_t dst = kVoidRegister);
  int64_t emit_ret(int64_t reg);
  int64_t emit_goto(int64_t offset = 0);
  int64_t emit_if(int64_t cond_reg, int64_t false_offset = 0);
  // Sets the offset of a Goto, or the false offset of an If, so that it lands on `target`.
  void patch_target(int64_t instr, int64_t target);
  // The index the next emitted instruction will have (a jump target).
  int64_t next_instr() const;
  void end_function();

  // Constant arguments, deduplicated (tensors by identity, everything else by value).
  Arg constant(const Value& value);
  // An immediate when it fits in 56 bits, else a constant.
  Arg int_arg(int64_t v);
  Arg string_arg(const std::string& s) { return constant(Value(s)); }
  Arg float_arg(double v) { return constant(Value(v)); }
  Arg dtype_arg(DLDataType t) { return constant(Value(t)); }
  Arg shape_arg(std::vector<int64_t> dims) { return constant(Value::shape(std::move(dims))); }
  Arg func_arg(const std::string& name);

  // Validates and returns the executable; the builder is empty afterwards.
  Result<std::shared_ptr<Executable>> finish();

 private:
  int64_t declare(const std::string& name, FunctionKind kind);
  int64_t emit(std::initializer_list<int64_t> words, std::span<const Arg> args = {});
  void fail(const std::string& message);
  void note_register(int64_t r);

  std::shared_ptr<Executable> exe_;
  std::unordered_map<std::string, int64_t> functions_;
  std::unordered_map<std::string, int64_t> constants_;
  int64_t current_ = -1;  // function being emitted
  int64_t max_register_ = -1;
  std::string error_;
};

}  // namespace relax::vm
