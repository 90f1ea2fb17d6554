// KernelGate shim: cuda_pipeline.h.
#pragma once
#include "kgate_cuda_defs.h"
__device__ void __pipeline_memcpy_async(void* dst, const void* src, size_t size, size_t zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t n);
