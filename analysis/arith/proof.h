// The answer of a decision procedure: proved, disproved, or neither (SEMANTICS.md §2.1).
#pragma once

#include <cstdint>

namespace relax::analysis::arith {

enum class Proof : uint8_t { kYes, kNo, kUnknown };

inline const char* proof_name(Proof p) {
  switch (p) {
    case Proof::kNo:
      return "no";
    case Proof::kYes:
      return "yes";
    case Proof::kUnknown:
      return "unknown";
  }
  return "?";
}

// The answer for the negated question.
inline Proof proof_not(Proof p) {
  if (p == Proof::kYes) return Proof::kNo;
  if (p == Proof::kNo) return Proof::kYes;
  return Proof::kUnknown;
}

}  // namespace relax::analysis::arith
