// Fixture for cpp-precision-downgrade: conversions to fp16/bf16/TF32.
#include <torch/extension.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <mma.h>

// A half-precision accumulator behind a macro: Clang expands it and reads the fragment's type.
#define ACC_T half
__global__ void gemm_tile(const __half* a, const __half* b, float* c) {
  // WMMA fragments name the operand and accumulator types.
  // ruleid: cpp-precision-downgrade
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> fb;
  // ruleid: cpp-precision-downgrade
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, ACC_T> acc;
  nvcuda::wmma::fill_fragment(acc, 0);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  nvcuda::wmma::store_matrix_sync((__half*)c, acc, 16, nvcuda::wmma::mem_row_major);
}

// A half-precision accumulator chosen by a template argument: the kernel's source names no accumulator
// type, the PTX witness reads it from the compiled mma instruction of gemm_tile_as<half>.
// ruleid: cpp-precision-downgrade
template <class Acc> __global__ void gemm_tile_as(const __half* a, const __half* b, float* c) {
  // ruleid: cpp-precision-downgrade
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, Acc> acc;
  nvcuda::wmma::fill_fragment(acc, 0);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  nvcuda::wmma::store_matrix_sync((__half*)c, acc, 16, nvcuda::wmma::mem_row_major);
}

// The same tile with an fp32 accumulator.
// ok: cpp-precision-downgrade
__global__ void gemm_tile_fp32(const __half* a, const __half* b, float* c) {
  // fp16 operands are below an fp32 contract; the fp32 accumulator is not.
  // ruleid: cpp-precision-downgrade
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> fb;
  // ok: cpp-precision-downgrade
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.f);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  nvcuda::wmma::store_matrix_sync(c, acc, 16, nvcuda::wmma::mem_row_major);
}

// fp32 data as TF32 operands.
__global__ void gemm_tile_tf32(const float* a, const float* b, float* c) {
  // ruleid: cpp-precision-downgrade
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 8, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.f);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  nvcuda::wmma::store_matrix_sync(c, acc, 16, nvcuda::wmma::mem_row_major);
}

__global__ void k(const float* x, __half* h, __nv_bfloat16* b, float* f) {
  const int i = threadIdx.x;
  // ruleid: cpp-precision-downgrade
  h[i] = __float2half(x[i]);
  // ruleid: cpp-precision-downgrade
  b[i] = __float2bfloat16(x[i]);
  // ok: cpp-precision-downgrade
  f[i] = __half2float(h[i]);
  // ok: cpp-precision-downgrade
  if (i == 0) h[0] = __float2half(0.0f);
  // ok: cpp-precision-downgrade
  if (i == 1) b[1] = __float2bfloat16(-1.0f);
}

torch::Tensor entry(torch::Tensor x) {
  // ruleid: cpp-precision-downgrade
  auto xh = x.to(at::kHalf);
  // ruleid: cpp-precision-downgrade
  auto xb = x.to(torch::kBFloat16);
  // ok: cpp-precision-downgrade
  auto xf = x.to(torch::kFloat32);
  cublasHandle_t handle;
  // ruleid: cpp-precision-downgrade
  cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);
  auto out = torch::empty_like(xf);
  k<<<1, 32>>>(x.data_ptr<float>(), (__half*)xh.data_ptr(), (__nv_bfloat16*)xb.data_ptr(), out.data_ptr<float>());
  gemm_tile<<<1, 32>>>((const __half*)xh.data_ptr(), (const __half*)xh.data_ptr(), out.data_ptr<float>());
  gemm_tile_as<half><<<1, 32>>>((const __half*)xh.data_ptr(), (const __half*)xh.data_ptr(), out.data_ptr<float>());
  gemm_tile_tf32<<<1, 32>>>(x.data_ptr<float>(), x.data_ptr<float>(), out.data_ptr<float>());
  gemm_tile_fp32<<<1, 32>>>((const __half*)xh.data_ptr(), (const __half*)xh.data_ptr(), out.data_ptr<float>());
  return out;
}
