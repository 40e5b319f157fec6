// The CMake package: `cmake --install` into a temporary prefix, then examples/cpp configured and
// built as a project of its own with find_package(relax) against it, its program run and its
// plugin loaded by the installed `relax`. Builds one small project (about half a minute).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/test_util.h"

namespace fs = std::filesystem;
using relax::test::run_command;

namespace {

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() / ("relax_package_test_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

void require_ok(const relax::test::CommandResult& r) {
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

}  // namespace

TEST_CASE("package: examples/cpp builds out of tree against an installed relax") {
  TempDir dir;
  fs::path prefix = dir / "prefix", build = dir / "build";
  const std::string cmake = RELAX_CMAKE_COMMAND;
  require_ok(run_command({cmake, "--install", RELAX_BUILD_DIR, "--prefix", prefix.string()}));
  for (const char* file :
       {"bin/relax", "include/relax/compiler/plugin.h",
        "include/relax/compiler/tir/schedule/schedule.h", "include/relax/relax_version.h",
        "lib/librelax_compiler.a", "lib/cmake/relax/relaxConfig.cmake",
        "lib/cmake/relax/relaxConfigVersion.cmake", "lib/cmake/relax/relaxTargets.cmake"}) {
    INFO(file);
    CHECK(fs::exists(prefix / file));
  }

  std::vector<std::string> configure = {cmake,
                                        "-S",
                                        (relax::test::source_dir() / "examples" / "cpp").string(),
                                        "-B",
                                        build.string(),
                                        "-G",
                                        "Ninja",
                                        "-DCMAKE_PREFIX_PATH=" + prefix.string(),
                                        "-DCMAKE_CXX_COMPILER=" RELAX_CXX_COMPILER};
  if (std::string(RELAX_CXX_COMPILER_LAUNCHER).size())
    configure.push_back("-DCMAKE_CXX_COMPILER_LAUNCHER=" RELAX_CXX_COMPILER_LAUNCHER);
  if (std::string(RELAX_CONSUMER_FLAGS).size()) {
    for (const char* var :
         {"CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS", "CMAKE_MODULE_LINKER_FLAGS"})
      configure.push_back(std::string("-D") + var + "=" RELAX_CONSUMER_FLAGS);
  }
  auto configured = run_command(configure);
  require_ok(configured);
  // The package was found in the prefix, with the libraries' own dependencies.
  CHECK(relax::test::read_file(build / "CMakeCache.txt")
            .find("relax_DIR:PATH=" + (prefix / "lib" / "cmake" / "relax").string()) !=
        std::string::npos);
  require_ok(run_command({cmake, "--build", build.string()}));

  // The C++ API program: the scheduled build computes what the default build does.
  auto program = run_command({(build / "schedule_matmul").string()});
  require_ok(program);
  CHECK(program.out.find("for i1_1 in T.vectorized(T.int64(4)):") != std::string::npos);
  CHECK(program.out.find("largest difference: 0\n") != std::string::npos);

  // The plugin, loaded by the installed relax.
  relax::test::write_file(dir / "m.relax", R"(@R.function
def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")):
    with R.dataflow():
        t = R.multiply(x, y)
        u = R.add(t, y)
        R.output(u)
    return u
)");
  auto opt = run_command({(prefix / "bin" / "relax").string(), "opt", (dir / "m.relax").string(),
                          "--load-pass-plugin", (build / "libfuse_multiply_add.so").string(), "-p",
                          "FuseMultiplyAdd"});
  require_ok(opt);
  CHECK(opt.out.find("u: R.Tensor((4,), dtype=\"float32\") = R.ewise_fma(x, y, y)") !=
        std::string::npos);
  CHECK(opt.out.find("R.multiply") == std::string::npos);
}
