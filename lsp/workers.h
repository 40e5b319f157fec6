// The worker pool that runs analysis off the loop thread: jobs in FIFO order on a fixed number
// of threads, each with a stack as large as the `relax` command's (the front end's walks are
// bounded by depth limits, not by the stack). A job that throws is the job's problem: the pool
// catches nothing, so jobs wrap their own work.
#pragma once

#include <pthread.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

namespace relax::lsp {

class WorkerPool {
 public:
  static constexpr size_t kStackBytes = size_t{256} << 20;

  // `threads` 0: as many as the machine has cores, at most 4.
  explicit WorkerPool(size_t threads = 0);
  // Waits for the running jobs; queued ones are dropped.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void submit(std::function<void()> job);
  size_t size() const { return threads_.size(); }

 private:
  static void* main(void* self);
  void work();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<pthread_t> threads_;
};

}  // namespace relax::lsp
