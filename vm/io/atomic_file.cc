// Atomic output files: a temporary file beside the destination, checked writes, fsync, the
// replaced file's mode and owner, a rename; temporaries removed on failure and on SIGINT/SIGTERM/
// SIGHUP.
#include "vm/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace relax::vm {

namespace {

std::string reason(int err) {
  return std::strerror(err);
}

// ---- removing temporaries when the process is killed ----
// Fixed slots, so the handler only reads memory that stays valid: state 0 free, 1 being filled,
// 2 holds a path to remove.
constexpr int kSlots = 16;
std::atomic<int> g_state[kSlots];
char g_paths[kSlots][PATH_MAX];

extern "C" void remove_temporaries_and_die(int sig) {
  for (int i = 0; i < kSlots; ++i) {
    if (g_state[i].load() == 2) ::unlink(g_paths[i]);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Installs the handler for the signals at their default action, each time a temporary is made
// (a program that handles them itself keeps its handlers; one that resets them gets ours again).
void install_handlers() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

int register_temporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  install_handlers();
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_state[i].compare_exchange_strong(expected, 1)) {
      std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
      g_state[i].store(2);
      return i;
    }
  }
  return -1;  // best effort: more temporaries at once than slots
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_state[slot].store(0);
}

// 0666 less the umask. The umask is read from /proc (setting it to read it back would race with
// files other threads create); the umask() round trip only where /proc has no Umask line.
mode_t default_mode() {
  mode_t mask = 0;
  bool found = false;
  if (FILE* f = std::fopen("/proc/self/status", "re")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      if (std::strncmp(line, "Umask:", 6) == 0) {
        mask = static_cast<mode_t>(std::strtoul(line + 6, nullptr, 8));
        found = true;
        break;
      }
    }
    std::fclose(f);
  }
  if (!found) {
    mask = ::umask(0);
    ::umask(mask);
  }
  return 0666 & ~mask;
}

// Gives `path` the mode, owner and group of the existing regular file `like` (owner and group
// only where permitted: a failed chown is not an error).
void copy_attributes(const std::string& path, const struct stat& like) {
  if (::chown(path.c_str(), like.st_uid, like.st_gid) != 0) {
    (void)::chown(path.c_str(), static_cast<uid_t>(-1), like.st_gid);
  }
  // After chown, which may clear set-user-ID bits.
  (void)::chmod(path.c_str(), like.st_mode & 07777);
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{"cannot write " + path + ": " + reason(errno)};
    }
    written += static_cast<size_t>(n);
  }
  return {};
}

}  // namespace

std::string resolve_output_path(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::vector<char> buf(static_cast<size_t>(st.st_size > 0 ? st.st_size : PATH_MAX) + 1);
    ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size());
    if (n < 0 || static_cast<size_t>(n) >= buf.size()) return p;
    std::string target(buf.data(), static_cast<size_t>(n));
    if (!target.empty() && target[0] != '/') {
      size_t slash = p.rfind('/');
      if (slash != std::string::npos) target = p.substr(0, slash + 1) + target;
    }
    p = target;
  }
  return p;  // a loop: the rename reports it
}

Result<TempFile> TempFile::create(const std::string& destination, const std::string& suffix) {
  std::string resolved = resolve_output_path(destination);
  size_t slash = resolved.rfind('/');
  std::string dir = slash == std::string::npos ? "." : resolved.substr(0, slash == 0 ? 1 : slash);
  std::string name = slash == std::string::npos ? resolved : resolved.substr(slash + 1);
  // `.NAME.XXXXXX` + suffix must be a valid file name: a long NAME is shortened.
  size_t room = NAME_MAX - 8 - suffix.size();
  if (name.size() > room) name.resize(room);
  std::string tmpl = dir + (dir == "/" ? "" : "/") + "." + name + ".XXXXXX" + suffix;
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = ::mkostemps(buf.data(), static_cast<int>(suffix.size()), O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return Error{"cannot create a temporary file in " + dir + " (to write " + destination +
                 "): " + reason(err)};
  }
  std::string path(buf.data());
  if (::fchmod(fd, default_mode()) != 0) {
    int err = errno;
    ::close(fd);
    ::unlink(path.c_str());
    return Error{"cannot write " + destination + ": " + reason(err)};
  }
  return TempFile(std::move(resolved), std::move(path), fd);
}

TempFile::TempFile(std::string destination, std::string path, int fd)
    : destination_(std::move(destination)), path_(std::move(path)), fd_(fd), live_(true) {
  slot_ = register_temporary(path_);
}

TempFile::TempFile(TempFile&& other) noexcept
    : destination_(std::move(other.destination_)),
      path_(std::move(other.path_)),
      fd_(other.fd_),
      slot_(other.slot_),
      live_(other.live_) {
  other.fd_ = -1;
  other.slot_ = -1;
  other.live_ = false;
}

TempFile::~TempFile() {
  remove();
}

Status TempFile::write(std::string_view bytes) {
  if (fd_ < 0) return Error{"cannot write " + destination_ + ": the temporary file is closed"};
  return write_all(fd_, bytes, destination_);
}

Status TempFile::close() {
  if (fd_ < 0) return {};
  int fd = fd_;
  fd_ = -1;
  int err = 0;
  if (::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) return Error{"cannot write " + destination_ + ": " + reason(err)};
  return {};
}

Status TempFile::commit() {
  if (!live_) return Error{"cannot write " + destination_ + ": nothing to commit"};
  if (Status s = close(); !s) return s;
  struct stat st {};
  if (::stat(destination_.c_str(), &st) == 0 && S_ISREG(st.st_mode)) copy_attributes(path_, st);
  if (::rename(path_.c_str(), destination_.c_str()) != 0) {
    int err = errno;
    return Error{"cannot write " + destination_ + ": " + reason(err)};
  }
  unregister_temporary(slot_);
  slot_ = -1;
  live_ = false;
  return {};
}

void TempFile::remove() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (live_) ::unlink(path_.c_str());
  unregister_temporary(slot_);
  slot_ = -1;
  live_ = false;
}

Status write_file_atomically(const std::string& path, std::string_view bytes) {
  std::string resolved = resolve_output_path(path);
  struct stat st {};
  if (::stat(resolved.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return Error{"cannot write " + path + ": it is a directory"};
    // A device or a FIFO: written in place (a rename would replace the device node).
    int fd = ::open(resolved.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      return Error{"cannot write " + path + ": " + reason(err)};
    }
    Status s = write_all(fd, bytes, path);
    if (::close(fd) != 0 && s) {
      int err = errno;
      return Error{"cannot write " + path + ": " + reason(err)};
    }
    return s;
  }
  Result<TempFile> tmp = TempFile::create(path);
  if (!tmp) return tmp.error();
  if (Status s = tmp->write(bytes); !s) return s;
  return tmp->commit();
}

}  // namespace relax::vm
