// The executable's structure checks (finalize/validate) and the builder the compiler uses.
//
// validate() guarantees what the interpreter then relies on without checking again:
//   1. every instruction decodes within the stream and has a known opcode;
//   2. function names are unique; VM functions cover disjoint, non-empty instruction ranges,
//      have param_names for every argument and at least num_args registers;
//   3. every register operand is below the function's register file size or special, every
//      constant and function index is in range, and a call of a VM function passes exactly its
//      parameter count;
//   4. jumps land inside their own function and a function cannot fall off its end (its last
//      instruction is Ret or Goto);
//   5. every register read is an argument or written on every path before it, and not killed
//      (`vm.builtin.kill`) on any path since (must-define dataflow over the function's basic
//      blocks, where a kill undefines its register);
//   6. constants are ints, floats, dtypes, strings, shapes or CPU tensors;
//   7. parameter struct info, where present, has one entry per parameter, known kinds, bounded
//      nesting and well-formed dimension programs over the function's shape-heap slots.
#include "vm/executable.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "vm/shape_program.h"

namespace relax::vm {

const char* function_kind_name(FunctionKind kind) {
  switch (kind) {
    case FunctionKind::kVMFunction:
      return "vm";
    case FunctionKind::kKernel:
      return "kernel";
    case FunctionKind::kExtern:
      return "extern";
    case FunctionKind::kBuiltin:
      return "builtin";
  }
  return "?";
}

// Register files beyond this are rejected (a corrupt file must not make the VM reserve
// gigabytes per call).
static constexpr int32_t kMaxRegisters = 1 << 24;

Status Executable::finalize() {
  finalized_ = false;
  instr_offset.clear();
  size_t n = instr_data.size();
  for (size_t p = 0; p < n;) {
    const OpcodeInfo* info = opcode_info(instr_data[p]);
    if (!info) {
      return Error{"instruction " + std::to_string(instr_offset.size()) + " (word " +
                   std::to_string(p) + "): unknown opcode " + std::to_string(instr_data[p])};
    }
    size_t fixed = static_cast<size_t>(info->fixed_words);
    if (n - p < fixed) {
      return Error{"instruction " + std::to_string(instr_offset.size()) +
                   " is cut off at the end of the code"};
    }
    size_t len = fixed;
    if (info->opcode == Opcode::kCall) {
      int64_t nargs = instr_data[p + 3];
      if (nargs < 0 || static_cast<uint64_t>(nargs) > n - p - fixed) {
        return Error{"instruction " + std::to_string(instr_offset.size()) + ": argument count " +
                     std::to_string(nargs) + " exceeds the code"};
      }
      len += static_cast<size_t>(nargs);
    }
    instr_offset.push_back(static_cast<int64_t>(p));
    p += len;
  }
  index_.clear();
  for (size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].name.empty()) return Error{"function " + std::to_string(i) + " has no name"};
    if (!index_.emplace(functions[i].name, static_cast<int64_t>(i)).second) {
      return Error{"function `" + functions[i].name + "` is declared twice"};
    }
  }
  if (Status s = validate(); !s) return s;
  finalized_ = true;
  return {};
}

std::optional<int64_t> Executable::find_function(std::string_view name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

namespace {

class FunctionChecker {
 public:
  FunctionChecker(const Executable& exe, const FunctionInfo& fn) : exe_(exe), fn_(fn) {}

  Status check() {
    for (int64_t pc = fn_.start_instr; pc < fn_.end_instr; ++pc) {
      if (Status s = check_operands(pc); !s) return s;
    }
    const int64_t* last = exe_.instruction(fn_.end_instr - 1);
    if (last[0] != static_cast<int64_t>(Opcode::kRet) &&
        last[0] != static_cast<int64_t>(Opcode::kGoto)) {
      return fail(fn_.end_instr - 1, "the function's last instruction must be ret or goto");
    }
    return check_definitions();
  }

 private:
  Status fail(int64_t pc, const std::string& what) const {
    return Error{"function `" + fn_.name + "`, instruction " + std::to_string(pc) + ": " + what};
  }
  bool valid_register(int64_t r) const {
    return (r >= 0 && r < fn_.register_file_size) || r == kVoidRegister || r == kContextRegister;
  }
  Status check_register(int64_t pc, int64_t r, const char* role) const {
    if (valid_register(r)) return {};
    return fail(pc, std::string(role) + " register " + std::to_string(r) +
                        " is outside the register file (" + std::to_string(fn_.register_file_size) +
                        " registers)");
  }
  Status check_target(int64_t pc, int64_t offset) const {
    int64_t target = pc + offset;
    if (offset == 0 || target < fn_.start_instr || target >= fn_.end_instr) {
      return fail(pc, "jump offset " + std::to_string(offset) + " leaves the function");
    }
    return {};
  }

  Status check_operands(int64_t pc) const {
    const int64_t* w = exe_.instruction(pc);
    switch (static_cast<Opcode>(w[0])) {
      case Opcode::kCall: {
        if (Status s = check_register(pc, w[1], "destination"); !s) return s;
        int64_t f = w[2], nargs = w[3];
        if (f < 0 || f >= static_cast<int64_t>(exe_.functions.size())) {
          return fail(pc, "function index " + std::to_string(f) + " is out of range");
        }
        const FunctionInfo& callee = exe_.functions[static_cast<size_t>(f)];
        if (callee.kind == FunctionKind::kVMFunction && nargs != callee.num_args) {
          return fail(pc, "`" + callee.name + "` takes " + std::to_string(callee.num_args) +
                              " arguments but the call passes " + std::to_string(nargs));
        }
        for (int64_t i = 0; i < nargs; ++i) {
          int64_t word = w[4 + i];
          int64_t v = arg_value(word);
          switch (arg_kind(word)) {
            case ArgKind::kRegister:
              if (Status s = check_register(pc, v, "argument"); !s) return s;
              break;
            case ArgKind::kImmediate:
              break;
            case ArgKind::kConstant:
              if (v < 0 || v >= static_cast<int64_t>(exe_.constants.size())) {
                return fail(pc, "constant index " + std::to_string(v) + " is out of range");
              }
              break;
            case ArgKind::kFunction:
              if (v < 0 || v >= static_cast<int64_t>(exe_.functions.size())) {
                return fail(pc, "function index " + std::to_string(v) + " is out of range");
              }
              break;
            default:
              return fail(pc, "argument " + std::to_string(i) + " has an unknown kind " +
                                  std::to_string(static_cast<int>(arg_kind(word))));
          }
        }
        return {};
      }
      case Opcode::kRet:
        return check_register(pc, w[1], "result");
      case Opcode::kGoto:
        return check_target(pc, w[1]);
      case Opcode::kIf: {
        if (Status s = check_register(pc, w[1], "condition"); !s) return s;
        return check_target(pc, w[2]);
      }
    }
    return fail(pc, "unknown opcode");
  }

  // Successors of an instruction within the function.
  void successors(int64_t pc, std::vector<int64_t>& out) const {
    out.clear();
    const int64_t* w = exe_.instruction(pc);
    switch (static_cast<Opcode>(w[0])) {
      case Opcode::kCall:
        out.push_back(pc + 1);
        break;
      case Opcode::kRet:
        break;
      case Opcode::kGoto:
        out.push_back(pc + w[1]);
        break;
      case Opcode::kIf:
        out.push_back(pc + 1);
        out.push_back(pc + w[2]);
        break;
    }
  }

  // Registers an instruction reads; calls `f(register)` for each ordinary one.
  template <class F>
  void reads(int64_t pc, F&& f) const {
    const int64_t* w = exe_.instruction(pc);
    switch (static_cast<Opcode>(w[0])) {
      case Opcode::kCall:
        for (int64_t i = 0; i < w[3]; ++i) {
          if (arg_kind(w[4 + i]) == ArgKind::kRegister) f(arg_value(w[4 + i]));
        }
        break;
      case Opcode::kRet:
      case Opcode::kIf:
        f(w[1]);
        break;
      case Opcode::kGoto:
        break;
    }
  }

  // A call of the builtin vm.builtin.kill: it releases (nulls) its destination register.
  bool is_kill(const int64_t* w) const {
    if (static_cast<Opcode>(w[0]) != Opcode::kCall) return false;
    const FunctionInfo& callee = exe_.functions[static_cast<size_t>(w[2])];
    return callee.kind == FunctionKind::kBuiltin && callee.name == "vm.builtin.kill";
  }
  std::string register_text(int64_t r) const {
    std::string text = "register %" + std::to_string(r);
    const std::string* name = nullptr;
    if (r < fn_.num_args) name = &fn_.param_names[static_cast<size_t>(r)];
    if (static_cast<size_t>(r) < fn_.register_names.size() &&
        !fn_.register_names[static_cast<size_t>(r)].empty())
      name = &fn_.register_names[static_cast<size_t>(r)];
    if (name && !name->empty()) text += " (`" + *name + "`)";
    return text;
  }
  // The last kill of `r` before `pc` in its basic block [from, pc), or -1.
  int64_t kill_before(int64_t from, int64_t pc, int64_t r) const {
    for (int64_t k = pc - 1; k >= from; --k) {
      const int64_t* w = exe_.instruction(k);
      if (static_cast<Opcode>(w[0]) == Opcode::kCall && w[1] == r) return is_kill(w) ? k : -1;
    }
    return -1;
  }

  Status check_definitions() const {
    int64_t start = fn_.start_instr, end = fn_.end_instr, n = end - start;
    int64_t nregs = fn_.register_file_size;
    // Basic blocks: leaders are the entry, jump targets and instructions after a jump or ret.
    std::vector<char> leader(static_cast<size_t>(n) + 1, 0);
    leader[0] = 1;
    std::vector<int64_t> succ;
    for (int64_t pc = start; pc < end; ++pc) {
      if (static_cast<Opcode>(exe_.instruction(pc)[0]) == Opcode::kCall) continue;
      successors(pc, succ);
      for (int64_t s : succ) leader[static_cast<size_t>(s - start)] = 1;
      leader[static_cast<size_t>(pc + 1 - start)] = 1;
    }
    std::vector<int64_t> block_of(static_cast<size_t>(n)), block_start;
    for (int64_t i = 0; i < n; ++i) {
      if (leader[static_cast<size_t>(i)]) block_start.push_back(start + i);
      block_of[static_cast<size_t>(i)] = static_cast<int64_t>(block_start.size()) - 1;
    }
    size_t nblocks = block_start.size();
    auto block_end = [&](size_t b) { return b + 1 < nblocks ? block_start[b + 1] : end; };

    // Reachable blocks and the reachable predecessors of each.
    std::vector<char> reached(nblocks, 0);
    std::vector<std::vector<size_t>> preds(nblocks);
    {
      std::vector<size_t> work{0};
      reached[0] = 1;
      while (!work.empty()) {
        size_t b = work.back();
        work.pop_back();
        successors(block_end(b) - 1, succ);
        for (int64_t s : succ) {
          size_t sb = static_cast<size_t>(block_of[static_cast<size_t>(s - start)]);
          preds[sb].push_back(b);
          if (!reached[sb]) {
            reached[sb] = 1;
            work.push_back(sb);
          }
        }
      }
    }
    auto key = [&](size_t b, int64_t r) {
      return static_cast<uint64_t>(b) * static_cast<uint64_t>(nregs) + static_cast<uint64_t>(r);
    };
    // What each block leaves in the registers it writes or kills: true when its last such
    // instruction writes the register, false when it kills it.
    std::unordered_map<uint64_t, bool> exit_state;
    for (size_t b = 0; b < nblocks; ++b) {
      if (!reached[b]) continue;
      for (int64_t pc = block_start[b]; pc < block_end(b); ++pc) {
        const int64_t* w = exe_.instruction(pc);
        if (static_cast<Opcode>(w[0]) != Opcode::kCall || is_special_register(w[1])) continue;
        exit_state[key(b, w[1])] = !is_kill(w);
      }
    }
    // Whether `r` is written on every path into block `b`: the predecessors are searched
    // backwards until each path meets a write (fine), a kill or the function's entry without `r`
    // as a parameter (not fine). Blocks found fine for a register are remembered, so the
    // searches of one register visit each block once: the work is the size of the registers'
    // live ranges, not blocks times registers. A failed search ends the check.
    std::unordered_set<uint64_t> fine;
    std::vector<size_t> todo;
    auto defined_on_entry = [&](size_t b, int64_t r) {
      if (!fine.insert(key(b, r)).second) return true;
      todo.assign(1, b);
      while (!todo.empty()) {
        size_t x = todo.back();
        todo.pop_back();
        if (x == 0 && r >= fn_.num_args) return false;
        for (size_t p : preds[x]) {
          if (auto e = exit_state.find(key(p, r)); e != exit_state.end()) {
            if (!e->second) return false;
            continue;
          }
          if (fine.insert(key(p, r)).second) todo.push_back(p);
        }
      }
      return true;
    };
    // Whether a path to `pc` (in block `b`) kills `r` after its last write: only to word the
    // error (a read after a kill, or of a register never written).
    auto may_be_killed = [&](size_t b, int64_t pc, int64_t r) {
      std::vector<char> seen(nblocks, 0);
      std::vector<std::pair<size_t, int64_t>> todo{{b, pc}};  // (block, search below this pc)
      while (!todo.empty()) {
        auto [blk, below] = todo.back();
        todo.pop_back();
        bool written = false;
        for (int64_t k = below - 1; k >= block_start[blk] && !written; --k) {
          const int64_t* w = exe_.instruction(k);
          if (static_cast<Opcode>(w[0]) != Opcode::kCall || w[1] != r) continue;
          if (is_kill(w)) return true;
          written = true;
        }
        if (written) continue;
        std::vector<int64_t> next;
        for (size_t p = 0; p < nblocks; ++p) {
          if (seen[p] || !reached[p]) continue;
          successors(block_end(p) - 1, next);
          if (std::find(next.begin(), next.end(), block_start[blk]) == next.end()) continue;
          seen[p] = 1;
          todo.emplace_back(p, block_end(p));
        }
      }
      return false;
    };
    std::unordered_map<int64_t, bool> local;  // written (true) or killed so far in the block
    for (size_t b = 0; b < nblocks; ++b) {
      if (!reached[b]) continue;
      local.clear();
      for (int64_t pc = block_start[b]; pc < block_end(b); ++pc) {
        int64_t bad = -1;
        reads(pc, [&](int64_t r) {
          if (bad >= 0 || is_special_register(r)) return;
          auto it = local.find(r);
          if (!(it != local.end() ? it->second : defined_on_entry(b, r))) bad = r;
        });
        if (bad >= 0) {
          if (!may_be_killed(b, pc, bad))
            return fail(pc, register_text(bad) + " is read before it is written");
          int64_t k = kill_before(block_start[b], pc, bad);
          return fail(pc, register_text(bad) + " is read after " +
                              (k >= 0 ? "instruction " + std::to_string(k) : "a vm.builtin.kill") +
                              " killed it");
        }
        const int64_t* w = exe_.instruction(pc);
        if (static_cast<Opcode>(w[0]) == Opcode::kCall && !is_special_register(w[1]))
          local[w[1]] = !is_kill(w);
      }
    }
    return {};
  }

  const Executable& exe_;
  const FunctionInfo& fn_;
};

}  // namespace

// A parameter's struct info: known kinds, nesting within bounds, well-formed dim programs over
// the function's heap slots.
static std::string check_param_info(const ParamInfo& p, int64_t heap_size, int depth) {
  if (depth > kMaxParamInfoDepth) return "parameter struct info nests too deep";
  if (static_cast<uint8_t>(p.kind) > static_cast<uint8_t>(ParamInfo::Kind::kCallable)) {
    return "parameter struct info has an unknown kind " + std::to_string(static_cast<int>(p.kind));
  }
  for (const ParamInfo::Dim& d : p.dims) {
    if (d.program.empty()) continue;
    std::string problem = check_shape_program(d.program, heap_size);
    if (!problem.empty()) return "dimension `" + d.text + "`: " + problem;
  }
  for (const ParamInfo& f : p.fields) {
    std::string problem = check_param_info(f, heap_size, depth + 1);
    if (!problem.empty()) return problem;
  }
  return "";
}

Status Executable::validate() const {
  int64_t ninstr = num_instructions();
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const FunctionInfo& fn : functions) {
    auto fail = [&](const std::string& what) {
      return Status(Error{"function `" + fn.name + "`: " + what});
    };
    if (static_cast<uint8_t>(fn.kind) > static_cast<uint8_t>(FunctionKind::kBuiltin)) {
      return fail("unknown kind " + std::to_string(static_cast<int>(fn.kind)));
    }
    if (fn.kind != FunctionKind::kVMFunction) {
      if (!fn.param_info.empty())
        return fail("parameter struct info on a " + std::string(function_kind_name(fn.kind)));
      continue;
    }
    if (fn.start_instr < 0 || fn.start_instr >= fn.end_instr || fn.end_instr > ninstr) {
      return fail("instruction range [" + std::to_string(fn.start_instr) + ", " +
                  std::to_string(fn.end_instr) + ") is empty or outside the code (" +
                  std::to_string(ninstr) + " instructions)");
    }
    if (fn.num_args < 0 || static_cast<size_t>(fn.num_args) != fn.param_names.size()) {
      return fail(std::to_string(fn.num_args) + " arguments but " +
                  std::to_string(fn.param_names.size()) + " parameter names");
    }
    if (fn.register_file_size < fn.num_args || fn.register_file_size > kMaxRegisters) {
      return fail("register file size " + std::to_string(fn.register_file_size) +
                  " is invalid for " + std::to_string(fn.num_args) + " arguments");
    }
    if (!fn.param_info.empty() && fn.param_info.size() != fn.param_names.size()) {
      return fail(std::to_string(fn.param_info.size()) + " parameter struct infos for " +
                  std::to_string(fn.num_args) + " parameters");
    }
    for (size_t p = 0; p < fn.param_info.size(); ++p) {
      std::string problem =
          check_param_info(fn.param_info[p], static_cast<int64_t>(fn.shape_slot_names.size()), 0);
      if (!problem.empty()) return fail("parameter `" + fn.param_names[p] + "`: " + problem);
    }
    ranges.emplace_back(fn.start_instr, fn.end_instr);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    if (ranges[i].first < ranges[i - 1].second) {
      return Error{"functions overlap at instruction " + std::to_string(ranges[i].first)};
    }
  }
  for (size_t i = 0; i < constants.size(); ++i) {
    const Value& c = constants[i];
    switch (c.kind()) {
      case ValueKind::kInt:
      case ValueKind::kFloat:
      case ValueKind::kDType:
      case ValueKind::kString:
      case ValueKind::kShape:
        break;
      case ValueKind::kTensor:
        if (c.as_tensor()->device().device_type == kDLCPU) break;
        [[fallthrough]];
      default:
        return Error{"constant " + std::to_string(i) + " is " + describe_value(c) +
                     ", which a constant pool cannot hold"};
    }
  }
  for (const FunctionInfo& fn : functions) {
    if (fn.kind != FunctionKind::kVMFunction) continue;
    if (Status s = FunctionChecker(*this, fn).check(); !s) return s;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// ExecutableBuilder

ExecutableBuilder::ExecutableBuilder() : exe_(std::make_shared<Executable>()) {}

void ExecutableBuilder::fail(const std::string& message) {
  if (error_.empty()) error_ = message;
}

int64_t ExecutableBuilder::declare(const std::string& name, FunctionKind kind) {
  if (auto it = functions_.find(name); it != functions_.end()) {
    if (exe_->functions[static_cast<size_t>(it->second)].kind != kind) {
      fail("`" + name + "` is declared as both " +
           function_kind_name(exe_->functions[static_cast<size_t>(it->second)].kind) + " and " +
           function_kind_name(kind));
    }
    return it->second;
  }
  FunctionInfo fn;
  fn.kind = kind;
  fn.name = name;
  exe_->functions.push_back(std::move(fn));
  int64_t index = static_cast<int64_t>(exe_->functions.size()) - 1;
  functions_.emplace(name, index);
  return index;
}

int64_t ExecutableBuilder::declare_function(const std::string& name,
                                            std::vector<std::string> param_names) {
  int64_t f = declare(name, FunctionKind::kVMFunction);
  auto& fn = exe_->functions[static_cast<size_t>(f)];
  fn.num_args = static_cast<int32_t>(param_names.size());
  fn.param_names = std::move(param_names);
  return f;
}
int64_t ExecutableBuilder::declare_kernel(const std::string& name) {
  return declare(name, FunctionKind::kKernel);
}
int64_t ExecutableBuilder::declare_extern(const std::string& name) {
  return declare(name, FunctionKind::kExtern);
}
int64_t ExecutableBuilder::declare_builtin(const std::string& name) {
  return declare(name, FunctionKind::kBuiltin);
}

std::optional<int64_t> ExecutableBuilder::function_index(std::string_view name) const {
  auto it = functions_.find(std::string(name));
  if (it == functions_.end()) return std::nullopt;
  return it->second;
}

void ExecutableBuilder::begin_function(const std::string& name) {
  if (current_ >= 0) fail("begin_function(`" + name + "`) inside another function");
  auto f = function_index(name);
  if (!f || exe_->functions[static_cast<size_t>(*f)].kind != FunctionKind::kVMFunction) {
    fail("begin_function(`" + name + "`): not a declared VM function");
    return;
  }
  current_ = *f;
  auto& fn = exe_->functions[static_cast<size_t>(current_)];
  fn.start_instr = next_instr();
  max_register_ = fn.num_args - 1;
}

int64_t ExecutableBuilder::new_register() {
  if (current_ < 0) {
    fail("new_register outside a function");
    return 0;
  }
  return ++max_register_;
}

void ExecutableBuilder::name_register(int64_t r, const std::string& name) {
  if (current_ < 0 || r < 0 || is_special_register(r)) return;
  auto& names = exe_->functions[static_cast<size_t>(current_)].register_names;
  if (names.size() <= static_cast<size_t>(r)) names.resize(static_cast<size_t>(r) + 1);
  if (names[static_cast<size_t>(r)].empty()) names[static_cast<size_t>(r)] = name;
}

void ExecutableBuilder::set_shape_slot_names(std::vector<std::string> names) {
  if (current_ < 0) return fail("set_shape_slot_names outside a function");
  exe_->functions[static_cast<size_t>(current_)].shape_slot_names = std::move(names);
}

void ExecutableBuilder::set_param_info(std::vector<ParamInfo> info) {
  if (current_ < 0) return fail("set_param_info outside a function");
  exe_->functions[static_cast<size_t>(current_)].param_info = std::move(info);
}

void ExecutableBuilder::note_register(int64_t r) {
  if (!is_special_register(r) && r > max_register_) max_register_ = r;
}

int64_t ExecutableBuilder::next_instr() const {
  return static_cast<int64_t>(exe_->instr_offset.size());
}

int64_t ExecutableBuilder::emit(std::initializer_list<int64_t> words, std::span<const Arg> args) {
  if (current_ < 0) fail("an instruction emitted outside a function");
  int64_t index = next_instr();
  exe_->instr_offset.push_back(static_cast<int64_t>(exe_->instr_data.size()));
  exe_->instr_data.insert(exe_->instr_data.end(), words);
  for (const Arg& a : args) exe_->instr_data.push_back(a.encode());
  return index;
}

int64_t ExecutableBuilder::emit_call(int64_t func, std::span<const Arg> args, int64_t dst) {
  note_register(dst);
  for (const Arg& a : args) {
    if (a.kind == ArgKind::kRegister) note_register(a.value);
    if (a.kind == ArgKind::kImmediate && (a.value > kMaxImmediate || a.value < -kMaxImmediate)) {
      fail("immediate " + std::to_string(a.value) + " does not fit in 56 bits (use int_arg)");
    }
  }
  return emit({static_cast<int64_t>(Opcode::kCall), dst, func, static_cast<int64_t>(args.size())},
              args);
}

int64_t ExecutableBuilder::emit_call(const std::string& callee, std::initializer_list<Arg> args,
                                     int64_t dst) {
  std::optional<int64_t> f;
  if (callee.starts_with("vm.builtin.")) {
    f = declare_builtin(callee);
  } else {
    f = function_index(callee);
  }
  if (!f) {
    fail("call of undeclared function `" + callee + "`");
    f = 0;
  }
  return emit_call(*f, args, dst);
}

int64_t ExecutableBuilder::emit_ret(int64_t reg) {
  note_register(reg);
  return emit({static_cast<int64_t>(Opcode::kRet), reg});
}

int64_t ExecutableBuilder::emit_goto(int64_t offset) {
  return emit({static_cast<int64_t>(Opcode::kGoto), offset});
}

int64_t ExecutableBuilder::emit_if(int64_t cond_reg, int64_t false_offset) {
  note_register(cond_reg);
  return emit({static_cast<int64_t>(Opcode::kIf), cond_reg, false_offset});
}

void ExecutableBuilder::patch_target(int64_t instr, int64_t target) {
  if (instr < 0 || instr >= next_instr())
    return fail("patch_target: no instruction " + std::to_string(instr));
  int64_t at = exe_->instr_offset[static_cast<size_t>(instr)];
  auto& words = exe_->instr_data;
  switch (static_cast<Opcode>(words[static_cast<size_t>(at)])) {
    case Opcode::kGoto:
      words[static_cast<size_t>(at + 1)] = target - instr;
      break;
    case Opcode::kIf:
      words[static_cast<size_t>(at + 2)] = target - instr;
      break;
    default:
      fail("patch_target: instruction " + std::to_string(instr) + " is not a jump");
  }
}

void ExecutableBuilder::end_function() {
  if (current_ < 0) return fail("end_function outside a function");
  auto& fn = exe_->functions[static_cast<size_t>(current_)];
  fn.end_instr = next_instr();
  fn.register_file_size = static_cast<int32_t>(std::max<int64_t>(fn.num_args, max_register_ + 1));
  current_ = -1;
}

Arg ExecutableBuilder::constant(const Value& value) {
  std::string key(1, static_cast<char>(value.kind()));
  switch (value.kind()) {
    case ValueKind::kInt:
      key += std::to_string(value.as_int());
      break;
    case ValueKind::kFloat: {
      double f = value.as_float();
      key.append(reinterpret_cast<const char*>(&f), sizeof f);
      break;
    }
    case ValueKind::kDType:
      key += dtype_name(value.as_dtype());
      break;
    case ValueKind::kString:
      key += value.as_string()->str();
      break;
    case ValueKind::kShape:
      for (int64_t d : value.as_shape()->dims()) key += std::to_string(d) + ",";
      break;
    default: {
      auto p = reinterpret_cast<uintptr_t>(value.as_object());
      key += std::to_string(p);
      break;
    }
  }
  auto [it, inserted] = constants_.emplace(key, static_cast<int64_t>(exe_->constants.size()));
  if (inserted) exe_->constants.push_back(value);
  return Arg::constant(it->second);
}

Arg ExecutableBuilder::int_arg(int64_t v) {
  if (v >= -kMaxImmediate && v <= kMaxImmediate) return Arg::imm(v);
  return constant(Value(v));
}

Arg ExecutableBuilder::func_arg(const std::string& name) {
  auto f = function_index(name);
  if (!f) {
    fail("reference to undeclared function `" + name + "`");
    return Arg::func(0);
  }
  return Arg::func(*f);
}

Result<std::shared_ptr<Executable>> ExecutableBuilder::finish() {
  if (current_ >= 0)
    fail("finish() inside function `" + exe_->functions[static_cast<size_t>(current_)].name + "`");
  for (const auto& fn : exe_->functions) {
    if (fn.kind == FunctionKind::kVMFunction && fn.end_instr == 0 && fn.start_instr == 0) {
      fail("VM function `" + fn.name + "` has no body");
    }
  }
  auto exe = std::move(exe_);
  exe_ = std::make_shared<Executable>();
  functions_.clear();
  constants_.clear();
  current_ = -1;
  if (!error_.empty()) return Error{std::exchange(error_, {})};
  if (Status s = exe->finalize(); !s) return s.error();
  return exe;
}

}  // namespace relax::vm
