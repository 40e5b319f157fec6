/* The calling convention between the VM and compiled kernels (C, so that generated code, the
 * runtime and user extern libraries share it). Every kernel and every extern function has the
 * signature `relax_kernel_fn`; arguments are tagged values; a non-zero return means failure,
 * with the message set through the context. Kernels reach runtime services (parallel loops,
 * workspace memory, errors) only through the context's function table, so a compiled library
 * needs no symbol from the runtime at link or load time. */
#ifndef RELAX_VM_KERNEL_ABI_H_
#define RELAX_VM_KERNEL_ABI_H_

#include <dlpack/dlpack.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version a library was compiled for; the runtime refuses other versions. */
#define RELAX_KERNEL_ABI_VERSION 1

typedef enum {
  kRelaxArgTensor = 0, /* value.tensor: a DLTensor on the kernel's device */
  kRelaxArgInt = 1,    /* value.i: an integer (int64) */
  kRelaxArgFloat = 2,  /* value.f: a float (double) */
  kRelaxArgHandle = 3, /* value.handle: an opaque pointer */
  kRelaxArgNull = 4,   /* no value */
} relax_arg_kind;

typedef struct {
  union {
    DLTensor* tensor;
    int64_t i;
    double f;
    void* handle;
  } value;
  int32_t kind; /* a relax_arg_kind */
} relax_arg;

/* One iteration range of a parallel loop: the task body receives [begin, end). */
typedef int32_t (*relax_parallel_body)(int64_t begin, int64_t end, void* closure);

typedef struct relax_kernel_context relax_kernel_context;

struct relax_kernel_context {
  int32_t abi_version;
  /* Runs body over [0, extent) split into chunks across the runtime's worker threads; returns
   * the first non-zero status of a chunk. Safe to call from a kernel (not re-entrantly). */
  int32_t (*parallel_for)(relax_kernel_context* ctx, int64_t extent, relax_parallel_body body,
                          void* closure);
  /* Scratch memory for a kernel's local buffers, 64-byte aligned; freed with workspace_free in
   * reverse order. Null on failure. */
  void* (*workspace_alloc)(relax_kernel_context* ctx, uint64_t nbytes);
  void (*workspace_free)(relax_kernel_context* ctx, void* ptr);
  /* Records an error message for the current call; the kernel then returns non-zero. */
  void (*set_error)(relax_kernel_context* ctx, const char* message);
  /* The runtime's private state. */
  void* runtime;
};

/* Every kernel and extern function: `result` may be null when the callee returns nothing
 * (destination-passing style kernels write into their output tensors). */
typedef int32_t (*relax_kernel_fn)(relax_kernel_context* ctx, const relax_arg* args,
                                   int32_t num_args, relax_arg* result);

/* A library built by `relax build` exports, besides its kernels:
 *   const char relax_executable_blob[];       the serialized executable
 *   const uint64_t relax_executable_blob_size;
 *   const int32_t relax_kernel_abi_version;   RELAX_KERNEL_ABI_VERSION
 * and each kernel under its own name. A user library for R.call_dps_packed/R.call_packed exports
 * functions with the relax_kernel_fn signature under the names the module uses. */

#ifdef __cplusplus
}
#endif

#endif /* RELAX_VM_KERNEL_ABI_H_ */
