// The profiler: per function and kernel, the number of calls and the time spent (kernels,
// externs and builtins: their own time; VM functions: inclusive of what they call), rendered
// as a table sorted by total time with each row's share of the profiled wall time, and
// optionally every call as a Chrome trace event (chrome://tracing, Perfetto). A VM with no
// profiler attached runs a dispatch loop compiled without any timing code.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vm/result.h"

namespace relax::vm {

class Profiler {
 public:
  using Clock = std::chrono::steady_clock;

  // `trace`: also keep one event per call for chrome_trace().
  explicit Profiler(bool trace = false);

  // The id of an entry (created on first use).
  int32_t intern(std::string_view name, std::string_view kind);
  // Hot path: one call of entry `id`.
  void record(int32_t id, Clock::time_point start, Clock::time_point end, int32_t tid = 0) {
    Entry& e = entries_[static_cast<size_t>(id)];
    int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    ++e.calls;
    e.total_ns += ns;
    if (trace_) events_.push_back({id, tid, since_origin(start), ns});
  }
  // One top-level invocation (the wall time shares are computed against).
  void record_invocation(Clock::time_point start, Clock::time_point end) {
    ++invocations_;
    wall_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  }
  void reset();

  struct Row {
    std::string name;
    std::string kind;
    int64_t calls = 0;
    int64_t total_ns = 0;
    double mean_ns = 0;
    double share = 0;  // of the wall time (0..1)
  };
  // Entries that were called, by total time, longest first.
  std::vector<Row> rows() const;
  int64_t wall_ns() const { return wall_ns_; }
  int64_t invocations() const { return invocations_; }
  bool tracing() const { return trace_; }

  // The aligned text table (`relax run --profile`).
  std::string table() const;
  // The Chrome trace JSON: {"traceEvents": [{"name", "cat", "ph": "X", "ts", "dur", "pid",
  // "tid"}, ...]} with times in microseconds.
  std::string chrome_trace() const;
  Status write_chrome_trace(const std::string& path) const;

 private:
  struct Entry {
    std::string name;
    std::string kind;
    int64_t calls = 0;
    int64_t total_ns = 0;
  };
  struct Event {
    int32_t id;
    int32_t tid;
    int64_t start_ns;
    int64_t dur_ns;
  };
  int64_t since_origin(Clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - origin_).count();
  }

  bool trace_;
  Clock::time_point origin_;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, int32_t> index_;
  std::vector<Event> events_;
  int64_t wall_ns_ = 0;
  int64_t invocations_ = 0;
};

// "12 ns", "3.45 us", "6.78 ms", "1.23 s".
std::string format_duration(double ns);

}  // namespace relax::vm
