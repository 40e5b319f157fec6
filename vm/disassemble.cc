// The text form of an executable (`relax build --emit=bytecode`): the opcode table as a
// legend, the function table, the constant pool, then each VM function's instructions, one a
// line. Tests compare this text (golden files, save/load round trips).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "vm/executable.h"
#include "vm/io/summary.h"

namespace relax::vm {

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string constant_text(const Value& c) {
  switch (c.kind()) {
    case ValueKind::kInt:
      return "int     " + std::to_string(c.as_int());
    case ValueKind::kFloat:
      return "float   " + format_scalar(c.as_float());
    case ValueKind::kDType:
      return "dtype   " + dtype_name(c.as_dtype());
    case ValueKind::kString:
      return "string  " + quote(c.as_string()->str());
    case ValueKind::kShape:
      return "shape   " + value_to_string(c);
    case ValueKind::kTensor: {
      const TensorObj& t = *c.as_tensor();
      std::string s = "tensor  " + dtype_name(t.dtype()) + shape_string(t.shape()) + " [";
      int64_t n = t.numel(), shown = std::min<int64_t>(n, 6);
      for (int64_t i = 0; i < shown; ++i) {
        if (i) s += ", ";
        s += format_scalar(load_as_double(t.data(), t.dtype(), i));
      }
      if (shown < n) s += ", ...";
      return s + "]";
    }
    default:
      return describe_value(c);
  }
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s;
}

std::string reg_text(int64_t r) {
  if (r == kVoidRegister) return "%void";
  if (r == kContextRegister) return "%ctx";
  return "%" + std::to_string(r);
}

std::string offset_text(int64_t off) {
  return (off > 0 ? "+" : "") + std::to_string(off);
}

}  // namespace

std::string Executable::arg_text(int64_t word) const {
  int64_t v = arg_value(word);
  switch (arg_kind(word)) {
    case ArgKind::kRegister:
      return reg_text(v);
    case ArgKind::kImmediate:
      return std::to_string(v);
    case ArgKind::kConstant:
      return "c" + std::to_string(v);
    case ArgKind::kFunction:
      if (v >= 0 && v < static_cast<int64_t>(functions.size())) {
        return "@" + functions[static_cast<size_t>(v)].name;
      }
      return "@" + std::to_string(v);
  }
  return "?" + std::to_string(word);
}

std::string Executable::disassemble(const DisassembleOptions& options) const {
  std::ostringstream out;
  out << "; relax executable (format " << kFormatVersion << "): " << functions.size()
      << " functions, " << constants.size() << " constants, " << num_instructions()
      << " instructions\n";
  if (options.legend) {
    out << ";\n; opcodes\n";
    for (const OpcodeInfo& op : kOpcodeTable) {
      std::string name(op.name);
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      out << ";   " << pad(name, 6) << pad(std::string(op.syntax), 22) << op.semantics << "\n";
    }
  }
  out << ";\n; functions\n";
  for (size_t i = 0; i < functions.size(); ++i) {
    const FunctionInfo& fn = functions[i];
    out << ";   " << pad("@" + std::to_string(i), 5) << pad(function_kind_name(fn.kind), 9)
        << fn.name;
    if (fn.kind == FunctionKind::kVMFunction) {
      out << "(";
      for (size_t p = 0; p < fn.param_names.size(); ++p)
        out << (p ? ", " : "") << fn.param_names[p];
      out << ")";
    }
    out << "\n";
    for (size_t p = 0; p < fn.param_info.size(); ++p)
      out << ";" << std::string(17, ' ') << fn.param_names[p] << ": " << fn.param_info[p].text
          << "\n";
  }
  if (!constants.empty()) {
    out << ";\n; constants\n";
    for (size_t i = 0; i < constants.size(); ++i) {
      out << ";   " << pad("c" + std::to_string(i), 5) << constant_text(constants[i]) << "\n";
    }
  }
  for (const FunctionInfo& fn : functions) {
    if (fn.kind != FunctionKind::kVMFunction) continue;
    out << "\nvm " << fn.name << "(";
    for (size_t p = 0; p < fn.param_names.size(); ++p) out << (p ? ", " : "") << fn.param_names[p];
    out << "): " << fn.num_args << (fn.num_args == 1 ? " arg, " : " args, ")
        << fn.register_file_size << (fn.register_file_size == 1 ? " register" : " registers");
    if (!fn.shape_slot_names.empty()) {
      out << ", shape slots [";
      for (size_t s = 0; s < fn.shape_slot_names.size(); ++s) {
        out << (s ? ", " : "") << fn.shape_slot_names[s];
      }
      out << "]";
    }
    out << "\n";
    for (int64_t pc = fn.start_instr; pc < fn.end_instr; ++pc) {
      const int64_t* w = instruction(pc);
      std::string num = std::to_string(pc);
      std::string line = std::string(num.size() < 5 ? 5 - num.size() : 0, ' ') + num + "  ";
      switch (static_cast<Opcode>(w[0])) {
        case Opcode::kCall: {
          line +=
              "call  " + reg_text(w[1]) + " = " + functions[static_cast<size_t>(w[2])].name + "(";
          for (int64_t a = 0; a < w[3]; ++a) line += (a ? ", " : "") + arg_text(w[4 + a]);
          line += ")";
          break;
        }
        case Opcode::kRet:
          line += "ret   " + reg_text(w[1]);
          break;
        case Opcode::kGoto:
          line += pad("goto  " + offset_text(w[1]), 30) + "; -> " + std::to_string(pc + w[1]);
          break;
        case Opcode::kIf:
          line += pad("if    " + reg_text(w[1]) + ", " + offset_text(w[2]), 30) + "; else -> " +
                  std::to_string(pc + w[2]);
          break;
      }
      out << line << "\n";
    }
  }
  return out.str();
}

}  // namespace relax::vm
