// The instruction set: four opcodes (TVM Relax's), everything else is a Call to a named
// builtin or kernel. Instructions are runs of int64 words in one stream:
//
//   word:   0        1        2         3          4 ...
//   Call    opcode   dst      func      num_args   arg[0] ... arg[num_args-1]
//   Ret     opcode   result
//   Goto    opcode   offset
//   If      opcode   cond     false_offset
//
// `dst`, `result` and `cond` are register numbers; `func` indexes the function table; offsets
// count instructions, relative to the current one. Each arg word is tagged:
//
//   bits 63..56  kind: 0 register, 1 immediate int, 2 constant-pool index, 3 function index
//   bits 55..0   value, sign-extended (immediates span ±(2^55 - 1))
//
// Two register numbers are special: kVoidRegister reads as null and discards writes;
// kContextRegister reads as the VM context (builtins that need the VM take it first).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace relax::vm {

// The opcode table: X(name, value, words before the args, operand syntax, semantics). The
// dispatcher, validator and disassembler switch over the enum built from it, so a new row does
// not compile until each of them handles it.
#define RELAX_VM_OPCODES(X)                                                             \
  X(Call, 1, 4, "dst = func(args...)",                                                  \
    "dst <- func(args...); a special dst register discards the result")                 \
  X(Ret, 2, 2, "result", "return register `result` to the caller's dst (or to invoke)") \
  X(Goto, 3, 2, "offset", "pc <- pc + offset")                                          \
  X(If, 4, 3, "cond, false_offset",                                                     \
    "cond must be an int: nonzero -> pc <- pc + 1, zero -> pc <- pc + false_offset")

enum class Opcode : int64_t {
#define RELAX_VM_OPCODE_ENUM(name, value, words, syntax, semantics) k##name = value,
  RELAX_VM_OPCODES(RELAX_VM_OPCODE_ENUM)
#undef RELAX_VM_OPCODE_ENUM
};

struct OpcodeInfo {
  Opcode opcode;
  std::string_view name;       // "call"
  int fixed_words;             // words before the variadic args (opcode included)
  std::string_view syntax;     // operand syntax, as the disassembler prints it
  std::string_view semantics;  // one line, as in the table above
};

inline constexpr std::array kOpcodeTable = {
#define RELAX_VM_OPCODE_INFO(name, value, words, syntax, semantics) \
  OpcodeInfo{Opcode::k##name, #name, words, syntax, semantics},
    RELAX_VM_OPCODES(RELAX_VM_OPCODE_INFO)
#undef RELAX_VM_OPCODE_INFO
};

// The table row of an opcode word, or null for an unknown opcode.
inline const OpcodeInfo* opcode_info(int64_t word) {
  for (const auto& info : kOpcodeTable) {
    if (static_cast<int64_t>(info.opcode) == word) return &info;
  }
  return nullptr;
}

inline constexpr int64_t kVoidRegister = int64_t{1} << 54;
inline constexpr int64_t kContextRegister = kVoidRegister + 1;
inline constexpr bool is_special_register(int64_t r) {
  return r >= kVoidRegister;
}

enum class ArgKind : uint8_t { kRegister = 0, kImmediate = 1, kConstant = 2, kFunction = 3 };

inline constexpr int kArgValueBits = 56;
inline constexpr int64_t kMaxImmediate = (int64_t{1} << (kArgValueBits - 1)) - 1;

struct Arg {
  ArgKind kind = ArgKind::kRegister;
  int64_t value = 0;

  static constexpr Arg reg(int64_t r) { return {ArgKind::kRegister, r}; }
  static constexpr Arg imm(int64_t v) { return {ArgKind::kImmediate, v}; }
  static constexpr Arg constant(int64_t index) { return {ArgKind::kConstant, index}; }
  static constexpr Arg func(int64_t index) { return {ArgKind::kFunction, index}; }
  static constexpr Arg void_reg() { return reg(kVoidRegister); }
  static constexpr Arg context() { return reg(kContextRegister); }

  constexpr int64_t encode() const {
    uint64_t v = static_cast<uint64_t>(value) & ((uint64_t{1} << kArgValueBits) - 1);
    return static_cast<int64_t>(static_cast<uint64_t>(kind) << kArgValueBits | v);
  }
  static constexpr Arg decode(int64_t word) {
    auto kind = static_cast<ArgKind>(static_cast<uint64_t>(word) >> kArgValueBits);
    int64_t value = static_cast<int64_t>(static_cast<uint64_t>(word) << 8) >> 8;
    return {kind, value};
  }
  constexpr bool operator==(const Arg&) const = default;
};

inline constexpr ArgKind arg_kind(int64_t word) {
  return static_cast<ArgKind>(static_cast<uint64_t>(word) >> kArgValueBits);
}
inline constexpr int64_t arg_value(int64_t word) {
  return static_cast<int64_t>(static_cast<uint64_t>(word) << 8) >> 8;
}

static_assert(Arg::decode(Arg::imm(-5).encode()) == Arg::imm(-5));
static_assert(Arg::decode(Arg::reg(kVoidRegister).encode()) == Arg::reg(kVoidRegister));
static_assert(Arg::decode(Arg::imm(kMaxImmediate).encode()) == Arg::imm(kMaxImmediate));

}  // namespace relax::vm
