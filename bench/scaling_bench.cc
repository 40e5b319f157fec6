// Scaling benchmark: generates modules of growing size (N bindings in one function; N functions
// calling each other) and times `relax check`, `relax print`, `relax opt -p default` and
// `relax build -o OUT.so` on each through the real binary: the CPU time of each command (user +
// system, steady on a shared machine) and its growth per 10x of size (about 10 for linear work,
// 100 for quadratic). A program, not a test. With --callgrind it counts each command's
// instructions under valgrind instead: slow, but the count does not depend on the machine's load
// or caches, so its growth is the work's own.
// Usage: scaling_bench [--relax BIN] [--sizes 1000,10000,100000] [--shapes bindings,functions]
//                      [--stages check,print,opt,build] [--timeout CPU_SECONDS] [--keep DIR]
//                      [--callgrind]
//        scaling_bench --emit bindings|functions N FILE   (writes one generated module)
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// One function `main(x)` with `n` bindings in a dataflow block: y1 = x + x, yk = y(k-1) + x, so
// main returns (n + 1) * x.
std::string bindings_module(int n) {
  std::ostringstream s;
  s << "@I.ir_module\nclass Module:\n    @R.function\n"
       "    def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
       "        with R.dataflow():\n"
       "            y1 = R.add(x, x)\n";
  for (int k = 2; k <= n; ++k) s << "            y" << k << " = R.add(y" << (k - 1) << ", x)\n";
  s << "            R.output(y" << n << ")\n        return y" << n << "\n";
  return s.str();
}

// `n` functions: f0(x) = x + x, fk(x) = f(k-1)(x) + x, the last one named `main`, so main returns
// (n + 1) * x after a chain of n calls.
std::string functions_module(int n) {
  std::ostringstream s;
  s << "@I.ir_module\nclass Module:\n";
  auto name = [n](int k) { return k == n - 1 ? std::string("main") : "f" + std::to_string(k); };
  for (int k = 0; k < n; ++k) {
    s << "    @R.function\n    def " << name(k)
      << "(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n";
    if (k == 0) {
      s << "        y = R.add(x, x)\n";
    } else {
      s << "        cls = Module\n        with R.dataflow():\n            a = cls." << name(k - 1)
        << "(x)\n            y = R.add(a, x)\n            R.output(y)\n";
    }
    s << "        return y\n";
    if (k + 1 < n) s << "\n";
  }
  return s.str();
}

std::optional<std::string> generate(const std::string& shape, int n) {
  if (n < 1) return std::nullopt;
  if (shape == "bindings") return bindings_module(n);
  if (shape == "functions") return functions_module(n);
  return std::nullopt;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Timing {
  double seconds = 0;       // CPU time of the command, user + system
  double instructions = 0;  // with --callgrind: the instructions it ran (callgrind's Ir)
  double wall = 0;
  int exit_code = 0;
  bool timed_out = false;
};

// The instruction total of a callgrind output file ("summary: N" or "totals: N"), else 0.
double callgrind_total(const fs::path& file) {
  std::ifstream in(file);
  double total = 0;
  for (std::string line; std::getline(in, line);) {
    for (const char* key : {"summary: ", "totals: "}) {
      if (line.rfind(key, 0) == 0) total = std::max(total, std::atof(line.c_str() + strlen(key)));
    }
  }
  return total;
}

// Runs argv with stdout and stderr to /dev/null, stopped after `timeout` seconds of CPU time
// (RLIMIT_CPU: a loaded machine does not make a command time out). With a `callgrind_out` file
// the command runs under valgrind's callgrind, which writes its instruction count there.
Timing run_timed(std::vector<std::string> argv, double timeout, const fs::path& callgrind_out) {
  if (!callgrind_out.empty()) {
    fs::remove(callgrind_out);
    argv.insert(argv.begin(),
                {"valgrind", "--tool=callgrind", "--callgrind-out-file=" + callgrind_out.string()});
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  auto t0 = Clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    rlim_t limit = static_cast<rlim_t>(std::ceil(timeout));
    struct rlimit cpu {
      limit, limit + 5
    };
    setrlimit(RLIMIT_CPU, &cpu);
    execvp(args[0], args.data());
    _exit(127);
  }
  Timing t;
  if (pid < 0) {
    t.exit_code = -1;
    return t;
  }
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  t.wall = std::chrono::duration<double>(Clock::now() - t0).count();
  auto secs = [](const timeval& v) { return static_cast<double>(v.tv_sec) + v.tv_usec * 1e-6; };
  t.seconds = secs(usage.ru_utime) + secs(usage.ru_stime);
  t.timed_out = WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL);
  t.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (!callgrind_out.empty() && t.exit_code == 0) {
    t.instructions = callgrind_total(callgrind_out);
    if (t.instructions <= 0) t.exit_code = 127;  // no valgrind, or no count
  }
  return t;
}

std::string default_relax(const char* argv0) {
  // Next to this program: build/<preset>/bench/scaling_bench -> build/<preset>/cli/relax.
  fs::path self = fs::weakly_canonical(fs::path(argv0));
  return (self.parent_path().parent_path() / "cli" / "relax").string();
}

int usage() {
  std::fprintf(stderr,
               "usage: scaling_bench [--relax BIN] [--sizes 1000,10000,100000] "
               "[--shapes bindings,functions] [--stages check,print,opt,build] "
               "[--timeout CPU_SECONDS] [--keep DIR] [--callgrind]\n"
               "       scaling_bench --emit bindings|functions N FILE\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  if (!a.empty() && a[0] == "--emit") {
    if (a.size() != 4) return usage();
    auto text = generate(a[1], std::atoi(a[2].c_str()));
    if (!text) return usage();
    std::ofstream out(a[3], std::ios::binary);
    out << *text;
    return out.good() ? 0 : 2;
  }
  std::string relax = default_relax(argv[0]);
  std::vector<std::string> sizes = {"1000", "10000", "100000"};
  std::vector<std::string> shapes = {"bindings", "functions"};
  std::vector<std::string> stages = {"check", "print", "opt", "build"};
  double timeout = 600;
  std::string keep;
  bool callgrind = false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == "--callgrind") {
      callgrind = true;
      continue;
    }
    if (i + 1 >= a.size()) return usage();
    const std::string& v = a[i + 1];
    if (a[i] == "--relax")
      relax = v;
    else if (a[i] == "--sizes")
      sizes = split(v);
    else if (a[i] == "--shapes")
      shapes = split(v);
    else if (a[i] == "--stages")
      stages = split(v);
    else if (a[i] == "--timeout")
      timeout = std::atof(v.c_str());
    else if (a[i] == "--keep")
      keep = v;
    else
      return usage();
    ++i;
  }
  for (const auto& st : stages)
    if (st != "check" && st != "print" && st != "opt" && st != "build") return usage();
  if (access(relax.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "scaling_bench: no relax binary at %s (--relax BIN)\n", relax.c_str());
    return 2;
  }
  fs::path dir =
      keep.empty() ? fs::temp_directory_path() / ("relax_scaling_bench_" + std::to_string(getpid()))
                   : fs::path(keep);
  fs::create_directories(dir);

  std::printf("relax: %s\n%s per command (growth per 10x of size in parentheses)\n", relax.c_str(),
              callgrind ? "Millions of instructions (valgrind --tool=callgrind)"
                        : "CPU seconds, user + system,");
  std::printf("%-10s %8s", "shape", "size");
  for (const auto& st : stages) std::printf(" %18s", st.c_str());
  std::printf("\n");
  int failures = 0;
  for (const auto& shape : shapes) {
    std::map<std::string, std::pair<int, double>> previous;  // stage -> (size, measure)
    for (const auto& size_text : sizes) {
      int n = std::atoi(size_text.c_str());
      auto text = generate(shape, n);
      if (!text) return usage();
      fs::path file = dir / (shape + "_" + std::to_string(n) + ".relax");
      {
        std::ofstream out(file, std::ios::binary);
        out << *text;
      }
      std::printf("%-10s %8d", shape.c_str(), n);
      std::fflush(stdout);
      for (const auto& st : stages) {
        std::vector<std::string> cmd = {relax, st, file.string()};
        if (st == "opt") cmd.insert(cmd.end(), {"-p", "default"});
        if (st == "build") cmd.insert(cmd.end(), {"-o", (dir / (shape + ".so")).string()});
        Timing t = run_timed(cmd, timeout, callgrind ? dir / "callgrind.out" : fs::path());
        double measure = callgrind ? t.instructions / 1e6 : t.seconds;
        char cell[64];
        if (t.timed_out) {
          std::snprintf(cell, sizeof cell, ">%.0f (timeout)", timeout);
          ++failures;
        } else if (t.exit_code != 0) {
          std::snprintf(cell, sizeof cell, "exit %d", t.exit_code);
          ++failures;
        } else if (auto p = previous.find(st); p != previous.end() && p->second.second > 0) {
          double decades = std::log10(static_cast<double>(n) / p->second.first);
          double growth = decades > 0 ? std::pow(measure / p->second.second, 1 / decades) : 0;
          std::snprintf(cell, sizeof cell, callgrind ? "%.1f (%.1fx)" : "%.3f (%.1fx)", measure,
                        growth);
        } else {
          std::snprintf(cell, sizeof cell, callgrind ? "%.1f" : "%.3f", measure);
        }
        if (!t.timed_out && t.exit_code == 0)
          previous[st] = {n, measure};
        else
          previous.erase(st);
        std::printf(" %18s", cell);
        std::fflush(stdout);
      }
      std::printf("\n");
    }
  }
  if (keep.empty()) fs::remove_all(dir);
  return failures == 0 ? 0 : 1;
}
