// KernelGate shim: CuTe (layouts, tensors, copy and gemm algorithms) for name resolution.
#pragma once
#include "../cutlass/cutlass.h"
namespace cute {
template <class... T> struct Shape {};
template <class... T> struct Stride {};
template <class... T> struct tuple {};
template <int N> struct Int { static constexpr int value = N; };
template <int N> constexpr Int<N> _c = {};
using _0 = Int<0>; using _1 = Int<1>; using _2 = Int<2>; using _4 = Int<4>; using _8 = Int<8>;
using _16 = Int<16>; using _32 = Int<32>; using _64 = Int<64>; using _128 = Int<128>;
struct Underscore {};
constexpr Underscore _ = {};
template <class S, class D = void> struct Layout { template <class... C> __host__ __device__ int operator()(C...) const; };
template <class E, class L> struct Tensor { template <class... C> __host__ __device__ auto& operator()(C...) const; __host__ __device__ auto data() const; };
template <class... A> __host__ __device__ auto make_shape(A&&...);
template <class... A> __host__ __device__ auto make_stride(A&&...);
template <class... A> __host__ __device__ auto make_layout(A&&...);
template <class... A> __host__ __device__ auto make_tensor(A&&...);
template <class... A> __host__ __device__ auto make_gmem_ptr(A&&...);
template <class... A> __host__ __device__ auto make_smem_ptr(A&&...);
template <class... A> __host__ __device__ auto make_coord(A&&...);
template <class... A> __host__ __device__ auto local_tile(A&&...);
template <class... A> __host__ __device__ auto local_partition(A&&...);
template <class... A> __host__ __device__ auto partition_fragment_C(A&&...);
template <class... A> __host__ __device__ auto make_tiled_mma(A&&...);
template <class... A> __host__ __device__ auto make_tiled_copy(A&&...);
template <class... A> __host__ __device__ auto size(A&&...);
template <class... A> __host__ __device__ void copy(A&&...);
template <class... A> __host__ __device__ void gemm(A&&...);
template <class... A> __host__ __device__ void clear(A&&...);
template <class... A> __host__ __device__ void axpby(A&&...);
template <class... A> __host__ __device__ void fill(A&&...);
__device__ void cp_async_fence();
template <int N> __device__ void cp_async_wait();
template <class... A> struct MMA_Atom {};
template <class... A> struct Copy_Atom {};
struct UniversalFMA {};
// MMA atoms (cute/arch/mma_sm*.hpp): SM<arch>_<shape>_<D A B C types>_<layout>.
struct SM70_8x8x4_F16F16F16F16_TN {}; struct SM70_8x8x4_F32F16F16F32_TN {};
struct SM75_16x8x8_F32F16F16F32_TN {}; struct SM80_8x8x4_F64F64F64F64_TN {};
struct SM80_16x8x8_F16F16F16F16_TN {}; struct SM80_16x8x16_F16F16F16F16_TN {};
struct SM80_16x8x8_F32F16F16F32_TN {}; struct SM80_16x8x16_F32F16F16F32_TN {};
struct SM80_16x8x8_F32BF16BF16F32_TN {}; struct SM80_16x8x16_F32BF16BF16F32_TN {};
struct SM80_16x8x4_F32TF32TF32F32_TN {}; struct SM80_16x8x8_F32TF32TF32F32_TN {};
struct SM80_16x8x32_S32S8S8S32_TN {};
}  // namespace cute
