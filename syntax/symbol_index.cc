#include "syntax/symbol_index.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace relax::syntax {

std::string_view symbol_kind_name(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::kModule:
      return "module";
    case SymbolKind::kFunction:
      return "function";
    case SymbolKind::kParameter:
      return "parameter";
    case SymbolKind::kVariable:
      return "variable";
    case SymbolKind::kDataflowVariable:
      return "dataflow variable";
    case SymbolKind::kSymbolicVar:
      return "symbolic variable";
    case SymbolKind::kTirParameter:
      return "parameter";
    case SymbolKind::kBuffer:
      return "buffer";
    case SymbolKind::kLoopVar:
      return "loop variable";
    case SymbolKind::kBlockVar:
      return "block variable";
    case SymbolKind::kTirVar:
      return "variable";
  }
  return "symbol";
}

uint32_t SymbolIndex::define(SymbolKind kind, std::string name, ir::Span at, ir::ObjectRef object) {
  if (object) {
    auto found = by_object_.find(object.get());
    if (found != by_object_.end()) return found->second;
  }
  // One text, one symbol: a signature is built twice (declared for the calls, then parsed with
  // the body), and the second build's objects are the ones the body uses.
  if (at.is_known()) {
    auto same = by_definition_.find(definition_key(at));
    if (same != by_definition_.end()) {
      Symbol& s = symbols_[same->second];
      if (object) {
        by_object_.emplace(object.get(), same->second);
        replaced_.push_back(std::move(s.object));
        s.object = std::move(object);
      }
      return same->second;
    }
  }
  auto id = static_cast<uint32_t>(symbols_.size());
  Symbol& s = symbols_.emplace_back();
  s.kind = kind;
  s.name = std::move(name);
  s.definition = at;
  s.extent = at;
  s.function = function_;
  if (object) by_object_.emplace(object.get(), id);
  s.object = std::move(object);
  if (at.is_known()) {
    occurrences_.push_back({at, id, true});
    by_definition_.emplace(definition_key(at), id);
  }
  return id;
}

void SymbolIndex::use(const ir::Object* object, ir::Span at) {
  if (!object || !at.is_known()) return;
  auto found = by_object_.find(object);
  if (found == by_object_.end()) return;
  Symbol& s = symbols_[found->second];
  if (s.definition == at) return;
  // Only symbolic variables are declared by their first use; others without a definition in
  // the text (made by a builtin) keep an unknown one.
  bool declared_by_use = s.kind == SymbolKind::kSymbolicVar;
  if (!s.definition.is_known() && declared_by_use && s.uses.empty()) {
    auto same = by_definition_.find(definition_key(at));
    if (same != by_definition_.end()) {
      // Declared by the same text in the signature's first build: the same symbol.
      by_object_[object] = same->second;
      replaced_.push_back(std::move(symbols_[same->second].object));
      symbols_[same->second].object = s.object;
      return;
    }
    by_definition_.emplace(definition_key(at), found->second);
    s.definition = at;
    if (!s.extent.is_known()) s.extent = at;
    occurrences_.push_back({at, found->second, true});
    return;
  }
  s.uses.push_back(at);
  occurrences_.push_back({at, found->second, false});
}

void SymbolIndex::set_shadows(uint32_t id, const ir::Object* previous) {
  auto found = by_object_.find(previous);
  if (found != by_object_.end() && found->second != id) symbols_[id].shadows = found->second;
}

void SymbolIndex::clear_shadows(const ir::Object* object) {
  auto found = by_object_.find(object);
  if (found != by_object_.end()) symbols_[found->second].shadows = Symbol::kNoSymbol;
}

void SymbolIndex::set_kind(const ir::Object* object, SymbolKind kind) {
  auto found = by_object_.find(object);
  if (found != by_object_.end()) symbols_[found->second].kind = kind;
}

void SymbolIndex::set_extent(const ir::Object* object, ir::Span extent) {
  auto found = by_object_.find(object);
  if (found != by_object_.end()) symbols_[found->second].extent = extent;
}

void SymbolIndex::finish() {
  // Symbols that never appear in the text (a signature's first build whose objects the second
  // build's replaced, a builtin's variable never named) are dropped, and the ids renumbered.
  std::vector<uint32_t> new_id(symbols_.size(), UINT32_MAX);
  std::vector<Symbol> kept;
  for (uint32_t i = 0; i < symbols_.size(); ++i) {
    Symbol& sym = symbols_[i];
    if (!sym.definition.is_known() && sym.uses.empty()) continue;
    new_id[i] = static_cast<uint32_t>(kept.size());
    kept.push_back(std::move(sym));
  }
  symbols_ = std::move(kept);
  for (Occurrence& o : occurrences_) o.symbol = new_id[o.symbol];
  for (auto it = by_object_.begin(); it != by_object_.end();) {
    if (new_id[it->second] == UINT32_MAX) {
      it = by_object_.erase(it);
    } else {
      it->second = new_id[it->second];
      ++it;
    }
  }
  for (auto& [key, id] : by_definition_) id = new_id[id];
  for (Symbol& sym : symbols_) {
    if (sym.shadows != Symbol::kNoSymbol)
      sym.shadows = new_id[sym.shadows];  // kNoSymbol if dropped
  }

  // The front end may evaluate one expression twice (an annotation scanned, then built): keep
  // each occurrence once.
  auto key = [](const Occurrence& o) {
    return std::make_tuple(o.span.begin, o.span.end, o.symbol, !o.is_definition);
  };
  std::sort(occurrences_.begin(), occurrences_.end(),
            [&](const Occurrence& a, const Occurrence& b) { return key(a) < key(b); });
  occurrences_.erase(std::unique(occurrences_.begin(), occurrences_.end(),
                                 [](const Occurrence& a, const Occurrence& b) {
                                   return a.span == b.span && a.symbol == b.symbol;
                                 }),
                     occurrences_.end());
  for (Symbol& s : symbols_) {
    auto before = [](const ir::Span& a, const ir::Span& b) {
      return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
    };
    std::sort(s.uses.begin(), s.uses.end(), before);
    s.uses.erase(std::unique(s.uses.begin(), s.uses.end()), s.uses.end());
  }
}

const Occurrence* SymbolIndex::occurrence_at(uint32_t offset) const {
  // Occurrences do not overlap (they are identifiers), so the candidate is the last one that
  // begins at or before the offset.
  auto it = std::upper_bound(occurrences_.begin(), occurrences_.end(), offset,
                             [](uint32_t off, const Occurrence& o) { return off < o.span.begin; });
  if (it == occurrences_.begin()) return nullptr;
  --it;
  if (offset > it->span.end) return nullptr;
  return &*it;
}

const Symbol* SymbolIndex::symbol_at(uint32_t offset) const {
  const Occurrence* o = occurrence_at(offset);
  return o ? &symbols_[o->symbol] : nullptr;
}

const Symbol* SymbolIndex::find(const ir::Object* object) const {
  auto found = by_object_.find(object);
  return found == by_object_.end() ? nullptr : &symbols_[found->second];
}

std::vector<const Symbol*> SymbolIndex::functions() const {
  std::vector<const Symbol*> out;
  for (const Symbol& s : symbols_)
    if (s.kind == SymbolKind::kFunction) out.push_back(&s);
  std::sort(out.begin(), out.end(),
            [](const Symbol* a, const Symbol* b) { return a->extent.begin < b->extent.begin; });
  return out;
}

const Symbol* SymbolIndex::enclosing_function(uint32_t offset) const {
  const Symbol* best = nullptr;
  for (const Symbol& s : symbols_) {
    if (s.kind != SymbolKind::kFunction || !s.extent.is_known()) continue;
    if (offset < s.extent.begin || offset > s.extent.end) continue;
    if (!best || s.extent.size() < best->extent.size()) best = &s;
  }
  return best;
}

}  // namespace relax::syntax
