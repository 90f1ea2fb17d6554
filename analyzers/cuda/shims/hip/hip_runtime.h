// KernelGate shim: hip/hip_runtime.h (HIP submissions through load_inline on ROCm). HIP's kernel
// language is CUDA's (__global__, threadIdx, <<<>>>); its runtime API mirrors the CUDA runtime's.
#pragma once
#include "../cuda_runtime.h"

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaMemcpyKind hipMemcpyKind;
#define hipSuccess cudaSuccess
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice

hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipMemcpy(void* dst, const void* src, size_t count, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t count, hipMemcpyKind kind, hipStream_t stream = 0);
hipError_t hipMemset(void* ptr, int value, size_t count);
hipError_t hipMemsetAsync(void* ptr, int value, size_t count, hipStream_t stream = 0);
hipError_t hipDeviceSynchronize();
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipGetLastError();
hipError_t hipPeekAtLastError();
const char* hipGetErrorString(hipError_t error);

// hipLaunchKernelGGL is a macro in HIP; a variadic template keeps the kernel as a named argument.
template <typename Kernel, typename... Args>
void hipLaunchKernelGGL(Kernel kernel, dim3 grid, dim3 block, unsigned int shared_mem, hipStream_t stream, Args... args);
