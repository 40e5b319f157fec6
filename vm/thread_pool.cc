// The thread pool. Hand-offs use a generation counter: the caller publishes a job and bumps
// the generation; workers wait for it to change (spinning briefly, then sleeping), run their
// chunk and count down `pending_`. The two sleeps use the "store flag, then re-check under the
// mutex" protocol on sequentially consistent atomics, so no wake-up is lost and nobody pays for
// a notify when nobody sleeps.
#include "vm/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

namespace relax::vm {
namespace {

thread_local bool t_in_parallel = false;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins until `ready()` or about 20 µs have passed; returns whether it became ready.
template <class F>
bool spin_until(F&& ready) {
  constexpr auto kSpinTime = std::chrono::microseconds(20);
  auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 1;; ++i) {
    if (ready()) return true;
    cpu_relax();
    if ((i & 63) == 0 && std::chrono::steady_clock::now() - start > kSpinTime) return ready();
  }
}

}  // namespace

ThreadPool::ThreadPool(int num_threads) : num_threads_(std::max(1, num_threads)) {}

ThreadPool::~ThreadPool() {
  if (workers_.empty()) return;
  stop_.store(true, std::memory_order_seq_cst);
  generation_.fetch_add(1, std::memory_order_seq_cst);
  {
    std::lock_guard lock(mu_);
    wake_cv_.notify_all();
  }
  for (auto& t : workers_) t.join();
}

int ThreadPool::default_num_threads() {
  if (const char* env = std::getenv("RELAX_NUM_THREADS")) {
    char* end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= 1024) return static_cast<int>(n);
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

ThreadPool& ThreadPool::global() {
  // Never destroyed: kernels may still run from other static destructors at exit.
  static ThreadPool* pool = new ThreadPool(default_num_threads());
  return *pool;
}

bool ThreadPool::in_parallel_region() {
  return t_in_parallel;
}

void ThreadPool::start_workers() {
  // Called by the dispatcher before it publishes its first job: workers start from the current
  // generation (thread creation orders this read before the thread's first load).
  uint64_t gen = generation_.load(std::memory_order_relaxed);
  workers_.reserve(static_cast<size_t>(num_threads_ - 1));
  for (int i = 1; i < num_threads_; ++i) {
    workers_.emplace_back([this, i, gen] { worker_main(i, gen); });
  }
}

void ThreadPool::run_chunk(int index) {
  if (index >= num_chunks_) return;
  int64_t n = num_chunks_;
  int64_t base = extent_ / n, extra = extent_ % n;
  int64_t begin = index * base + std::min<int64_t>(index, extra);
  int64_t end = begin + base + (index < extra ? 1 : 0);
  bool outer = t_in_parallel;
  t_in_parallel = true;
  int32_t rc;
  try {
    rc = (*job_)(begin, end);
  } catch (...) {
    rc = -1;  // bodies must not throw; never let an exception leave a worker
  }
  t_in_parallel = outer;
  if (rc != 0) {
    int32_t expected = 0;
    status_.compare_exchange_strong(expected, rc);
  }
}

void ThreadPool::worker_main(int index, uint64_t seen) {
  for (;;) {
    auto changed = [&] { return generation_.load(std::memory_order_acquire) != seen; };
    if (!spin_until(changed)) {
      std::unique_lock lock(mu_);
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      wake_cv_.wait(lock, [&] { return generation_.load(std::memory_order_seq_cst) != seen; });
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    run_chunk(index);
    if (pending_.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
        caller_sleeping_.load(std::memory_order_seq_cst)) {
      std::lock_guard lock(mu_);
      done_cv_.notify_one();
    }
  }
}

int32_t ThreadPool::parallel_for(int64_t extent, RangeFn body) {
  if (extent <= 0) return 0;
  int chunks = static_cast<int>(std::min<int64_t>(num_threads_, extent));
  if (chunks <= 1 || t_in_parallel) return body(0, extent);
  std::unique_lock busy(dispatch_mu_, std::try_to_lock);
  if (!busy.owns_lock()) return body(0, extent);
  if (workers_.empty()) start_workers();
  job_ = &body;
  extent_ = extent;
  num_chunks_ = chunks;
  status_.store(0, std::memory_order_relaxed);
  pending_.store(num_threads_ - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_seq_cst);  // publishes the fields above
  if (sleepers_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard lock(mu_);
    wake_cv_.notify_all();
  }
  run_chunk(0);
  auto done = [&] { return pending_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(done)) {
    std::unique_lock lock(mu_);
    caller_sleeping_.store(true, std::memory_order_seq_cst);
    done_cv_.wait(lock, [&] { return pending_.load(std::memory_order_seq_cst) == 0; });
    caller_sleeping_.store(false, std::memory_order_relaxed);
  }
  job_ = nullptr;
  return status_.load(std::memory_order_relaxed);
}

}  // namespace relax::vm
