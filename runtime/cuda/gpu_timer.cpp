// GpuTimer: L2 reset and flush before a call, start/stream-end/device-end events around it.
#include "runtime/cuda/gpu_timer.h"

#include <cuda_runtime_api.h>

#include <c10/cuda/CUDAStream.h>

#include <algorithm>
#include <string>

#include "runtime/trace.h"

namespace kgate::runtime::cuda {
namespace {

Status check(cudaError_t rc, const char* what) {
  if (rc == cudaSuccess) return Status::ok();
  return Error{std::string(what) + ": " + cudaGetErrorString(rc)};
}

cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }

}  // namespace

Result<std::unique_ptr<GpuTimer>> GpuTimer::create() {
  std::unique_ptr<GpuTimer> timer(new GpuTimer());
  int device = 0;
  if (Status s = check(cudaGetDevice(&device), "cudaGetDevice"); !s) return Error{s.message()};
  int l2 = 0;
  if (Status s = check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "L2 size"); !s)
    return Error{s.message()};
  timer->l2_bytes_ = static_cast<std::size_t>(l2);
  // Twice the L2, at least 8 MiB: every line the call could find warm is overwritten before it.
  timer->flush_bytes_ = std::max<std::size_t>(2 * timer->l2_bytes_, std::size_t{8} << 20);
  if (Status s = check(cudaMalloc(&timer->flush_, timer->flush_bytes_), "cudaMalloc (L2 flush buffer)"); !s)
    return Error{s.message()};
  // What the device keeps as its persisting set-aside after a reset to zero: the baseline of l2_state().
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess) (void)cudaGetLastError();
  std::size_t limit = 0;
  if (cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize) == cudaSuccess)
    timer->baseline_limit_ = limit;
  else
    (void)cudaGetLastError();
  for (void** e : {&timer->start_, &timer->stream_end_, &timer->device_end_}) {
    cudaEvent_t created = nullptr;
    if (Status s = check(cudaEventCreate(&created), "cudaEventCreate"); !s) return Error{s.message()};
    *e = created;
  }
  return timer;
}

GpuTimer::~GpuTimer() {
  for (void* e : {start_, stream_end_, device_end_})
    if (e) cudaEventDestroy(event(e));
  if (flush_) cudaFree(flush_);
}

Status GpuTimer::prepare() {
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream().stream();
  // Devices without persisting L2 (before Ampere) refuse these: nothing can be pinned there either.
  if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError();
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess) (void)cudaGetLastError();
  cudaStreamAttrValue window{};
  window.accessPolicyWindow.base_ptr = nullptr;
  window.accessPolicyWindow.num_bytes = 0;
  window.accessPolicyWindow.hitRatio = 0.0f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
  window.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  if (cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) != cudaSuccess)
    (void)cudaGetLastError();
  // A new byte each time, so no write of the flush can be skipped as unchanged.
  flush_value_ = (flush_value_ + 1) & 0xff;
  if (Status s = check(cudaMemsetAsync(flush_, static_cast<int>(flush_value_), flush_bytes_, stream), "L2 flush"); !s)
    return s;
  return check(cudaDeviceSynchronize(), "synchronize before the call");
}

Status GpuTimer::begin() {
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream().stream();
  stream_ = stream;
  host_start_ = std::chrono::steady_clock::now();
  return check(cudaEventRecord(event(start_), stream), "cudaEventRecord (start)");
}

Status GpuTimer::end_of_forward() {
  const auto stream = static_cast<cudaStream_t>(stream_);
  // The marker: a memset of kEndOfForwardMarkerBytes on the call's stream, which CUPTI timestamps on the kernels'
  // clock. Work on another stream that ends after it started was not joined to the call's stream.
  if (Status s = check(cudaMemsetAsync(flush_, 0, kEndOfForwardMarkerBytes, stream), "end-of-forward marker"); !s)
    return s;
  return check(cudaEventRecord(event(stream_end_), stream), "cudaEventRecord (stream end)");
}

Result<TimedCall> GpuTimer::finish() {
  // Every stream's work, side streams included, ends before the device end event is recorded.
  if (Status s = check(cudaDeviceSynchronize(), "the call's kernels"); !s) return Error{s.message()};
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_);
  if (Status s = check(cudaEventRecord(event(device_end_), stream), "cudaEventRecord (device end)"); !s)
    return Error{s.message()};
  if (Status s = check(cudaEventSynchronize(event(device_end_)), "cudaEventSynchronize"); !s) return Error{s.message()};
  const auto host_end = std::chrono::steady_clock::now();
  float synced_ms = 0.0f;
  float stream_ms = 0.0f;
  if (Status s = check(cudaEventElapsedTime(&synced_ms, event(start_), event(device_end_)), "cudaEventElapsedTime"); !s)
    return Error{s.message()};
  if (Status s = check(cudaEventElapsedTime(&stream_ms, event(start_), event(stream_end_)), "cudaEventElapsedTime"); !s)
    return Error{s.message()};
  TimedCall call;
  call.synced_s = static_cast<double>(synced_ms) * 1e-3;
  call.stream_s = static_cast<double>(stream_ms) * 1e-3;
  call.wall_s = std::chrono::duration<double>(host_end - host_start_).count();
  return call;
}

Result<L2State> GpuTimer::l2_state() const {
  L2State state;
  state.baseline_limit = baseline_limit_;
  std::size_t limit = 0;
  if (cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize) == cudaSuccess)
    state.persisting_limit = limit;
  else
    (void)cudaGetLastError();
  cudaStreamAttrValue window{};
  // The stream the call began on: a window set there is what would pin the next call's operands.
  const cudaStream_t stream = stream_ ? static_cast<cudaStream_t>(stream_) : c10::cuda::getCurrentCUDAStream().stream();
  if (cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) == cudaSuccess)
    state.window_bytes = window.accessPolicyWindow.num_bytes;
  else
    (void)cudaGetLastError();
  return state;
}

}  // namespace kgate::runtime::cuda
