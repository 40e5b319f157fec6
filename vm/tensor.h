// Tensors: a TensorObj owns its DLTensor metadata (shape inline for up to 6 dimensions) and
// shares a StorageObj, the block of device memory. Views (reshape, alloc_tensor at an offset
// in a storage) share the storage and differ in metadata only. Tensors are compact (row-major,
// no strides) with byte_offset 0: `dl.data` points at the first element.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "vm/allocator.h"
#include "vm/dtype.h"
#include "vm/object.h"

namespace relax::vm {

class StorageObj final : public Object {
 public:
  // A block from `allocator`, given back when the last tensor using it goes.
  StorageObj(std::shared_ptr<Allocator> allocator, size_t nbytes);
  // Memory the runtime does not own; `deleter` (may be empty) runs when the storage goes.
  StorageObj(void* data, size_t nbytes, DLDevice device, std::function<void(void*)> deleter);
  ~StorageObj() override;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  DLDevice device() const { return device_; }

 private:
  void* data_;
  size_t nbytes_;
  DLDevice device_;
  std::shared_ptr<Allocator> allocator_;
  std::function<void(void*)> deleter_;
};

class TensorObj final : public Object {
 public:
  static constexpr int kInlineDims = 6;

  // A view of `storage` at byte `offset`; the caller has checked it fits.
  TensorObj(Ref<StorageObj> storage, size_t offset, std::span<const int64_t> shape,
            DLDataType dtype);

  const DLTensor& dl() const { return dl_; }
  DLTensor* dl_mutable() { return &dl_; }
  std::span<const int64_t> shape() const { return {dl_.shape, static_cast<size_t>(dl_.ndim)}; }
  int32_t ndim() const { return dl_.ndim; }
  DLDataType dtype() const { return dl_.dtype; }
  DLDevice device() const { return dl_.device; }
  void* data() const { return dl_.data; }
  template <class T>
  T* data_as() const {
    return static_cast<T*>(dl_.data);
  }
  int64_t numel() const;
  size_t nbytes() const { return static_cast<size_t>(numel() * dtype_bytes(dl_.dtype)); }
  const Ref<StorageObj>& storage() const { return storage_; }
  size_t offset() const { return offset_; }

 private:
  DLTensor dl_{};
  int64_t inline_dims_[kInlineDims]{};
  std::vector<int64_t> dims_;  // when ndim > kInlineDims
  Ref<StorageObj> storage_;
  size_t offset_;
};

using Tensor = Ref<TensorObj>;
using Storage = Ref<StorageObj>;

// Elements of a shape, or -1 when a dimension is negative or the product overflows int64.
int64_t shape_numel(std::span<const int64_t> shape);

// A new tensor with its own storage from `allocator` (default: the device's pooled allocator).
// Contents are uninitialised. Throws VMError on a negative dimension or out of memory.
Tensor empty_tensor(std::span<const int64_t> shape, DLDataType dtype, DLDevice device = kCPU,
                    std::shared_ptr<Allocator> allocator = nullptr);
Tensor empty_tensor(std::initializer_list<int64_t> shape, DLDataType dtype);
// A CPU tensor holding a copy of `bytes` (which must be numel * element size long).
Tensor tensor_from_bytes(std::span<const int64_t> shape, DLDataType dtype, const void* bytes);
// A tensor viewing memory the caller owns (kept alive by `deleter`'s captures, if any).
Tensor tensor_from_external(void* data, std::span<const int64_t> shape, DLDataType dtype,
                            DLDevice device = kCPU, std::function<void(void*)> deleter = {});
// A CPU float32 / int64 tensor of the given values (tests and tools).
Tensor make_tensor(std::initializer_list<int64_t> shape, std::initializer_list<float> values);
Tensor make_tensor_i64(std::initializer_list<int64_t> shape, std::initializer_list<int64_t> values);

// A view of `t` with another shape of the same element count (throws VMError otherwise).
Tensor reshape_view(const Tensor& t, std::span<const int64_t> shape);
// Copies the contents of `src` into `dst` (same dtype and element count, any devices).
void copy_tensor(const TensorObj& src, TensorObj& dst);
// A deep copy on `device`.
Tensor clone_tensor(const TensorObj& src, DLDevice device = kCPU);
// Byte-wise equality of dtype, shape and contents (host tensors).
bool tensor_equal(const TensorObj& a, const TensorObj& b);

std::string shape_string(std::span<const int64_t> shape);  // "[2, 3]"

// Whether a DLTensor is row-major without gaps (null strides, or the strides of its shape).
bool is_compact(const DLTensor& dl);

// DLPack exchange with other frameworks. from_dlpack takes ownership of `managed` (its deleter
// runs when the last view goes) and accepts compact tensors only (null or row-major strides);
// throws VMError otherwise, without taking ownership. to_dlpack shares the tensor's memory until
// the consumer calls the deleter.
Tensor from_dlpack(DLManagedTensor* managed);
DLManagedTensor* to_dlpack(const Tensor& tensor);

}  // namespace relax::vm
