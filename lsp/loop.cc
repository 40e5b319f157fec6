#include "lsp/loop.h"

#include <stdexcept>
#include <utility>

namespace relax::lsp {

Loop::Loop() {
  if (uv_loop_init(&loop_) != 0) throw std::runtime_error("cannot start the event loop");
  uv_async_init(&loop_, &async_, &Loop::on_async);
  async_.data = this;
}

Loop::~Loop() {
  {
    // Tasks posted now would find their owners gone.
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    posted_.clear();
  }
  uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
  // Let every handle's close callback run, then free the loop.
  uv_run(&loop_, UV_RUN_DEFAULT);
  uv_loop_close(&loop_);
}

void Loop::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return;
    posted_.push_back(std::move(task));
  }
  uv_async_send(&async_);
}

void Loop::on_async(uv_async_t* handle) {
  auto* self = static_cast<Loop*>(handle->data);
  std::vector<std::function<void()>> tasks;
  {
    std::lock_guard<std::mutex> lock(self->mutex_);
    tasks.swap(self->posted_);
  }
  for (auto& task : tasks) task();
}

void Loop::run() {
  // The async handle keeps the loop alive while workers may post.
  uv_run(&loop_, UV_RUN_DEFAULT);
}

void Loop::stop() {
  uv_stop(&loop_);
}

struct Timer::State {
  uv_timer_t handle;
  std::function<void()> fire;
};

Timer::Timer(Loop& loop) : state_(new State) {
  uv_timer_init(loop.uv(), &state_->handle);
  state_->handle.data = state_;
}

Timer::~Timer() {
  uv_timer_stop(&state_->handle);
  uv_close(reinterpret_cast<uv_handle_t*>(&state_->handle),
           [](uv_handle_t* h) { delete static_cast<State*>(h->data); });
}

void Timer::start(uint64_t ms, std::function<void()> fire) {
  state_->fire = std::move(fire);
  uv_timer_start(
      &state_->handle,
      [](uv_timer_t* h) {
        auto* state = static_cast<State*>(h->data);
        auto fire = std::move(state->fire);
        state->fire = nullptr;
        if (fire) fire();
      },
      ms, 0);
}

void Timer::stop() {
  uv_timer_stop(&state_->handle);
  state_->fire = nullptr;
}

}  // namespace relax::lsp
