// LayerNorm over the last dimension (fp32), one block per row: Welford statistics reduced with warp
// shuffles, then an affine pass. A raw repository source with a PYBIND11_MODULE export.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cmath>

namespace kgate_honest {

struct Welford {
  float mean = 0.f, m2 = 0.f, n = 0.f;
};

__device__ __forceinline__ Welford merge(Welford a, Welford b) {
  const float n = a.n + b.n;
  if (n == 0.f) return a;
  const float delta = b.mean - a.mean;
  Welford r;
  r.n = n;
  r.mean = a.mean + delta * (b.n / n);
  r.m2 = a.m2 + b.m2 + delta * delta * (a.n * b.n / n);
  return r;
}

__device__ Welford warp_merge(Welford w) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    Welford o;
    o.mean = __shfl_down_sync(0xffffffffu, w.mean, offset);
    o.m2 = __shfl_down_sync(0xffffffffu, w.m2, offset);
    o.n = __shfl_down_sync(0xffffffffu, w.n, offset);
    w = merge(w, o);
  }
  return w;
}

__global__ void layernorm_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ y, int cols, float eps) {
  __shared__ Welford partial[32];
  __shared__ float stats[2];
  const float* row = x + static_cast<int64_t>(blockIdx.x) * cols;
  Welford w;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    Welford one;
    one.mean = row[c];
    one.n = 1.f;
    w = merge(w, one);
  }
  w = warp_merge(w);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) partial[warp] = w;
  __syncthreads();
  if (warp == 0) {
    w = lane < (blockDim.x >> 5) ? partial[lane] : Welford();
    w = warp_merge(w);
    if (lane == 0) {
      stats[0] = w.mean;
      stats[1] = rsqrtf(w.m2 / w.n + eps);
    }
  }
  __syncthreads();
  float* out = y + static_cast<int64_t>(blockIdx.x) * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[c] = (row[c] - stats[0]) * stats[1] * gamma[c] + beta[c];
}

torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor gamma, torch::Tensor beta, double eps) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "layernorm_forward: fp32 CUDA input expected");
  auto xc = x.contiguous();
  const int cols = static_cast<int>(xc.size(-1));
  const int rows = static_cast<int>(xc.numel() / cols);
  auto y = torch::empty_like(xc);
  layernorm_kernel<<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      xc.data_ptr<float>(), gamma.data_ptr<float>(), beta.data_ptr<float>(), y.data_ptr<float>(), cols,
      static_cast<float>(eps));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

}  // namespace kgate_honest

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &kgate_honest::layernorm_forward, "LayerNorm forward (CUDA)");
}
