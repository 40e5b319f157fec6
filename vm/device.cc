// The CPU device and the registry of device implementations.
#include "vm/device.h"

#include <sys/mman.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace relax::vm {
namespace {

class CPUDeviceAPI final : public DeviceAPI {
 public:
  void* alloc(DLDevice, size_t nbytes, size_t alignment) override {
    if (nbytes >= kHugePageThreshold) {
      // Map one huge page more than needed and trim, so the block starts on a huge-page boundary
      // (the kernel backs only aligned 2 MiB ranges with huge pages).
      size_t size = round_up(nbytes, kHugePageThreshold);
      size_t mapped = size + kHugePageThreshold;
      void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) return nullptr;
      auto base = reinterpret_cast<uintptr_t>(p);
      uintptr_t aligned = round_up(base, kHugePageThreshold);
      if (aligned > base) munmap(p, aligned - base);
      if (size_t tail = base + mapped - (aligned + size)) {
        munmap(reinterpret_cast<void*>(aligned + size), tail);
      }
#ifdef MADV_HUGEPAGE
      madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
#endif
      return reinterpret_cast<void*>(aligned);
    }
    if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
    return std::aligned_alloc(alignment, round_up(nbytes == 0 ? 1 : nbytes, alignment));
  }
  void free(DLDevice, void* ptr, size_t nbytes) override {
    if (nbytes >= kHugePageThreshold) {
      munmap(ptr, round_up(nbytes, kHugePageThreshold));
    } else {
      std::free(ptr);
    }
  }
  void copy(void* dst, DLDevice, const void* src, DLDevice, size_t nbytes) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }

 private:
  static size_t round_up(size_t n, size_t a) {
    return (n + a - 1) / a * a;
  }
};

struct Registry {
  std::mutex mu;
  std::array<DeviceAPI*, 32> apis{};
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;  // immortal: tensors may be freed during static destruction
    static CPUDeviceAPI cpu;
    reg->apis[kDLCPU] = &cpu;
    return reg;
  }();
  return *r;
}

}  // namespace

std::string device_name(DLDevice device) {
  switch (device.device_type) {
    case kDLCPU:
      return "cpu";
    case kDLCUDA:
      return "cuda:" + std::to_string(device.device_id);
    case kDLCUDAHost:
      return "cuda_host";
    default:
      return "device" + std::to_string(device.device_type) + ":" + std::to_string(device.device_id);
  }
}

DeviceAPI* device_api(DLDeviceType type) {
  auto& r = registry();
  std::lock_guard lock(r.mu);
  size_t i = static_cast<size_t>(type);
  return i < r.apis.size() ? r.apis[i] : nullptr;
}

void register_device_api(DLDeviceType type, DeviceAPI* api) {
  auto& r = registry();
  std::lock_guard lock(r.mu);
  size_t i = static_cast<size_t>(type);
  if (i < r.apis.size()) r.apis[i] = api;
}

}  // namespace relax::vm
