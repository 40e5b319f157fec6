#include "lsp/log.h"

#include <chrono>
#include <ctime>

namespace relax::lsp {

std::optional<LogLevel> parse_log_level(std::string_view name) {
  if (name == "error") return LogLevel::kError;
  if (name == "warning" || name == "warn") return LogLevel::kWarning;
  if (name == "info") return LogLevel::kInfo;
  if (name == "debug" || name == "verbose") return LogLevel::kDebug;
  return std::nullopt;
}

Log::~Log() {
  if (file_) std::fclose(file_);
}

bool Log::open(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (file_) std::fclose(file_);
  file_ = f;
  return true;
}

void Log::write(LogLevel level, std::string_view message) {
  if (!enabled(level)) return;
  static const char* const kTags[] = {"E", "W", "I", "D"};
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
  std::lock_guard<std::mutex> lock(mutex_);
  FILE* out = file_ ? file_ : stderr;
  std::fprintf(out, "%s[%s.%03d] %.*s\n", kTags[static_cast<int>(level)], stamp,
               static_cast<int>(ms), static_cast<int>(message.size()), message.data());
  std::fflush(out);
}

}  // namespace relax::lsp
