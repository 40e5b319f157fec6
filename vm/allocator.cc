// The pooled allocator.
#include "vm/allocator.h"

#include <bit>
#include <map>

#include "vm/result.h"

namespace relax::vm {

PooledAllocator::PooledAllocator(DLDevice device, size_t max_cached_bytes)
    : device_(device), api_(device_api(device.device_type)), max_cached_(max_cached_bytes) {
  if (!api_) throw_error("no implementation is registered for device " + device_name(device));
}

PooledAllocator::~PooledAllocator() {
  release_cached();
}

// The bytes of size class `i` (the inverse of size_class).
static size_t class_bytes(size_t i) {
  if (i < 4) return (i + 1) * 64;
  size_t k = 8 + (i - 4) / 4, j = (i - 4) % 4 + 1;
  return (size_t{1} << k) + j * (size_t{1} << (k - 2));
}

size_t PooledAllocator::size_class(size_t nbytes, size_t* index) {
  if (nbytes <= 256) {
    size_t c = nbytes == 0 ? 1 : (nbytes + 63) / 64;
    *index = c - 1;
    return c * 64;
  }
  int k = std::bit_width(nbytes - 1) - 1;  // 2^k < nbytes <= 2^(k+1), k >= 8
  size_t step = size_t{1} << (k - 2);
  size_t j = (nbytes - 1 - (size_t{1} << k)) / step + 1;  // 1..4
  *index = 4 + static_cast<size_t>(k - 8) * 4 + (j - 1);
  return (size_t{1} << k) + j * step;
}

void* PooledAllocator::allocate(size_t nbytes) {
  if (nbytes > kMaxBytes) throw_error("cannot allocate " + std::to_string(nbytes) + " bytes");
  size_t index;
  size_t size = size_class(nbytes, &index);
  if (index >= kNumClasses) throw_error("cannot allocate " + std::to_string(nbytes) + " bytes");
  {
    std::lock_guard lock(mu_);
    auto& list = free_[index];
    if (!list.empty()) {
      void* p = list.back();
      list.pop_back();
      ++stats_.reuses;
      stats_.bytes_cached -= static_cast<int64_t>(size);
      stats_.bytes_in_use += static_cast<int64_t>(size);
      return p;
    }
  }
  void* p = api_->alloc(device_, size, kTensorAlignment);
  if (!p) {
    // Out of memory: give the cache back and try once more.
    release_cached();
    p = api_->alloc(device_, size, kTensorAlignment);
  }
  if (!p) {
    throw_error("out of memory allocating " + std::to_string(nbytes) + " bytes on " +
                device_name(device_));
  }
  std::lock_guard lock(mu_);
  ++stats_.system_allocs;
  stats_.bytes_in_use += static_cast<int64_t>(size);
  return p;
}

void PooledAllocator::release(void* ptr, size_t nbytes) {
  if (!ptr) return;
  size_t index;
  size_t size = size_class(nbytes, &index);
  {
    std::lock_guard lock(mu_);
    ++stats_.releases;
    stats_.bytes_in_use -= static_cast<int64_t>(size);
    if (static_cast<size_t>(stats_.bytes_cached) + size <= max_cached_) {
      free_[index].push_back(ptr);
      stats_.bytes_cached += static_cast<int64_t>(size);
      return;
    }
  }
  api_->free(device_, ptr, size);
}

AllocatorStats PooledAllocator::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void PooledAllocator::release_cached() {
  std::array<std::vector<void*>, kNumClasses> blocks;
  {
    std::lock_guard lock(mu_);
    blocks.swap(free_);
    stats_.bytes_cached = 0;
  }
  for (size_t i = 0; i < kNumClasses; ++i) {
    if (blocks[i].empty()) continue;
    for (void* p : blocks[i]) api_->free(device_, p, class_bytes(i));
  }
}

std::shared_ptr<Allocator> default_allocator(DLDevice device) {
  static std::mutex mu;
  static auto* allocators = new std::map<std::pair<int, int>, std::shared_ptr<Allocator>>;
  std::lock_guard lock(mu);
  auto& a = (*allocators)[{device.device_type, device.device_id}];
  if (!a) a = std::make_shared<PooledAllocator>(device);
  return a;
}

}  // namespace relax::vm
