// Profiler tables and Chrome traces.
#include "vm/profiler.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "vm/io/atomic_file.h"

namespace relax::vm {

Profiler::Profiler(bool trace) : trace_(trace), origin_(Clock::now()) {}

int32_t Profiler::intern(std::string_view name, std::string_view kind) {
  std::string key = std::string(kind) + '\0' + std::string(name);
  auto [it, inserted] = index_.emplace(key, static_cast<int32_t>(entries_.size()));
  if (inserted) entries_.push_back({std::string(name), std::string(kind), 0, 0});
  return it->second;
}

void Profiler::reset() {
  for (Entry& e : entries_) e.calls = e.total_ns = 0;
  events_.clear();
  wall_ns_ = invocations_ = 0;
  origin_ = Clock::now();
}

std::vector<Profiler::Row> Profiler::rows() const {
  int64_t denom = wall_ns_;
  if (denom == 0) {
    for (const Entry& e : entries_) denom += e.total_ns;
  }
  std::vector<Row> rows;
  for (const Entry& e : entries_) {
    if (e.calls == 0) continue;
    Row r{e.name,
          e.kind,
          e.calls,
          e.total_ns,
          static_cast<double>(e.total_ns) / static_cast<double>(e.calls),
          denom ? static_cast<double>(e.total_ns) / static_cast<double>(denom) : 0.0};
    rows.push_back(std::move(r));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return rows;
}

std::string format_duration(double ns) {
  char buf[32];
  if (ns < 1e3) {
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  } else if (ns < 1e6) {
    std::snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
  } else if (ns < 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f s", ns / 1e9);
  }
  return buf;
}

std::string Profiler::table() const {
  std::vector<Row> rs = rows();
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"name", "kind", "calls", "total", "mean", "share"});
  for (const Row& r : rs) {
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%", r.share * 100);
    cells.push_back({r.name, r.kind, std::to_string(r.calls),
                     format_duration(static_cast<double>(r.total_ns)), format_duration(r.mean_ns),
                     share});
  }
  std::vector<size_t> width(6, 0);
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string padding(width[c] - row[c].size(), ' ');
      if (c > 0) line += "  ";
      line += c < 2 ? row[c] + padding : padding + row[c];  // text left, numbers right
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += "wall time " + format_duration(static_cast<double>(wall_ns_)) + " in " +
         std::to_string(invocations_) + (invocations_ == 1 ? " invocation" : " invocations") +
         " (vm rows include the time of what they call)\n";
  return out;
}

static void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

std::string Profiler::chrome_trace() const {
  std::string out = "{\"traceEvents\": [\n";
  bool first = true;
  for (const Event& e : events_) {
    const Entry& entry = entries_[static_cast<size_t>(e.id)];
    if (!first) out += ",\n";
    first = false;
    out += "{\"name\": ";
    append_json_string(out, entry.name);
    out += ", \"cat\": ";
    append_json_string(out, entry.kind);
    char buf[128];
    std::snprintf(
        buf, sizeof buf, ", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": 1, \"tid\": %d}",
        static_cast<double>(e.start_ns) / 1e3, static_cast<double>(e.dur_ns) / 1e3, e.tid);
    out += buf;
  }
  out += "\n], \"displayTimeUnit\": \"ns\"}\n";
  return out;
}

Status Profiler::write_chrome_trace(const std::string& path) const {
  return write_file_atomically(path, chrome_trace());
}

}  // namespace relax::vm
