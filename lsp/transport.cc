#include "lsp/transport.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace relax::lsp {

Transport::Transport(Loop& loop, int in_fd, int out_fd)
    : loop_(loop), in_fd_(in_fd), out_fd_(out_fd) {}

Transport::~Transport() {
  if (stream_) {
    uv_read_stop(stream_);
    uv_close(reinterpret_cast<uv_handle_t*>(stream_), [](uv_handle_t* h) {
      if (h->type == UV_TTY)
        delete reinterpret_cast<uv_tty_t*>(h);
      else
        delete reinterpret_cast<uv_pipe_t*>(h);
    });
  }
  if (file_reading_) uv_cancel(reinterpret_cast<uv_req_t*>(&file_request_));
}

void Transport::start(std::function<void(Frame)> on_frame, std::function<void()> on_end) {
  on_frame_ = std::move(on_frame);
  on_end_ = std::move(on_end);
  uv_handle_type type = uv_guess_handle(in_fd_);
  if (type == UV_TTY) {
    auto* tty = new uv_tty_t;
    if (uv_tty_init(loop_.uv(), tty, in_fd_, 1) == 0) {
      stream_ = reinterpret_cast<uv_stream_t*>(tty);
    } else {
      delete tty;
    }
  } else if (type == UV_NAMED_PIPE || type == UV_TCP) {
    auto* pipe = new uv_pipe_t;
    uv_pipe_init(loop_.uv(), pipe, 0);
    if (uv_pipe_open(pipe, in_fd_) == 0) {
      stream_ = reinterpret_cast<uv_stream_t*>(pipe);
    } else {
      uv_close(reinterpret_cast<uv_handle_t*>(pipe),
               [](uv_handle_t* h) { delete reinterpret_cast<uv_pipe_t*>(h); });
    }
  }
  if (!stream_) {
    // A regular file (a recorded session), or anything libuv cannot poll.
    file_buffer_.resize(1 << 16);
    read_file();
    return;
  }
  stream_->data = this;
  uv_read_start(
      stream_,
      [](uv_handle_t*, size_t suggested, uv_buf_t* buf) {
        buf->base = new char[suggested];
        buf->len = suggested;
      },
      [](uv_stream_t* stream, ssize_t n, const uv_buf_t* buf) {
        auto* self = static_cast<Transport*>(stream->data);
        if (n > 0) self->received(buf->base, static_cast<size_t>(n));
        delete[] buf->base;
        if (n < 0) self->ended();
      });
}

void Transport::read_file() {
  file_reading_ = true;
  file_request_.data = this;
  uv_buf_t buf = uv_buf_init(file_buffer_.data(), static_cast<unsigned>(file_buffer_.size()));
  int rc = uv_fs_read(loop_.uv(), &file_request_, in_fd_, &buf, 1, -1, [](uv_fs_t* req) {
    auto* self = static_cast<Transport*>(req->data);
    ssize_t n = req->result;
    uv_fs_req_cleanup(req);
    self->file_reading_ = false;
    if (n > 0) {
      self->file_offset_ += n;
      self->received(self->file_buffer_.data(), static_cast<size_t>(n));
      if (!self->ended_) self->read_file();
    } else {
      self->ended();
    }
  });
  if (rc != 0) {
    file_reading_ = false;
    ended();
  }
}

void Transport::received(const char* data, size_t size) {
  std::vector<Frame> frames;
  reader_.feed(std::string_view(data, size), frames);
  for (Frame& f : frames) {
    if (ended_) return;
    on_frame_(std::move(f));
  }
}

void Transport::ended() {
  if (ended_) return;
  ended_ = true;
  if (stream_) uv_read_stop(stream_);
  if (on_end_) on_end_();
}

bool Transport::send(const json& message) {
  if (output_broken_) return false;
  std::string bytes = frame(message.dump(-1, ' ', false, json::error_handler_t::replace));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(out_fd_, bytes.data() + done, bytes.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // The output shares a non-blocking file description with the input: wait until writable.
      pollfd p{out_fd_, POLLOUT, 0};
      ::poll(&p, 1, -1);
    } else {
      output_broken_ = true;
      return false;
    }
  }
  return true;
}

}  // namespace relax::lsp
