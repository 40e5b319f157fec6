// The thread pool: static chunks cover the range once, nested and concurrent loops run
// serially, statuses propagate, and idle workers sleep instead of spinning.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "tests/vm/vm_test_util.h"
#include "vm/thread_pool.h"

namespace relax::vm::test {
namespace {

TEST_CASE("parallel_for covers the range once in contiguous static chunks", "[vm][pool]") {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    for (int64_t extent : {0, 1, 2, 5, 8, 1000, 100003}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(extent));
      std::mutex mu;
      std::vector<std::pair<int64_t, int64_t>> chunks;
      auto body = [&](int64_t begin, int64_t end) -> int32_t {
        for (int64_t i = begin; i < end; ++i) hits[static_cast<size_t>(i)]++;
        std::lock_guard lock(mu);
        chunks.emplace_back(begin, end);
        return 0;
      };
      REQUIRE(pool.parallel_for(extent, body) == 0);
      for (auto& h : hits) REQUIRE(h.load() == 1);
      std::sort(chunks.begin(), chunks.end());
      CHECK(static_cast<int64_t>(chunks.size()) == std::min<int64_t>(threads, extent));
      int64_t at = 0;
      for (auto [b, e] : chunks) {
        CHECK(b == at);
        CHECK(e - b >= extent / threads);
        CHECK(e - b <= extent / threads + 1);
        at = e;
      }
      CHECK(at == extent);
    }
  }
}

TEST_CASE("repeated loops reuse the workers", "[vm][pool]") {
  ThreadPool pool(4);
  std::atomic<int64_t> total{0};
  for (int round = 0; round < 2000; ++round) {
    auto body = [&](int64_t b, int64_t e) -> int32_t {
      total += e - b;
      return 0;
    };
    REQUIRE(pool.parallel_for(64, body) == 0);
  }
  CHECK(total == 2000 * 64);
}

TEST_CASE("nested and concurrent loops run serially on the caller", "[vm][pool]") {
  ThreadPool pool(4);
  std::atomic<int64_t> inner_total{0};
  std::atomic<bool> nested_was_serial{true};
  auto outer = [&](int64_t b, int64_t e) -> int32_t {
    CHECK(ThreadPool::in_parallel_region());
    for (int64_t i = b; i < e; ++i) {
      std::thread::id me = std::this_thread::get_id();
      auto inner = [&](int64_t ib, int64_t ie) -> int32_t {
        if (std::this_thread::get_id() != me) nested_was_serial = false;
        inner_total += ie - ib;
        return 0;
      };
      if (pool.parallel_for(10, inner) != 0) return 1;
    }
    return 0;
  };
  CHECK_FALSE(ThreadPool::in_parallel_region());
  REQUIRE(pool.parallel_for(8, outer) == 0);
  CHECK(inner_total == 80);
  CHECK(nested_was_serial);

  std::atomic<int64_t> sum{0};
  auto work = [&] {
    for (int r = 0; r < 200; ++r) {
      auto body = [&](int64_t b, int64_t e) -> int32_t {
        for (int64_t i = b; i < e; ++i) sum += i;
        return 0;
      };
      REQUIRE(pool.parallel_for(100, body) == 0);
    }
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  CHECK(sum == 2 * 200 * 4950);
}

TEST_CASE("the first failing chunk's status is returned", "[vm][pool]") {
  ThreadPool pool(4);
  auto body = [&](int64_t b, int64_t) -> int32_t { return b == 0 ? 0 : 3; };
  CHECK(pool.parallel_for(4, body) == 3);
  auto throws = [&](int64_t b, int64_t) -> int32_t {
    if (b > 0) throw std::runtime_error("bodies must not throw");
    return 0;
  };
  CHECK(pool.parallel_for(4, throws) == -1);
  auto ok = [&](int64_t, int64_t) -> int32_t { return 0; };
  CHECK(pool.parallel_for(4, ok) == 0);
}

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

TEST_CASE("idle workers sleep instead of burning CPU", "[vm][pool]") {
  ThreadPool pool(4);
  auto body = [&](int64_t, int64_t) -> int32_t { return 0; };
  for (int i = 0; i < 10; ++i) REQUIRE(pool.parallel_for(4, body) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spin window
  double before = process_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  double used = process_cpu_seconds() - before;
  // Three spinning workers would use about 0.9 s here.
  CHECK(used < 0.03);
}

TEST_CASE("RELAX_NUM_THREADS sets the default pool size", "[vm][pool]") {
  const char* old = std::getenv("RELAX_NUM_THREADS");
  std::string saved = old ? old : "";
  setenv("RELAX_NUM_THREADS", "3", 1);
  CHECK(ThreadPool::default_num_threads() == 3);
  setenv("RELAX_NUM_THREADS", "zero", 1);
  CHECK(ThreadPool::default_num_threads() ==
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  if (old) {
    setenv("RELAX_NUM_THREADS", saved.c_str(), 1);
  } else {
    unsetenv("RELAX_NUM_THREADS");
  }
  CHECK(ThreadPool(0).num_threads() == 1);
}

}  // namespace
}  // namespace relax::vm::test
