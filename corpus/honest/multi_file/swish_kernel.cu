// Sibling source of swish_sibling_load.py: the kernel, its host wrapper and the Python binding.
#include <torch/extension.h>

__global__ void swish_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    y[i] = v / (1.f + __expf(-v));
  }
}

torch::Tensor swish(torch::Tensor x) {
  auto y = torch::empty_like(x);
  const long n = x.numel();
  const int threads = 256;
  swish_kernel<<<static_cast<int>((n + threads - 1) / threads), threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("swish", &swish, "x * sigmoid(x)"); }
