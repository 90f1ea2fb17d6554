// Fixture for ptx-external-device-call: the PTX witness reads which calls stay calls to code elsewhere.
#include <torch/extension.h>

extern __device__ float vendor_gelu(float x);  // defined in a prebuilt device library, not here

__device__ float own_gelu(float x) { return 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x))); }

// ruleid: ptx-external-device-call
__global__ void gelu_vendor(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = vendor_gelu(in[i]);
}

// ok: ptx-external-device-call
__global__ void gelu_own(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = own_gelu(in[i]);
}

// ok: ptx-external-device-call
__global__ void gelu_checked(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 && n < 0) printf("bad size %d\n", n);
  if (i < n) out[i] = own_gelu(in[i]);
}

torch::Tensor entry(torch::Tensor x) {
  auto y = torch::empty_like(x);
  const int n = x.numel();
  gelu_vendor<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  gelu_own<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  gelu_checked<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);
  return y;
}
