// KernelGate shim: cuda_fp8.h.
#pragma once
#include "cuda_bf16.h"
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
enum __nv_saturation_t { __NV_NOSAT = 0, __NV_SATFINITE = 1 };
enum __nv_fp8_interpretation_t { __NV_E4M3 = 0, __NV_E5M2 = 1 };
struct __nv_fp8_e4m3 { __nv_fp8_storage_t __x; __nv_fp8_e4m3() = default; __host__ __device__ explicit __nv_fp8_e4m3(float); __host__ __device__ explicit operator float() const; };
struct __nv_fp8_e5m2 { __nv_fp8_storage_t __x; __nv_fp8_e5m2() = default; __host__ __device__ explicit __nv_fp8_e5m2(float); __host__ __device__ explicit operator float() const; };
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2, __nv_saturation_t, __nv_fp8_interpretation_t);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t, __nv_fp8_interpretation_t);
