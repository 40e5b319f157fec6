// The thread pool behind parallel loops: a fixed set of workers (by default one per hardware
// thread, RELAX_NUM_THREADS overrides), the calling thread taking the first chunk. Work is split
// statically into one contiguous chunk per thread. Idle workers spin for about 20 µs (a model's
// consecutive parallel kernels then start without a wake-up) and then sleep on a condition
// variable: a pool that keeps spinning collapses when the machine is shared. A parallel_for
// inside a parallel_for, or while another thread uses the pool, runs serially on the caller.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace relax::vm {

// A non-owning reference to a callable `int32_t(int64_t begin, int64_t end)`.
class RangeFn {
 public:
  template <class F>
  RangeFn(F& f)  // NOLINT: implicit, binds lambdas
      : obj_(&f), call_([](void* o, int64_t b, int64_t e) -> int32_t {
          return (*static_cast<F*>(o))(b, e);
        }) {}
  int32_t operator()(int64_t begin, int64_t end) const { return call_(obj_, begin, end); }

 private:
  void* obj_;
  int32_t (*call_)(void*, int64_t, int64_t);
};

class ThreadPool {
 public:
  // `num_threads` counts the caller: 1 means no workers.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The process-wide pool (RELAX_NUM_THREADS, else std::thread::hardware_concurrency()).
  static ThreadPool& global();
  static int default_num_threads();

  int num_threads() const { return num_threads_; }

  // Runs `body` over [0, extent) split into at most num_threads() chunks and returns the first
  // non-zero status a chunk returned (0 if all succeeded). Workers start on first use.
  int32_t parallel_for(int64_t extent, RangeFn body);
  template <class F>
  int32_t parallel_for(int64_t extent, F&& body) {
    auto& ref = body;
    return parallel_for(extent, RangeFn(ref));
  }

  // True on a thread currently running a chunk of some parallel_for.
  static bool in_parallel_region();

 private:
  void start_workers();
  void worker_main(int index, uint64_t seen);
  void run_chunk(int index);

  const int num_threads_;
  std::vector<std::thread> workers_;
  std::mutex dispatch_mu_;  // one parallel_for at a time; others run serially

  // The current job, published by bumping generation_.
  RangeFn* job_ = nullptr;
  int64_t extent_ = 0;
  int num_chunks_ = 0;
  std::atomic<int32_t> status_{0};

  std::atomic<uint64_t> generation_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<int> pending_{0};  // workers that have not finished the current job
  std::atomic<bool> caller_sleeping_{false};
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable wake_cv_;
  std::condition_variable done_cv_;
};

}  // namespace relax::vm
