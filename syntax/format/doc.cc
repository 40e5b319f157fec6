// The document builder, expand propagation and the printer. The printer keeps a queue of element
// slices and a stack of frames (indentation, flat/expanded mode, measure mode); a group is
// printed flat when the rest of its line fits, measured by walking the queue ahead without
// consuming it. Each measurement stops at the first line break or when the width is exceeded,
// so printing is linear in the document size for a fixed width.
#include "syntax/format/doc.h"

#include <cstring>

namespace relax::syntax::format {

namespace {

uint32_t code_point_width(uint32_t cp) {
  if (cp == '\t') return 4;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
      (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) ||
      (cp >= 0xfe20 && cp <= 0xfe2f) || (cp >= 0x200b && cp <= 0x200f)) {
    return 0;
  }
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
      (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
      (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) {
    return 2;
  }
  return 1;
}

}  // namespace

uint32_t text_width(std::string_view text) {
  uint32_t width = 0;
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      width += code_point_width(c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t len = 1;
    if ((c & 0xe0) == 0xc0) {
      cp = c & 0x1f;
      len = 2;
    } else if ((c & 0xf0) == 0xe0) {
      cp = c & 0x0f;
      len = 3;
    } else if ((c & 0xf8) == 0xf0) {
      cp = c & 0x07;
      len = 4;
    } else {
      ++i;  // a stray continuation byte: no width
      continue;
    }
    for (size_t k = 1; k < len && i + k < text.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    }
    width += code_point_width(cp);
    i += len;
  }
  return width;
}

Document::Document() : current_(&root_) {
  // Offsets 0 and 1 hold the parentheses the printer inserts for best-fit parenthesization.
  arena_ = "()";
}

bool Document::filter(Element& e) {
  if (skipping_ > 0) {
    if (e.op == Op::kStartConditionalContent) ++skipping_;
    if (e.op == Op::kEndConditionalContent) --skipping_;
    return false;
  }
  if (e.op == Op::kStartConditionalContent &&
      e.mode == static_cast<uint8_t>(PrintMode::kExpanded)) {
    skipping_ = 1;
    return false;
  }
  if (e.op == Op::kLine) {
    if (e.mode == static_cast<uint8_t>(LineMode::kSoft)) return false;
    if (e.mode == static_cast<uint8_t>(LineMode::kSoftOrSpace)) e = Element{Op::kSpace};
  }
  return true;
}

void Document::text(std::string_view s) {
  if (s.empty()) return;
  Element e{Op::kText};
  e.a = static_cast<uint32_t>(arena_.size());
  e.b = static_cast<uint32_t>(s.size());
  if (s.find('\n') != std::string_view::npos) {
    e.flags = kMultiline;
  } else {
    bool ascii = true;
    for (char ch : s) {
      if (static_cast<unsigned char>(ch) >= 0x80 || ch == '\t') {
        ascii = false;
        break;
      }
    }
    e.c = ascii ? e.b : text_width(s);
  }
  arena_.append(s);
  push(e);
}

void Document::begin_slice() {
  buffers_.push_back(current_);
  open_slices_.push_back(static_cast<uint32_t>(slices_.size()));
  slices_.emplace_back();
  current_ = &slices_.back();
}

uint32_t Document::end_slice() {
  uint32_t index = open_slices_.back();
  open_slices_.pop_back();
  current_ = buffers_.back();
  buffers_.pop_back();
  return index;
}

void Document::best_fitting(const std::vector<uint32_t>& variants, BestFitMode mode) {
  uint32_t first = static_cast<uint32_t>(variant_table_.size());
  variant_table_.insert(variant_table_.end(), variants.begin(), variants.end());
  push({Op::kBestFitting, static_cast<uint8_t>(mode), 0, first,
        static_cast<uint32_t>(variants.size())});
}

bool Document::will_break(const std::vector<Element>& elements) const {
  for (const Element& e : elements) {
    switch (e.op) {
      case Op::kExpandParent:
        return true;
      case Op::kStartGroup:
        if (e.mode != kGroupFlat) return true;
        break;
      case Op::kLine:
        if (e.mode == static_cast<uint8_t>(LineMode::kHard) ||
            e.mode == static_cast<uint8_t>(LineMode::kEmpty)) {
          return true;
        }
        break;
      case Op::kText:
        if (e.flags & kMultiline) return true;
        break;
      case Op::kInterned:
        if (will_break(slices_[e.a])) return true;
        break;
      case Op::kBestFitting:
        if (will_break(slices_[variant_table_[e.a]])) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

bool Document::will_break(uint32_t slice) const {
  return will_break(slices_[slice]);
}

enum class EnclosingKind : uint8_t {
  kGroup,
  kConditionalGroup,
  kFitsExpanded,
  kBestFitting,
  kBestFitParenthesize
};

struct Document::EnclosingEntry {
  EnclosingKind kind;
  Element* element;
  bool saved;  // "expands" before a fits-expanded or best-fit-parenthesize element
};

namespace {

template <typename Entry>
void expand_enclosing(std::vector<Entry>& enclosing) {
  if (enclosing.empty()) return;
  Entry& top = enclosing.back();
  switch (top.kind) {
    case EnclosingKind::kGroup:
      if (top.element->mode == kGroupFlat) top.element->mode = kGroupPropagated;
      break;
    case EnclosingKind::kConditionalGroup:
      if (top.element->flags == kGroupFlat) top.element->flags = kGroupPropagated;
      break;
    case EnclosingKind::kFitsExpanded:
      top.element->flags |= kPropagated;
      break;
    default:
      break;
  }
}

}  // namespace

// Best-fitting elements are boundaries: what expands inside a variant does not expand the groups
// around the best-fitting element (the printer picks a variant by measuring).
bool Document::propagate(std::vector<Element>& elements, std::vector<EnclosingEntry>& enclosing,
                         std::vector<int8_t>& checked) {
  bool expands = false;
  for (Element& e : elements) {
    bool element_expands = false;
    switch (e.op) {
      case Op::kStartGroup:
        enclosing.push_back({EnclosingKind::kGroup, &e, false});
        break;
      case Op::kEndGroup:
        if (!enclosing.empty() && enclosing.back().kind == EnclosingKind::kGroup) {
          element_expands = enclosing.back().element->mode != kGroupFlat;
          enclosing.pop_back();
        }
        break;
      case Op::kStartConditionalGroup:
        enclosing.push_back({EnclosingKind::kConditionalGroup, &e, false});
        break;
      case Op::kEndConditionalGroup:
        if (!enclosing.empty() && enclosing.back().kind == EnclosingKind::kConditionalGroup) {
          element_expands = enclosing.back().element->flags != kGroupFlat;
          enclosing.pop_back();
        }
        break;
      case Op::kStartBestFitParenthesize:
        enclosing.push_back({EnclosingKind::kBestFitParenthesize, &e, expands});
        expands = false;
        continue;
      case Op::kEndBestFitParenthesize:
        if (!enclosing.empty() && enclosing.back().kind == EnclosingKind::kBestFitParenthesize) {
          expands = enclosing.back().saved;
          enclosing.pop_back();
        }
        continue;
      case Op::kStartFitsExpanded:
        enclosing.push_back({EnclosingKind::kFitsExpanded, &e, expands});
        break;
      case Op::kEndFitsExpanded:
        if (!enclosing.empty() && enclosing.back().kind == EnclosingKind::kFitsExpanded) {
          expands = enclosing.back().saved;
          enclosing.pop_back();
        }
        continue;
      case Op::kInterned:
        if (checked[e.a] < 0) checked[e.a] = propagate(slices_[e.a], enclosing, checked) ? 1 : 0;
        element_expands = checked[e.a] == 1;
        break;
      case Op::kBestFitting:
        enclosing.push_back({EnclosingKind::kBestFitting, &e, false});
        for (uint32_t v = 0; v < e.b; ++v)
          propagate(slices_[variant_table_[e.a + v]], enclosing, checked);
        enclosing.pop_back();
        continue;
      case Op::kText:
        element_expands = (e.flags & kMultiline) != 0;
        break;
      case Op::kExpandParent:
        element_expands = true;
        break;
      case Op::kLine:
        element_expands = e.mode == static_cast<uint8_t>(LineMode::kHard) ||
                          e.mode == static_cast<uint8_t>(LineMode::kEmpty);
        break;
      default:
        break;
    }
    if (element_expands) {
      expands = true;
      expand_enclosing(enclosing);
    }
  }
  return expands;
}

void Document::propagate_expand() {
  std::vector<EnclosingEntry> enclosing;
  std::vector<int8_t> checked(slices_.size(), -1);
  propagate(root_, enclosing, checked);
}

}  // namespace relax::syntax::format
