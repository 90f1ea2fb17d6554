// KernelGate shim: mma.h (nvcuda::wmma).
#pragma once
#include "cuda_fp16.h"
namespace nvcuda { namespace wmma {
struct matrix_a {}; struct matrix_b {}; struct accumulator {};
struct row_major {}; struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32 {}; }
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment { static constexpr int num_elements = 8; T x[8]; };
template <class F, class P> __device__ void load_matrix_sync(F& a, const P* p, unsigned ldm);
template <class F, class P> __device__ void load_matrix_sync(F& a, const P* p, unsigned ldm, layout_t layout);
template <class F, class P> __device__ void store_matrix_sync(P* p, const F& a, unsigned ldm, layout_t layout);
template <class F, class V> __device__ void fill_fragment(F& a, const V& v);
template <class D, class A, class B, class C> __device__ void mma_sync(D& d, const A& a, const B& b, const C& c);
__device__ float __float_to_tf32(float in);
}}  // namespace nvcuda::wmma
