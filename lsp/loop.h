// The server's event loop (libuv): input, output, timers and the results that worker threads
// hand back all run on its one thread, which alone touches the server's state.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace relax::lsp {

class Loop {
 public:
  Loop();
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  uv_loop_t* uv() { return &loop_; }
  // Runs `task` on the loop thread soon; callable from any thread.
  void post(std::function<void()> task);
  // Runs until stop() (or nothing is left to wait for).
  void run();
  // Ends run() after the current callback; loop thread only.
  void stop();

 private:
  static void on_async(uv_async_t* handle);
  uv_loop_t loop_;
  uv_async_t async_;
  std::mutex mutex_;
  std::vector<std::function<void()>> posted_;
  bool closing_ = false;
};

// A one-shot timer on the loop (loop thread only). Destroying it cancels it.
class Timer {
 public:
  explicit Timer(Loop& loop);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  // (Re)starts the timer: `fire` runs once after `ms` milliseconds unless restarted or stopped.
  void start(uint64_t ms, std::function<void()> fire);
  void stop();

 private:
  struct State;
  State* state_;  // freed by libuv's close callback
};

}  // namespace relax::lsp
