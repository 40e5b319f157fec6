// bench/scaling_bench at small sizes: the generated modules (2,000 bindings; 2,000 functions
// calling each other) build and run to (N + 1) * x, and the table has a row per shape and size.
// No timing is checked.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;

namespace {

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("relax_scaling_bench_test_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Generates `shape` with n = 2000, runs main on x = [1, 2, 3, 4] and returns the result.
std::vector<float> run_generated(const TempDir& dir, const std::string& shape) {
  fs::path file = dir / (shape + ".relax"), x = dir / "x.npy", out = dir / (shape + "_out.npy");
  auto gen = run_command({SCALING_BENCH, "--emit", shape, "2000", file.string()});
  INFO(gen.err);
  REQUIRE(gen.exit_code == 0);
  std::vector<float> xs{1, 2, 3, 4};
  std::vector<int64_t> dims{4};
  REQUIRE(relax::vm::write_npy(x.string(),
                               *relax::vm::tensor_from_bytes(dims, relax::vm::kFloat32, xs.data()))
              .ok());
  auto check = run_command({RELAX_BINARY, "check", file.string()});
  INFO(check.err);
  CHECK(check.exit_code == 0);
  auto r = run_command({RELAX_BINARY, "run", file.string(), x.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto y = relax::vm::read_npy(out.string());
  REQUIRE(y.ok());
  const float* p = (*y)->data_as<float>();
  return std::vector<float>(p, p + (*y)->numel());
}

}  // namespace

TEST_CASE("scaling_bench: 2000 bindings in one function run to 2001 * x") {
  TempDir dir;
  CHECK(run_generated(dir, "bindings") == std::vector<float>{2001, 4002, 6003, 8004});
  std::string text = relax::test::read_file(dir / "bindings.relax");
  CHECK(text.find("            y2000 = R.add(y1999, x)\n") != std::string::npos);
  CHECK(text.find("y2001") == std::string::npos);
}

TEST_CASE("scaling_bench: 2000 functions, each calling the previous one, run to 2001 * x") {
  TempDir dir;
  CHECK(run_generated(dir, "functions") == std::vector<float>{2001, 4002, 6003, 8004});
  std::string text = relax::test::read_file(dir / "functions.relax");
  CHECK(text.find("    def f1998(") != std::string::npos);
  CHECK(text.find("a = cls.f1998(x)") != std::string::npos);  // in main, the 2000th
  CHECK(text.find("def f1999(") == std::string::npos);
}

TEST_CASE("scaling_bench: the table has a row per shape and size, with the growth per 10x") {
  auto r = run_command({SCALING_BENCH, "--relax", RELAX_BINARY, "--sizes", "20,200"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::istringstream lines(r.out);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    if (!w.empty() && (w[0] == "bindings" || w[0] == "functions")) rows.push_back(w);
  }
  REQUIRE(rows.size() == 4);
  CHECK(r.out.find("check") != std::string::npos);
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i][0] == (i < 2 ? "bindings" : "functions"));
    CHECK(rows[i][1] == (i % 2 == 0 ? "20" : "200"));
    // Four stages: a time each, and on the second size its growth, "(N.Nx)".
    CHECK(rows[i].size() == (i % 2 == 0 ? 6u : 10u));
    for (size_t k = 2; k < rows[i].size(); ++k) {
      if (i % 2 == 1 && k % 2 == 1) {
        CHECK(rows[i][k].front() == '(');
        CHECK(rows[i][k].back() == ')');
      } else {
        CHECK(std::stod(rows[i][k]) >= 0);
      }
    }
  }
  // A bad option is a usage error.
  CHECK(run_command({SCALING_BENCH, "--stages", "nope"}).exit_code == 2);
}

// --callgrind runs each command under `valgrind` from PATH and reads the total from the
// callgrind output file. A stand-in valgrind here runs the command and writes "summary: " the
// module's size in bytes, so the counts and their growth are known exactly.
TEST_CASE("scaling_bench: --callgrind reads each command's instruction total, with the growth") {
  TempDir dir;
  fs::path fake = dir / "valgrind";
  {
    std::ofstream out(fake);
    out << "#!/bin/sh\n"
           "[ \"$1\" = --tool=callgrind ] || exit 9\n"
           "file=${2#--callgrind-out-file=}\n"
           "shift 2\n"
           "\"$@\" || exit $?\n"
           "echo \"events: Ir\" > \"$file\"\n"
           "echo \"summary: $(wc -c < \"$3\")000000\" >> \"$file\"\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  std::string old_path = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", (dir.path().string() + ":" + old_path).c_str(), 1);
  auto r = run_command({SCALING_BENCH, "--relax", RELAX_BINARY, "--sizes", "100,1000", "--shapes",
                        "bindings", "--stages", "check", "--callgrind"});
  setenv("PATH", old_path.c_str(), 1);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Millions of instructions") != std::string::npos);
  auto bytes = [&](int n) {
    auto g = run_command(
        {SCALING_BENCH, "--emit", "bindings", std::to_string(n), (dir / "m.relax").string()});
    REQUIRE(g.exit_code == 0);
    return static_cast<double>(fs::file_size(dir / "m.relax"));
  };
  double small = bytes(100), large = bytes(1000);
  char cell[64], expected[160];
  std::snprintf(cell, sizeof cell, "%.1f (%.1fx)", large, large / small);
  std::snprintf(expected, sizeof expected, "%-10s %8d %18.1f\n%-10s %8d %18s\n", "bindings", 100,
                small, "bindings", 1000, cell);
  CHECK(r.out.find(expected) != std::string::npos);
}

// A command that gives no count (valgrind missing or failing) is a failed cell, not a zero.
TEST_CASE("scaling_bench: --callgrind without a count is a failure") {
  TempDir dir;
  fs::path fake = dir / "valgrind";
  {
    std::ofstream out(fake);
    out << "#!/bin/sh\nexit 0\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  std::string old_path = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", (dir.path().string() + ":" + old_path).c_str(), 1);
  auto r = run_command({SCALING_BENCH, "--relax", RELAX_BINARY, "--sizes", "10", "--shapes",
                        "bindings", "--stages", "check", "--callgrind"});
  setenv("PATH", old_path.c_str(), 1);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("exit 127") != std::string::npos);
}
