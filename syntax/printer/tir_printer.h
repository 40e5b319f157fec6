// Internals of the TIR printer: the frame stack and definition rules of TVM's IRDocsifier
// (variables and buffers used before any definition are defined in the lowest frame that
// encloses all their uses), statement docs, and the analyses the printer needs (where each
// variable is used, how often a parameter occurs).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/tir.h"
#include "syntax/printer/tir_expr_printer.h"

namespace relax::syntax::tirprint {

using ir::Ref;
using namespace ir::tir;

// A printed statement: a line, or a header with an indented body (`pass` when empty).
struct Doc {
  std::string text;
  std::vector<Doc> body;
  bool scope = false;
};

// For every variable and buffer of `func`, the path of nodes from the function to the deepest
// node enclosing all its uses (TVM's IRDocsifier::SetCommonPrefix).
std::unordered_map<const ir::Object*, std::vector<const ir::Object*>> common_prefixes(
    const PrimFunc& func);

// How often each of `vars` occurs in the function (TVM's CountVarOccurrence: body, parameters,
// the buffer map's keys and buffer fields), counted in one walk of the function.
std::unordered_map<const Var*, int> count_var_occurrences(const PrimFunc& func,
                                                          const std::vector<const Var*>& vars);

// True when `e` mentions any variable.
bool has_vars(const Ref<PrimExpr>& e);

class TirPrinter : public PrimExprPrinter {
 public:
  explicit TirPrinter(PrinterContext& ctx);
  void print_function(const PrimFunc& func, const std::string& name);

 private:
  struct Frame {
    const ir::Object* tir = nullptr;
    std::vector<Doc> stmts;
    bool concise = false;
    // Set while the frame's header (a loop's extents) prints: a definition there would come
    // after its use, so variables first used in the header are defined in an enclosing frame.
    bool in_header = false;
    std::vector<const ir::Object*> defs;
    std::vector<std::string> names;
  };
  struct Def {
    std::string name;                   // a plain name, or
    const ir::Object* owner = nullptr;  // an attribute of a buffer (`A.data`)
    std::string suffix;
  };
  enum class VarDefs { kNone, kDataPointer, kMatchBuffer };

  // --- Frames and definitions ---
  Frame& push_frame(const ir::Object* tir);
  void pop_frame();
  Frame& top() { return *frames_.back(); }
  bool defined(const ir::Object* o) const { return defs_.count(o) > 0; }
  std::string define(const ir::Object* o, Frame& f, const std::string& hint);
  void define_inline(const ir::Object* o, Frame& f, const ir::Object* owner,
                     const std::string& suffix);
  std::string doc_of(const ir::Object* o);
  Frame* lowest_frame(const ir::Object* o);
  bool is_ancestor_of_all_uses(const ir::Object* node, const ir::Object* var) const;

  // --- Expressions (hooks of PrimExprPrinter) ---
  std::string var_name(const Var& v) override;
  std::string buffer_name(const Buffer& b) override;
  std::string buffer_index(const Ref<PrimExpr>& index) override;
  void begin_lambda() override { push_frame(nullptr); }
  std::string define_lambda_var(const Var& v) override { return define(&v, top(), v.name); }
  void end_lambda() override { pop_frame(); }
  std::string var_creation(const Var& v);
  std::string type_annotation(const Var& v);

  // --- Buffers ---
  std::string buffer_decl(const Buffer& b, const std::string& method,
                          const std::vector<std::string>& args, Frame& f, VarDefs defs);
  std::string buffer_annotation(const Buffer& b, Frame& f);
  std::vector<std::pair<std::string, std::string>> buffer_attrs(const Buffer& b, Frame& f,
                                                                VarDefs defs);
  std::string region(const BufferRegion& r);
  std::string define_buffer(const Buffer& b, Frame& f) {
    return define(&b, f, b.name.empty() ? "buffer" : b.name);
  }

  // --- Statements ---
  void body(const Ref<Stmt>& s, Frame& f);
  std::vector<Doc> stmt(const Ref<Stmt>& s);
  std::vector<Doc> let_stmt(const LetStmt& s);
  std::vector<Doc> attr_stmt(const AttrStmt& s);
  std::vector<Doc> assert_stmt(const AssertStmt& s);
  std::vector<Doc> buffer_store(const BufferStore& s);
  std::vector<Doc> buffer_realize(const BufferRealize& s);
  std::vector<Doc> allocate(const Allocate& s);
  std::vector<Doc> decl_buffer(const DeclBuffer& s);
  std::vector<Doc> if_then_else(const IfThenElse& s);
  std::vector<Doc> evaluate(const Evaluate& s);
  std::vector<Doc> for_loop(const For& s);
  std::vector<Doc> while_loop(const While& s);
  std::vector<Doc> block(const Block& b, const BlockRealize* realize);
  std::string realize_call(const BufferRealize& r, const std::string* value);
  static std::vector<Doc> concise_scope(const std::string* lhs, const std::string& rhs,
                                        std::vector<Doc> stmts, bool concise);
  void emit(const Doc& d);

  bool legacy() const { return ctx_.legacy(); }
  std::string block_word() const { return legacy() ? "block" : "sblock"; }

  std::vector<std::unique_ptr<Frame>> frames_;
  std::unordered_map<const ir::Object*, Def> defs_;
  std::unordered_set<std::string> taken_;
  std::unordered_map<const ir::Object*, std::vector<const ir::Object*>> prefix_;
};

}  // namespace relax::syntax::tirprint
