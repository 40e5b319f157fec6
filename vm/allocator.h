// Memory for tensors: an Allocator hands out 64-byte aligned blocks on one device. The pooled
// allocator keeps freed blocks in size classes (four per power of two, so at most 25% slack)
// and hands them out again, so a model that runs many times allocates from the system only on
// its first call: page faults, not arithmetic, dominate small calls otherwise.
#pragma once

#include <dlpack/dlpack.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "vm/device.h"

namespace relax::vm {

inline constexpr size_t kTensorAlignment = 64;

struct AllocatorStats {
  int64_t system_allocs = 0;  // blocks obtained from the device
  int64_t reuses = 0;         // requests served from the pool
  int64_t releases = 0;       // blocks given back to the allocator
  int64_t bytes_in_use = 0;   // size-class bytes handed out and not yet released
  int64_t bytes_cached = 0;   // size-class bytes kept in the pool
};

class Allocator {
 public:
  // The largest request any allocator accepts (2^62 bytes): size arithmetic on bigger values
  // (rounding to a size class, adding a header) could wrap around to a small block.
  static constexpr size_t kMaxBytes = size_t{1} << 62;

  virtual ~Allocator() = default;
  virtual DLDevice device() const = 0;
  // A block of at least `nbytes` (64-byte aligned); throws VMError when the device is out of
  // memory. Release it with the same `nbytes`.
  virtual void* allocate(size_t nbytes) = 0;
  virtual void release(void* ptr, size_t nbytes) = 0;
  virtual AllocatorStats stats() const = 0;
};

class PooledAllocator final : public Allocator {
 public:
  // `max_cached_bytes` bounds what the pool keeps; beyond it, released blocks go back to the
  // device.
  explicit PooledAllocator(DLDevice device = kCPU, size_t max_cached_bytes = SIZE_MAX);
  ~PooledAllocator() override;

  DLDevice device() const override { return device_; }
  void* allocate(size_t nbytes) override;
  void release(void* ptr, size_t nbytes) override;
  AllocatorStats stats() const override;
  // Gives every cached block back to the device.
  void release_cached();

  // The size class a request falls in: its index and the bytes actually reserved.
  static size_t size_class(size_t nbytes, size_t* index);

 private:
  static constexpr size_t kNumClasses = 256;
  DLDevice device_;
  DeviceAPI* api_;
  size_t max_cached_;
  mutable std::mutex mu_;
  std::array<std::vector<void*>, kNumClasses> free_;
  AllocatorStats stats_;
};

// The process-wide pooled allocator of a device (created on first use, never destroyed).
std::shared_ptr<Allocator> default_allocator(DLDevice device = kCPU);

}  // namespace relax::vm
