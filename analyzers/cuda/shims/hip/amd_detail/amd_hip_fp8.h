// KernelGate shim: hip/amd_detail/amd_hip_fp8.h (HIP's fp8 types: OCP e4m3/e5m2 and the fnuz forms
// of MI300).
#pragma once
#include "../../cuda_fp8.h"

struct __hip_fp8_e4m3_fnuz {
  __nv_fp8_storage_t __x;
  __hip_fp8_e4m3_fnuz() = default;
  __host__ __device__ __hip_fp8_e4m3_fnuz(float);
  __host__ __device__ operator float() const;
};
struct __hip_fp8_e5m2_fnuz {
  __nv_fp8_storage_t __x;
  __hip_fp8_e5m2_fnuz() = default;
  __host__ __device__ __hip_fp8_e5m2_fnuz(float);
  __host__ __device__ operator float() const;
};
typedef __nv_fp8_e4m3 __hip_fp8_e4m3;
typedef __nv_fp8_e5m2 __hip_fp8_e5m2;
