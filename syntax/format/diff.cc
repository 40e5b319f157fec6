// Patience-style line diff: equal prefixes and suffixes are skipped, lines that occur once in
// each side and in the same order become anchors, and the gaps between anchors are compared
// exactly when small (and replaced wholesale when large). Linear-ish on formatter output, where
// most lines are unchanged.
#include "syntax/format/diff.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace relax::syntax::format {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl + 1 - start));
    start = nl + 1;
  }
  return lines;
}

namespace {

using Lines = std::vector<std::string_view>;

void lcs_gap(const Lines& a, const Lines& b, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1,
             std::vector<Hunk>& out) {
  uint32_t n = a1 - a0, m = b1 - b0;
  if (n == 0 && m == 0) return;
  if (n == 0 || m == 0 || static_cast<uint64_t>(n) * m > 4'000'000) {
    out.push_back({a0, a1, b0, b1});
    return;
  }
  // Exact LCS table.
  std::vector<uint32_t> t(static_cast<size_t>(n + 1) * (m + 1), 0);
  auto at = [&](uint32_t i, uint32_t j) -> uint32_t& {
    return t[static_cast<size_t>(i) * (m + 1) + j];
  };
  for (uint32_t i = n; i-- > 0;) {
    for (uint32_t j = m; j-- > 0;) {
      at(i, j) =
          a[a0 + i] == b[b0 + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  uint32_t i = 0, j = 0;
  uint32_t hi = 0, hj = 0;
  bool open = false;
  while (i < n || j < m) {
    if (i < n && j < m && a[a0 + i] == b[b0 + j]) {
      if (open) {
        out.push_back({a0 + hi, a0 + i, b0 + hj, b0 + j});
        open = false;
      }
      ++i;
      ++j;
      continue;
    }
    if (!open) {
      open = true;
      hi = i;
      hj = j;
    }
    if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
      ++j;
    } else {
      ++i;
    }
  }
  if (open) out.push_back({a0 + hi, a0 + n, b0 + hj, b0 + m});
}

void diff_range(const Lines& a, const Lines& b, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1,
                std::vector<Hunk>& out, int depth) {
  while (a0 < a1 && b0 < b1 && a[a0] == b[b0]) {
    ++a0;
    ++b0;
  }
  while (a0 < a1 && b0 < b1 && a[a1 - 1] == b[b1 - 1]) {
    --a1;
    --b1;
  }
  if (a0 == a1 && b0 == b1) return;
  if (a0 == a1 || b0 == b1 || depth > 64) {
    lcs_gap(a, b, a0, a1, b0, b1, out);
    return;
  }
  // Lines unique on both sides.
  struct Count {
    uint32_t in_a = 0, in_b = 0, pos_a = 0, pos_b = 0;
  };
  std::unordered_map<std::string_view, Count> counts;
  counts.reserve((a1 - a0) + (b1 - b0));
  for (uint32_t i = a0; i < a1; ++i) {
    Count& c = counts[a[i]];
    ++c.in_a;
    c.pos_a = i;
  }
  for (uint32_t j = b0; j < b1; ++j) {
    Count& c = counts[b[j]];
    ++c.in_b;
    c.pos_b = j;
  }
  std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (pos in a, pos in b), ordered by a
  for (uint32_t i = a0; i < a1; ++i) {
    const Count& c = counts[a[i]];
    if (c.in_a == 1 && c.in_b == 1) pairs.push_back({i, c.pos_b});
  }
  if (pairs.empty()) {
    lcs_gap(a, b, a0, a1, b0, b1, out);
    return;
  }
  // Longest increasing subsequence of the b positions (patience sorting).
  std::vector<size_t> tails;
  std::vector<long> prev(pairs.size(), -1);
  for (size_t k = 0; k < pairs.size(); ++k) {
    auto it = std::lower_bound(tails.begin(), tails.end(), k, [&](size_t x, size_t y) {
      return pairs[x].second < pairs[y].second;
    });
    if (it != tails.begin()) prev[k] = static_cast<long>(*(it - 1));
    if (it == tails.end()) {
      tails.push_back(k);
    } else {
      *it = k;
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> anchors;
  for (long k = tails.empty() ? -1 : static_cast<long>(tails.back()); k >= 0;
       k = prev[static_cast<size_t>(k)]) {
    anchors.push_back(pairs[static_cast<size_t>(k)]);
  }
  std::reverse(anchors.begin(), anchors.end());
  uint32_t pa = a0, pb = b0;
  for (const auto& [ia, ib] : anchors) {
    diff_range(a, b, pa, ia, pb, ib, out, depth + 1);
    pa = ia + 1;
    pb = ib + 1;
  }
  diff_range(a, b, pa, a1, pb, b1, out, depth + 1);
}

}  // namespace

std::vector<Hunk> diff_lines(const Lines& a, const Lines& b) {
  std::vector<Hunk> out;
  diff_range(a, b, 0, static_cast<uint32_t>(a.size()), 0, static_cast<uint32_t>(b.size()), out, 0);
  // Merge touching hunks.
  std::vector<Hunk> merged;
  for (const Hunk& h : out) {
    if (!merged.empty() && merged.back().a_end == h.a_begin && merged.back().b_end == h.b_begin) {
      merged.back().a_end = h.a_end;
      merged.back().b_end = h.b_end;
    } else {
      merged.push_back(h);
    }
  }
  return merged;
}

}  // namespace relax::syntax::format
