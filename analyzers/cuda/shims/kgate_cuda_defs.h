// KernelGate shim: CUDA language macros, built-in variables, vector types and device intrinsics.
// Declarations only, written for name resolution in `clang -x cuda --cuda-host-only -nocudainc`.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __cluster_dims__(...)
#define __CUDACC__ 1
#define __CUDA_ARCH_LIST__ 800
#define CUDART_VERSION 12040
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI_F 3.141592654f

struct __align__(8) uint2 { unsigned int x, y; };
struct uint3 { unsigned int x, y, z; };
struct __align__(16) uint4 { unsigned int x, y, z, w; };
struct __align__(8) int2 { int x, y; };
struct int3 { int x, y, z; };
struct __align__(16) int4 { int x, y, z, w; };
struct __align__(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct __align__(16) float4 { float x, y, z, w; };
struct __align__(16) double2 { double x, y; };
struct __align__(4) char4 { signed char x, y, z, w; };
struct __align__(4) uchar4 { unsigned char x, y, z, w; };
struct __align__(16) longlong2 { long long x, y; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
__host__ __device__ float2 make_float2(float, float);
__host__ __device__ float3 make_float3(float, float, float);
__host__ __device__ float4 make_float4(float, float, float, float);
__host__ __device__ int2 make_int2(int, int);
__host__ __device__ int4 make_int4(int, int, int, int);
__host__ __device__ uint2 make_uint2(unsigned, unsigned);
__host__ __device__ uint4 make_uint4(unsigned, unsigned, unsigned, unsigned);
__host__ __device__ double2 make_double2(double, double);

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

typedef struct CUstream_st* cudaStream_t;
extern "C" int cudaConfigureCall(dim3 gridSize, dim3 blockSize, size_t sharedSize = 0, cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);

// Synchronisation and warp primitives.
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __reduce_add_sync(unsigned, T);
template <class T> __device__ T __reduce_max_sync(unsigned, T);
template <class T> __device__ T __ldg(const T*);
template <class T> __device__ T __ldcs(const T*);
template <class T> __device__ T __ldcg(const T*);
template <class T> __device__ T __ldca(const T*);
template <class T> __device__ T __ldlu(const T*);
template <class T> __device__ void __stcs(T*, T);
template <class T> __device__ void __stcg(T*, T);
template <class T> __device__ void __stwt(T*, T);
template <class T> __device__ void __stwb(T*, T);
__device__ long long clock64();
__device__ int clock();
__device__ void __nanosleep(unsigned);
__device__ void __trap();
__device__ void* __cvta_generic_to_shared(const void*);

// Atomics.
template <class T> __device__ T atomicAdd(T*, T);
template <class T> __device__ T atomicSub(T*, T);
template <class T> __device__ T atomicMax(T*, T);
template <class T> __device__ T atomicMin(T*, T);
template <class T> __device__ T atomicExch(T*, T);
template <class T> __device__ T atomicCAS(T*, T, T);
template <class T> __device__ T atomicAnd(T*, T);
template <class T> __device__ T atomicOr(T*, T);
template <class T> __device__ T atomicXor(T*, T);
template <class T> __device__ T atomicInc(T*, T);
template <class T> __device__ T atomicDec(T*, T);
template <class T> __device__ T atomicAdd_block(T*, T);
template <class T> __device__ T atomicAdd_system(T*, T);

// Fast math and bit intrinsics.
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ float __saturatef(float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __fadd_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fdiv_rn(float, float);
__device__ double __fma_rn(double, double, double);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned);
__device__ unsigned __float_as_uint(float);
__device__ double __longlong_as_double(long long);
__device__ long long __double_as_longlong(double);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ unsigned __float2uint_rn(float);
__device__ float __int2float_rn(int);
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned __brev(unsigned);
__device__ int __mul24(int, int);
__device__ int __mulhi(int, int);
__device__ unsigned __umulhi(unsigned, unsigned);
__device__ unsigned __funnelshift_l(unsigned, unsigned, unsigned);
__device__ unsigned __byte_perm(unsigned, unsigned, unsigned);
__host__ __device__ float rsqrtf(float);
__host__ __device__ double rsqrt(double);
__host__ __device__ float rcbrtf(float);
__host__ __device__ float normcdff(float);
__host__ __device__ float saturatef(float);
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline float min(float a, float b) { return a < b ? a : b; }
__host__ __device__ inline float max(float a, float b) { return a > b ? a : b; }
__host__ __device__ inline double min(double a, double b) { return a < b ? a : b; }
__host__ __device__ inline double max(double a, double b) { return a > b ? a : b; }
