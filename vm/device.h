// Devices behind one small interface: raw allocation, free and copy. The CPU is built in; other
// devices (CUDA, loaded with dlopen at run time) register an implementation, so the runtime
// itself links no device library.
#pragma once

#include <dlpack/dlpack.h>

#include <cstddef>
#include <string>

inline bool operator==(DLDevice a, DLDevice b) {  // global, for argument-dependent lookup
  return a.device_type == b.device_type && a.device_id == b.device_id;
}

namespace relax::vm {

inline constexpr DLDevice kCPU{kDLCPU, 0};

std::string device_name(DLDevice device);  // "cpu", "cuda:0"

class DeviceAPI {
 public:
  virtual ~DeviceAPI() = default;
  // Raw memory on `device`, aligned to at least `alignment`; null when out of memory.
  virtual void* alloc(DLDevice device, size_t nbytes, size_t alignment) = 0;
  // `nbytes` is what alloc was asked for (implementations may need it to pick the free path).
  virtual void free(DLDevice device, void* ptr, size_t nbytes) = 0;
  virtual void copy(void* dst, DLDevice dst_device, const void* src, DLDevice src_device,
                    size_t nbytes) = 0;
};

// The implementation for a device type, or null when none is registered.
DeviceAPI* device_api(DLDeviceType type);
// Registers (or replaces) the implementation for a device type; `api` must outlive its use.
void register_device_api(DLDeviceType type, DeviceAPI* api);

// Blocks at least this large come from their own mapping, advised to use transparent huge pages:
// first touch of a 4 KiB page costs about 10 µs on our machines, of a huge page far less per byte.
inline constexpr size_t kHugePageThreshold = size_t{2} << 20;

}  // namespace relax::vm
