// Legalization of einsum: the subscripts equation ("ij,jk->ik", implicit output "ij,jk", repeated
// indices for diagonals, "..." for broadcast leading axes) becomes one stage: a sum over the
// labels missing from the output of the product of the operands (a compute when none is
// missing). The implicit output is the ellipsis axes, then the labels used once, in alphabetical
// order (numpy's rule).
#include <algorithm>
#include <cctype>
#include <map>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

// A subscript: letters, with the position of "..." (npos: none).
struct Sub {
  std::string letters;
  size_t ellipsis = std::string::npos;
};

std::optional<Sub> parse_sub(const std::string& text) {
  Sub s;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '.') {
      if (s.ellipsis != std::string::npos || text.compare(i, 3, "...") != 0) return std::nullopt;
      s.ellipsis = s.letters.size();
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(ch))) {
      s.letters.push_back(ch);
    } else {
      return std::nullopt;
    }
  }
  return s;
}

// Labels: letters by their code, ellipsis axis k (of the broadcast ellipsis rank) as 256 + k.
std::vector<int> labels_of(const Sub& s, size_t ndim, size_t ell_rank) {
  std::vector<int> out;
  size_t e = s.ellipsis == std::string::npos ? 0 : ndim - s.letters.size();
  for (size_t i = 0; i <= s.letters.size(); ++i) {
    if (i == s.ellipsis)
      for (size_t k = 0; k < e; ++k) out.push_back(256 + static_cast<int>(ell_rank - e + k));
    if (i < s.letters.size()) out.push_back(s.letters[i]);
  }
  return out;
}

bool einsum(Ctx& c) {
  auto shape = c.out_shape();
  if (!shape) return false;
  auto inputs = c.tuple_inputs(0);
  if (!inputs) return false;
  std::vector<Tensor> ops = std::move(*inputs);
  std::string text;
  for (char ch : c.str_attr("subscripts"))
    if (ch != ' ') text.push_back(ch);
  std::string lhs = text, rhs;
  bool explicit_out = false;
  if (auto arrow = text.find("->"); arrow != std::string::npos) {
    lhs = text.substr(0, arrow);
    rhs = text.substr(arrow + 2);
    explicit_out = true;
  }
  std::vector<Sub> subs;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    auto s = parse_sub(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (!s) return c.unsupported("invalid subscripts \"" + text + "\"");
    subs.push_back(*s);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (subs.size() != ops.size())
    return c.unsupported("the subscripts do not name one term per operand");
  size_t ell_rank = 0;
  for (size_t k = 0; k < ops.size(); ++k) {
    bool has_ell = subs[k].ellipsis != std::string::npos;
    if (ops[k].ndim() < subs[k].letters.size() ||
        (!has_ell && ops[k].ndim() != subs[k].letters.size()))
      return c.unsupported("operand " + std::to_string(k) + " does not match its subscript");
    if (has_ell) ell_rank = std::max(ell_rank, ops[k].ndim() - subs[k].letters.size());
  }
  std::vector<std::vector<int>> labels;
  std::map<int, int> count;
  std::map<int, Expr> extent;
  for (size_t k = 0; k < ops.size(); ++k) {
    labels.push_back(labels_of(subs[k], ops[k].ndim(), ell_rank));
    for (size_t d = 0; d < labels[k].size(); ++d) {
      int l = labels[k][d];
      ++count[l];
      const Expr& dim = ops[k].shape()[d];
      // A broadcast (size-1) axis gives way to a larger one.
      if (!extent.count(l) || ir::tir::is_const_int(extent[l], 1)) extent[l] = dim;
    }
  }
  std::vector<int> out_labels;
  if (explicit_out) {
    auto s = parse_sub(rhs);
    if (!s) return c.unsupported("invalid output subscript \"" + rhs + "\"");
    Sub o = *s;
    out_labels =
        labels_of(o, o.letters.size() + (o.ellipsis == std::string::npos ? 0 : ell_rank), ell_rank);
  } else {
    for (size_t k = 0; k < ell_rank; ++k) out_labels.push_back(256 + static_cast<int>(k));
    for (const auto& [l, n] : count)
      if (l < 256 && n == 1) out_labels.push_back(l);
  }
  std::vector<int> sorted = out_labels;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return c.unsupported("an output label repeats");
  for (int l : out_labels)
    if (!extent.count(l)) return c.unsupported("an output label is not in the inputs");
  if (out_labels.size() != shape->size())
    return c.unsupported("the output rank does not match the inferred shape");
  std::vector<int> red_labels;
  Exprs red_ext;
  for (const auto& [l, e] : extent) {
    if (std::find(out_labels.begin(), out_labels.end(), l) == out_labels.end()) {
      red_labels.push_back(l);
      red_ext.push_back(e);
    }
  }
  DataType t = c.out_dtype();
  auto body = [&](const Exprs& sp, const Exprs& rd) {
    std::map<int, Expr> var;
    for (size_t k = 0; k < out_labels.size(); ++k) var[out_labels[k]] = sp[k];
    for (size_t k = 0; k < red_labels.size(); ++k) var[red_labels[k]] = rd[k];
    Expr prod;
    for (size_t k = 0; k < ops.size(); ++k) {
      Exprs idx;
      for (size_t d = 0; d < labels[k].size(); ++d) {
        int l = labels[k][d];
        bool bcast =
            ir::tir::is_const_int(ops[k].shape()[d], 1) && !ir::tir::is_const_int(extent[l], 1);
        idx.push_back(bcast ? i64(0) : var[l]);
      }
      Expr v = cast(t, ops[k](idx));
      prod = prod ? mul(prod, v) : v;
    }
    return prod;
  };
  c.name = "einsum";
  if (red_labels.empty()) {
    c.out = c.b.compute(
        *shape, t, "T_einsum", [&](const Exprs& i) { return body(i, {}); }, "ax");
  } else {
    c.out = c.b.reduce(*shape, red_ext, ReduceKind::kSum, t, "T_einsum", body);
  }
  return true;
}

}  // namespace

void register_einsum(Table& t) {
  t["relax.einsum"] = einsum;
}

}  // namespace relax::compiler::legalize
