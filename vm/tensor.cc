// Tensors and storage.
#include "vm/tensor.h"

#include <cstring>

#include "vm/result.h"

namespace relax::vm {

// Every allocator gets requests it can round up without wrapping (Allocator::kMaxBytes).
static void* allocate_checked(Allocator& allocator, size_t nbytes) {
  if (nbytes > Allocator::kMaxBytes)
    throw_error("cannot allocate " + std::to_string(nbytes) + " bytes");
  return allocator.allocate(nbytes);
}

StorageObj::StorageObj(std::shared_ptr<Allocator> allocator, size_t nbytes)
    : Object(ValueKind::kStorage),
      data_(allocate_checked(*allocator, nbytes)),
      nbytes_(nbytes),
      device_(allocator->device()),
      allocator_(std::move(allocator)) {}

StorageObj::StorageObj(void* data, size_t nbytes, DLDevice device,
                       std::function<void(void*)> deleter)
    : Object(ValueKind::kStorage),
      data_(data),
      nbytes_(nbytes),
      device_(device),
      deleter_(std::move(deleter)) {}

StorageObj::~StorageObj() {
  if (allocator_) {
    allocator_->release(data_, nbytes_);
  } else if (deleter_) {
    deleter_(data_);
  }
}

TensorObj::TensorObj(Ref<StorageObj> storage, size_t offset, std::span<const int64_t> shape,
                     DLDataType dtype)
    : Object(ValueKind::kTensor), storage_(std::move(storage)), offset_(offset) {
  int64_t* dims = inline_dims_;
  if (shape.size() > kInlineDims) {
    dims_.assign(shape.begin(), shape.end());
    dims = dims_.data();
  } else {
    std::copy(shape.begin(), shape.end(), dims);
  }
  dl_.data = static_cast<char*>(storage_->data()) + offset;
  dl_.device = storage_->device();
  dl_.ndim = static_cast<int32_t>(shape.size());
  dl_.dtype = dtype;
  dl_.shape = dims;
  dl_.strides = nullptr;
  dl_.byte_offset = 0;
}

int64_t TensorObj::numel() const {
  int64_t n = 1;
  for (int32_t i = 0; i < dl_.ndim; ++i) n *= dl_.shape[i];
  return n;
}

int64_t shape_numel(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

std::string shape_string(std::span<const int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

static size_t checked_nbytes(std::span<const int64_t> shape, DLDataType dtype) {
  int64_t n = shape_numel(shape);
  int64_t bytes;
  if (n < 0 || __builtin_mul_overflow(n, dtype_bytes(dtype), &bytes)) {
    throw_error("invalid tensor shape " + shape_string(shape) + " of " + dtype_name(dtype));
  }
  return static_cast<size_t>(bytes);
}

Tensor empty_tensor(std::span<const int64_t> shape, DLDataType dtype, DLDevice device,
                    std::shared_ptr<Allocator> allocator) {
  size_t nbytes = checked_nbytes(shape, dtype);
  if (!allocator) allocator = default_allocator(device);
  auto storage = make_ref<StorageObj>(std::move(allocator), nbytes);
  return make_ref<TensorObj>(std::move(storage), 0, shape, dtype);
}

Tensor empty_tensor(std::initializer_list<int64_t> shape, DLDataType dtype) {
  return empty_tensor(std::span<const int64_t>(shape.begin(), shape.size()), dtype);
}

Tensor tensor_from_bytes(std::span<const int64_t> shape, DLDataType dtype, const void* bytes) {
  Tensor t = empty_tensor(shape, dtype);
  if (t->nbytes()) std::memcpy(t->data(), bytes, t->nbytes());
  return t;
}

Tensor tensor_from_external(void* data, std::span<const int64_t> shape, DLDataType dtype,
                            DLDevice device, std::function<void(void*)> deleter) {
  size_t nbytes = checked_nbytes(shape, dtype);
  auto storage = make_ref<StorageObj>(data, nbytes, device, std::move(deleter));
  return make_ref<TensorObj>(std::move(storage), 0, shape, dtype);
}

Tensor make_tensor(std::initializer_list<int64_t> shape, std::initializer_list<float> values) {
  Tensor t = empty_tensor(shape, kFloat32);
  if (static_cast<int64_t>(values.size()) != t->numel()) {
    throw_error("make_tensor: " + std::to_string(values.size()) + " values for shape " +
                shape_string(t->shape()));
  }
  std::copy(values.begin(), values.end(), t->data_as<float>());
  return t;
}

Tensor make_tensor_i64(std::initializer_list<int64_t> shape,
                       std::initializer_list<int64_t> values) {
  Tensor t = empty_tensor(shape, kInt64);
  if (static_cast<int64_t>(values.size()) != t->numel()) {
    throw_error("make_tensor: " + std::to_string(values.size()) + " values for shape " +
                shape_string(t->shape()));
  }
  std::copy(values.begin(), values.end(), t->data_as<int64_t>());
  return t;
}

Tensor reshape_view(const Tensor& t, std::span<const int64_t> shape) {
  if (shape_numel(shape) != t->numel()) {
    throw_error("cannot view a tensor of shape " + shape_string(t->shape()) + " as " +
                shape_string(shape));
  }
  return make_ref<TensorObj>(t->storage(), t->offset(), shape, t->dtype());
}

void copy_tensor(const TensorObj& src, TensorObj& dst) {
  if (src.dtype() != dst.dtype() || src.numel() != dst.numel()) {
    throw_error("cannot copy a tensor of " + dtype_name(src.dtype()) + shape_string(src.shape()) +
                " into one of " + dtype_name(dst.dtype()) + shape_string(dst.shape()));
  }
  DLDevice device = src.device().device_type != kDLCPU ? src.device() : dst.device();
  DeviceAPI* api = device_api(device.device_type);
  if (!api) throw_error("no implementation is registered for device " + device_name(device));
  api->copy(dst.data(), dst.device(), src.data(), src.device(), src.nbytes());
}

Tensor clone_tensor(const TensorObj& src, DLDevice device) {
  Tensor t = empty_tensor(src.shape(), src.dtype(), device);
  copy_tensor(src, *t);
  return t;
}

bool tensor_equal(const TensorObj& a, const TensorObj& b) {
  if (a.dtype() != b.dtype() || a.ndim() != b.ndim()) return false;
  for (int32_t i = 0; i < a.ndim(); ++i) {
    if (a.shape()[i] != b.shape()[i]) return false;
  }
  return a.nbytes() == 0 || std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

bool is_compact(const DLTensor& dl) {
  if (!dl.strides) return true;
  int64_t expect = 1;
  for (int32_t i = dl.ndim - 1; i >= 0; --i) {
    if (dl.shape[i] != 1 && dl.strides[i] != expect) return false;
    expect *= dl.shape[i];
  }
  return true;
}

Tensor from_dlpack(DLManagedTensor* managed) {
  const DLTensor& dl = managed->dl_tensor;
  std::span<const int64_t> shape(dl.shape, static_cast<size_t>(dl.ndim));
  if (!is_compact(dl)) {
    throw_error("from_dlpack: a tensor with non-compact strides is not supported");
  }
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  return tensor_from_external(data, shape, dl.dtype, dl.device, [managed](void*) {
    if (managed->deleter) managed->deleter(managed);
  });
}

namespace {
// The DLManagedTensor to_dlpack hands out, owning a reference to the tensor.
struct ExportedTensor {
  DLManagedTensor managed;
  Tensor tensor;
};
}  // namespace

DLManagedTensor* to_dlpack(const Tensor& tensor) {
  auto* e = new ExportedTensor{{tensor->dl(), nullptr, nullptr}, tensor};
  e->managed.manager_ctx = e;
  e->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<ExportedTensor*>(self->manager_ctx);
  };
  return &e->managed;
}

}  // namespace relax::vm
