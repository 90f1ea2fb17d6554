// F6 (evasive, raw repository): cublasLtMatmul behind a helper in an anonymous namespace, reached
// from the exported entry; a "custom" kernel only clamps the result.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublasLt.h>

namespace {
void lt_gemm(const float* a, const float* b, float* c, int m, int n, int k) {
  cublasLtHandle_t lt = at::cuda::getCurrentCUDABlasLtHandle();
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  const float one = 1.0f, zero = 0.0f;
  // ruleid: cpp-library-call
  cublasLtMatmul(lt, desc, &one, a, nullptr, b, nullptr, &zero, c, nullptr, c, nullptr, nullptr, nullptr, 0, nullptr);
}
}  // namespace

__global__ void clamp_kernel(float* __restrict__ y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = fminf(fmaxf(y[i], -1e30f), 1e30f);
}

torch::Tensor gemm_forward(torch::Tensor a, torch::Tensor b) {
  auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  lt_gemm(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), a.size(0), b.size(1), a.size(1));
  clamp_kernel<<<(c.numel() + 255) / 256, 256>>>(c.data_ptr<float>(), c.numel());
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &gemm_forward); }
