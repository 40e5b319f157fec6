// The server's log (`relax lsp --log FILE --log-level LEVEL`): timestamped lines on standard
// error or in a file, from any thread. Never on standard output, which carries the protocol.
#pragma once

#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace relax::lsp {

enum class LogLevel { kError, kWarning, kInfo, kDebug };

// "error", "warning", "info", "debug" (also "verbose" for debug, "warn"); nullopt otherwise.
std::optional<LogLevel> parse_log_level(std::string_view name);

class Log {
 public:
  // Logs to standard error.
  explicit Log(LogLevel level = LogLevel::kInfo) : level_(level) {}
  ~Log();
  // Logs to `path` (appending); false with the file left unset when it cannot be opened.
  bool open(const std::string& path);
  bool enabled(LogLevel level) const { return level <= level_; }
  void write(LogLevel level, std::string_view message);
  void error(std::string_view m) { write(LogLevel::kError, m); }
  void warning(std::string_view m) { write(LogLevel::kWarning, m); }
  void info(std::string_view m) { write(LogLevel::kInfo, m); }
  void debug(std::string_view m) { write(LogLevel::kDebug, m); }

 private:
  LogLevel level_;
  std::mutex mutex_;
  FILE* file_ = nullptr;  // null: standard error
};

}  // namespace relax::lsp
