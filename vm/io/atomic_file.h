// Writing output files so that nobody sees half of one and a failed write leaves the previous
// file as it was: a temporary file beside the destination, then a rename. The one home for every
// file the toolkit writes (the command line, the runtime's .npy/.safetensors/executable/trace
// writers, the compiler's library writer).
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "vm/result.h"

namespace relax::vm {

// The file a path names for writing: symbolic links followed (a link's target may not exist
// yet; relative targets are taken from the link's folder). The path itself when it is no link.
std::string resolve_output_path(const std::string& path);

// Writes `bytes` to `path`:
//  * through a temporary file in the destination's folder, flushed (fsync) and renamed over it;
//  * a symbolic link is followed: its target is replaced and the link stays a link;
//  * the replaced file keeps its mode, and its owner and group where the process may set them
//    (root, or a group it belongs to); a new file gets 0666 less the umask;
//  * something that exists and is not a regular file (/dev/null, /dev/stdout, a FIFO) is written
//    in place, every write checked;
//  * on any failure the temporary file is removed, the previous file is untouched, and the error
//    names the path and the reason.
Status write_file_atomically(const std::string& path, std::string_view bytes);

// A temporary file beside a destination, for writers that produce the file in steps or through
// another program (the linker): removed when destroyed unless committed, and (best effort) when
// the process is killed by SIGINT, SIGTERM or SIGHUP while they have their default action.
class TempFile {
 public:
  // Creates `.NAME.XXXXXX` + suffix in the folder of `destination` (resolved as above), empty and
  // open for writing, mode 0666 less the umask.
  static Result<TempFile> create(const std::string& destination, const std::string& suffix = "");
  TempFile(TempFile&& other) noexcept;
  TempFile& operator=(TempFile&&) = delete;
  TempFile(const TempFile&) = delete;
  ~TempFile();

  const std::string& path() const { return path_; }
  // The open descriptor; -1 after close().
  int fd() const { return fd_; }
  // Writes all of `bytes` at the current offset.
  Status write(std::string_view bytes);
  // Flushes to disk and closes (also when another program wrote the file by its path).
  Status close();
  // Renames the file over the destination (closing it first), with the mode, owner and group of
  // the file it replaces; the temporary path is then no longer removed.
  Status commit();
  // Removes the file now (what the destructor does).
  void remove();

 private:
  TempFile(std::string destination, std::string path, int fd);
  std::string destination_;  // resolved
  std::string path_;
  int fd_ = -1;
  int slot_ = -1;  // in the signal-cleanup table
  bool live_ = false;
};

}  // namespace relax::vm
