// Annotated test sources, after clangd's Annotations: markers in a source text name the
// positions and ranges a test asserts on, so a test reads like the code it checks.
//   ^          a point (unnamed)        $name^          a named point
//   [[ ... ]]  a range (unnamed)        $name[[ ... ]]  a named range
// The markers are removed from code(); offsets are bytes into code(). Ranges may nest.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace relax::test {

struct ByteRange {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool operator==(const ByteRange&) const = default;
};

class Annotations {
 public:
  // Throws std::invalid_argument on an unbalanced `[[`/`]]` or a `$name` without `^` or `[[`.
  explicit Annotations(std::string_view annotated);

  const std::string& code() const { return code_; }

  // The only point with that name (""; unnamed); throws std::out_of_range unless exactly one.
  uint32_t point(const std::string& name = "") const;
  std::vector<uint32_t> points(const std::string& name = "") const;
  ByteRange range(const std::string& name = "") const;
  std::vector<ByteRange> ranges(const std::string& name = "") const;

 private:
  std::string code_;
  std::map<std::string, std::vector<uint32_t>> points_;
  std::map<std::string, std::vector<ByteRange>> ranges_;
};

}  // namespace relax::test
