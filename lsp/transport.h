// JSON-RPC messages over a pair of file descriptors (stdin and stdout): bytes read on the loop
// (a pipe or terminal through libuv's streams, a regular file through its file reads) are
// framed by MessageReader; messages are written whole, in the order sent.
#pragma once

#include <uv.h>

#include <functional>
#include <string>

#include "lsp/framing.h"
#include "lsp/loop.h"
#include "lsp/protocol.h"

namespace relax::lsp {

class Transport {
 public:
  Transport(Loop& loop, int in_fd, int out_fd);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Starts reading: `on_frame` for each message, then `on_end` once at the end of the input
  // (or when it cannot be read).
  void start(std::function<void(Frame)> on_frame, std::function<void()> on_end);
  // Writes one message (loop thread). False when the output is gone.
  bool send(const json& message);

 private:
  void received(const char* data, size_t size);
  void ended();
  void read_file();

  Loop& loop_;
  int in_fd_, out_fd_;
  MessageReader reader_;
  std::function<void(Frame)> on_frame_;
  std::function<void()> on_end_;
  bool ended_ = false;
  bool output_broken_ = false;
  // The input as a libuv stream (pipe, terminal), or null for a file read with uv_fs_read.
  uv_stream_t* stream_ = nullptr;
  uv_fs_t file_request_;
  std::string file_buffer_;
  int64_t file_offset_ = 0;
  bool file_reading_ = false;
};

}  // namespace relax::lsp
