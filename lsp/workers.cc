#include "lsp/workers.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace relax::lsp {

WorkerPool::WorkerPool(size_t threads) {
  if (threads == 0) threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  for (size_t i = 0; i < threads; ++i) {
    pthread_attr_t attr;
    pthread_t thread;
    bool started = false;
    if (pthread_attr_init(&attr) == 0) {
      // A tight ulimit on address space may refuse the big stack: fall back to the default.
      started = (pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
                 pthread_create(&thread, &attr, &WorkerPool::main, this) == 0) ||
                pthread_create(&thread, nullptr, &WorkerPool::main, this) == 0;
      pthread_attr_destroy(&attr);
    }
    if (started) threads_.push_back(thread);
  }
  if (threads_.empty()) throw std::runtime_error("cannot start a worker thread");
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  ready_.notify_all();
  for (pthread_t t : threads_) pthread_join(t, nullptr);
}

void WorkerPool::submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void* WorkerPool::main(void* self) {
  static_cast<WorkerPool*>(self)->work();
  return nullptr;
}

void WorkerPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace relax::lsp
