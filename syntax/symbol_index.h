// The symbol index of one parsed document: for every name the front end resolves, where it is
// defined and each place it is used, as byte spans of the document. Built by the front end while
// it resolves names (so it agrees with it on scoping), returned in FrontendResult and read by
// the lints and the editor queries (MLIR's AsmParserState plays this role there).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/object.h"
#include "ir/span.h"

namespace relax::syntax {

enum class SymbolKind : uint8_t {
  kModule,            // the @I.ir_module class
  kFunction,          // an @R.function or @T.prim_func (its GlobalVar), or an extern member
  kParameter,         // a Relax function's parameter
  kVariable,          // a Relax binding's variable (a dataflow block's outputs included)
  kDataflowVariable,  // a binding inside a dataflow block that is not one of its outputs
  kSymbolicVar,       // a symbolic shape variable of a Relax function (`n` in R.Tensor(("n",)))
  kTirParameter,      // a prim_func parameter (a T.handle or a scalar)
  kBuffer,            // a TIR buffer (T.match_buffer, T.alloc_buffer, a T.Buffer parameter)
  kLoopVar,           // a TIR loop variable (`for i in T.serial(...)`, T.grid)
  kBlockVar,          // a TIR block variable (T.axis.spatial, T.axis.remap)
  kTirVar,            // another TIR variable (T.let, T.int32() declarations, symbolic dims)
};

// "function", "parameter", "symbolic variable", ...: for hover and messages.
std::string_view symbol_kind_name(SymbolKind kind);

struct Symbol {
  SymbolKind kind = SymbolKind::kVariable;
  std::string name;
  // The identifier that defines it; unknown when the text has none (an implicit definition).
  ir::Span definition;
  // What the symbol names in the text: a function's whole decorated definition, else the
  // definition's span.
  ir::Span extent;
  // The function it belongs to ("" for module-level symbols: functions, the module).
  std::string function;
  // The IR object it names (Var, GlobalVar, tir::Var, Buffer); kept for the queries. A function
  // that failed to build keeps its symbol with the GlobalVar it was declared with.
  ir::ObjectRef object;
  // Every use, in text order (definitions are not uses).
  std::vector<ir::Span> uses;
  // The symbol of the same name this definition hides (one visible in its scope where it is
  // defined), or kNoSymbol.
  static constexpr uint32_t kNoSymbol = UINT32_MAX;
  uint32_t shadows = kNoSymbol;
};

// One appearance of a symbol in the text.
struct Occurrence {
  ir::Span span;
  uint32_t symbol = 0;  // index into SymbolIndex::symbols()
  bool is_definition = false;
};

class SymbolIndex {
 public:
  // --- Building (the front end) ----------------------------------------------------------------
  // Records a definition of `object` named `name` at `at` (unknown: none in the text); returns
  // the symbol's id. An object already defined keeps its first definition (re-exporting a
  // dataflow output defines nothing new).
  uint32_t define(SymbolKind kind, std::string name, ir::Span at, ir::ObjectRef object);
  // Whether `object` is indexed already.
  bool contains(const ir::Object* object) const { return by_object_.count(object) > 0; }
  // Records a use of `object` at `at`. Objects never defined are not indexed; the first use of a
  // symbolic variable with no definition in the text becomes its definition (one declared by
  // the first shape string that names it).
  void use(const ir::Object* object, ir::Span at);
  // Records that the symbol `id` hides the indexed `previous` (the front end looked the name up
  // before defining it); clear_shadows undoes it (an `if`'s later branches rebind its result
  // name, which hides nothing).
  void set_shadows(uint32_t id, const ir::Object* previous);
  void clear_shadows(const ir::Object* object);
  // Changes the kind of an indexed object (parameters are defined as variables first).
  void set_kind(const ir::Object* object, SymbolKind kind);
  void set_extent(const ir::Object* object, ir::Span extent);
  // The extent of the symbol defined last (one without an object: the module class).
  void set_extent_of_last(ir::Span extent) {
    if (!symbols_.empty()) symbols_.back().extent = extent;
  }
  // The function being built: symbols defined from now on belong to it.
  void set_function(std::string name) { function_ = std::move(name); }
  // Sorts the occurrences; called once the front end is done.
  void finish();

  // --- Queries ---------------------------------------------------------------------------------
  const std::vector<Symbol>& symbols() const { return symbols_; }
  // Every definition and use, ordered by position.
  const std::vector<Occurrence>& occurrences() const { return occurrences_; }
  // The symbol of the occurrence that contains byte `offset` (an identifier's end counts, as an
  // editor's cursor right after a name is on it), or null.
  const Symbol* symbol_at(uint32_t offset) const;
  const Occurrence* occurrence_at(uint32_t offset) const;
  // The symbol of an IR object, or null.
  const Symbol* find(const ir::Object* object) const;
  // The module's functions (failed ones too), in text order.
  std::vector<const Symbol*> functions() const;
  // The innermost function whose definition contains `offset`, or null.
  const Symbol* enclosing_function(uint32_t offset) const;

 private:
  std::vector<Symbol> symbols_;
  std::vector<Occurrence> occurrences_;
  std::unordered_map<const ir::Object*, uint32_t> by_object_;
  static uint64_t definition_key(ir::Span at) { return uint64_t{at.begin} << 32 | at.end; }
  std::unordered_map<uint64_t, uint32_t> by_definition_;
  // Objects a later build of the same text replaced: held, so that no new object reuses an
  // address by_object_ still maps.
  std::vector<ir::ObjectRef> replaced_;
  std::string function_;
};

}  // namespace relax::syntax
