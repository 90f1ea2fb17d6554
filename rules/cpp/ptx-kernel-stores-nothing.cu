// Fixture for ptx-kernel-stores-nothing: the PTX witness (NVRTC) reads each kernel's compiled code.
#include <torch/extension.h>

#define IN_RANGE(i, n) ((i) < (n) && (i) > (n))

// ruleid: ptx-kernel-stores-nothing
__global__ void scale_never(float* out, const float* in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (IN_RANGE(i, n)) out[i] = 2.f * in[i];
}

template <bool kWrite>
// ruleid: ptx-kernel-stores-nothing
__global__ void copy_switched(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (kWrite && i < n) out[i] = in[i];
}

// ok: ptx-kernel-stores-nothing
__global__ void scale(float* out, const float* in, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * in[i];
}

// ok: ptx-kernel-stores-nothing
__global__ void total(const float* in, float* sum, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(sum, in[i]);
}

template <int kBlock>
// ok: ptx-kernel-stores-nothing
__global__ void scale_block(float* out, const float* in, int n) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) out[i] = 3.f * in[i];
}

torch::Tensor entry(torch::Tensor x) {
  auto y = torch::empty_like(x);
  auto s = torch::zeros({1}, x.options());
  const int n = x.numel();
  scale_never<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  copy_switched<false><<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  scale<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  total<<<8, 256>>>(x.data_ptr<float>(), s.data_ptr<float>(), n);
  scale_block<256><<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  return y;
}
