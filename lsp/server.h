// `relax lsp`: the language server. One loop thread owns the documents and speaks the protocol
// (lifecycle, every request answered exactly once, cancellation, debounced diagnostics); the
// features run on a worker pool over immutable document snapshots and their answers are
// dropped or refused (ContentModified) when the document changed meanwhile. docs/lsp.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lsp/log.h"

namespace relax::lsp {

struct ServerOptions {
  size_t workers = 0;  // 0: the machine's cores, at most 4
  // Diagnostics wait this long after a change (adaptive between the two: about as long as the
  // document's last check took), so a burst of keystrokes is checked once.
  uint64_t debounce_min_ms = 50;
  uint64_t debounce_max_ms = 500;
  Log* log = nullptr;  // null: no log
};

// Serves the protocol on the two file descriptors until `exit` or the end of the input. Returns
// the process's exit code: 0 after `shutdown` then `exit`, 1 otherwise.
int serve(int in_fd, int out_fd, const ServerOptions& options);

}  // namespace relax::lsp
