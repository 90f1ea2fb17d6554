// KernelGate shim: c10/cuda streams, guards and the ATen CUDA context (at::cuda namespace).
#pragma once
#include "../../ATen/ATen.h"
#include "../../cublas_v2.h"
#include "../../cublasLt.h"
namespace c10 { namespace cuda {
class CUDAStream {
 public:
  enum Unchecked { UNCHECKED };
  cudaStream_t stream() const;
  operator cudaStream_t() const;
  Device device() const;
  int64_t id() const;
  void synchronize() const;
  bool query() const;
  int priority() const;
};
CUDAStream getCurrentCUDAStream(int8_t device_index = -1);
CUDAStream getDefaultCUDAStream(int8_t device_index = -1);
CUDAStream getStreamFromPool(const bool isHighPriority = false, int8_t device = -1);
CUDAStream getStreamFromPool(const int priority, int8_t device = -1);
CUDAStream getStreamFromExternal(cudaStream_t ext_stream, int8_t device_index);
void setCurrentCUDAStream(CUDAStream stream);
void device_synchronize();
struct CUDAStreamGuard { explicit CUDAStreamGuard(CUDAStream stream); ~CUDAStreamGuard(); };
struct OptionalCUDAStreamGuard { OptionalCUDAStreamGuard(); explicit OptionalCUDAStreamGuard(CUDAStream stream); ~OptionalCUDAStreamGuard(); };
struct CUDAGuard { explicit CUDAGuard(int8_t device_index); explicit CUDAGuard(Device device); ~CUDAGuard(); };
struct OptionalCUDAGuard { OptionalCUDAGuard(); explicit OptionalCUDAGuard(Device device); explicit OptionalCUDAGuard(std::optional<Device> device); ~OptionalCUDAGuard(); };
struct CUDACachingAllocator_ { };
namespace CUDACachingAllocator { void emptyCache(); void* raw_alloc(size_t nbytes); void raw_delete(void* ptr); }
int8_t current_device();
}}  // namespace c10::cuda
namespace at { namespace cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::getStreamFromPool;
using c10::cuda::getStreamFromExternal;
using c10::cuda::setCurrentCUDAStream;
using c10::cuda::CUDAStreamGuard;
using c10::cuda::OptionalCUDAStreamGuard;
using c10::cuda::CUDAGuard;
using c10::cuda::OptionalCUDAGuard;
// ATen's cuBLAS wrappers: library GEMMs, not glue.
namespace blas {
template <class Dtype, class... A> void gemm(A&&... args);
template <class Dtype, class... A> void bgemm(A&&... args);
template <class Dtype, class... A> void gemm_and_bias(A&&... args);
template <class... A> void scaled_gemm(A&&... args);
}  // namespace blas
cudaDeviceProp* getCurrentDeviceProperties();
cudaDeviceProp* getDeviceProperties(int64_t device);
int warp_size();
cublasHandle_t getCurrentCUDABlasHandle();
cublasLtHandle_t getCurrentCUDABlasLtHandle();
void* getCurrentCUDASparseHandle();
struct CUDAEvent {
  CUDAEvent();
  explicit CUDAEvent(unsigned int flags);
  void record();
  void record(const CUDAStream& stream);
  void block(const CUDAStream& stream);
  float elapsed_time(const CUDAEvent& other) const;
  void synchronize() const;
  bool query() const;
  cudaEvent_t event() const;
};
struct CUDAGraph {
  CUDAGraph();
  void capture_begin();
  void capture_begin(std::pair<uint64_t, uint64_t> pool, cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal);
  void capture_end();
  void replay();
  void reset();
  void enable_debug_mode();
};
}}  // namespace at::cuda
namespace at { namespace cuda { namespace detail { bool hasCUDA(); } } }
namespace c10 { namespace cuda { using at::cuda::CUDAEvent; } }
