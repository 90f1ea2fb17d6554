// KernelGate shim: cuda_fp16.h (the __half type and its conversions).
#pragma once
#include "kgate_cuda_defs.h"

struct __half_raw { unsigned short x; };
struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(int i);
  __host__ __device__ __half(__half_raw r);
  __host__ __device__ operator float() const;
  __host__ __device__ __half& operator=(float f);
};
struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half half;
typedef __half2 half2;
__host__ __device__ __half __float2half(float);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ __half __float2half_rz(float);
__host__ __device__ __half __float2half_rd(float);
__host__ __device__ __half __float2half_ru(float);
__host__ __device__ __half __double2half(double);
__host__ __device__ __half __int2half_rn(int);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __float22half2_rn(float2);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__device__ __half __hadd(__half, __half);
__device__ __half __hsub(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hfma(__half, __half, __half);
__device__ __half __hneg(__half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ __half hexp(__half);
__device__ __half hsqrt(__half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ bool __hgt(__half, __half);
__device__ bool __hlt(__half, __half);
__host__ __device__ __half __ushort_as_half(unsigned short);
__host__ __device__ unsigned short __half_as_ushort(__half);
