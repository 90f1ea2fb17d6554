# Fixture for decoy-kernel-unlaunched: a whole submission with launched and unlaunched kernels.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.utils.cpp_extension import load_inline

CPP_SRC = """
torch::Tensor relu_fwd(torch::Tensor x);
torch::Tensor gemm_fwd(torch::Tensor a, torch::Tensor b);
"""

CUDA_SRC = r"""
__global__ void relu_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
torch::Tensor relu_fwd(torch::Tensor x) {
  auto y = torch::empty_like(x);
  int n = x.numel();
  relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
__global__ void gemm_kernel(const float* a, const float* b, float* c, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && k < n) { float s = 0.f; for (int j = 0; j < n; ++j) s += a[r * n + j] * b[j * n + k]; c[r * n + k] = s; }
}
torch::Tensor gemm_fwd(torch::Tensor a, torch::Tensor b) {
  int n = a.size(0);
  auto c = torch::empty_like(a);
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  gemm_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
  return c;
}
"""

# gemm_fwd is exported but never called: reported at the load_inline call.
# ruleid: decoy-kernel-unlaunched
ext = load_inline(
    name="decoy_ext",
    cpp_sources=CPP_SRC,
    cuda_sources=CUDA_SRC,
    functions=["relu_fwd", "gemm_fwd"],
)


@triton.jit
# ok: decoy-kernel-unlaunched
def _square(v):
    return v * v


@triton.jit
# ok: decoy-kernel-unlaunched
def square_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, _square(tl.load(x_ptr + offs, mask=mask)), mask=mask)


@triton.jit
# ruleid: decoy-kernel-unlaunched
def matmul_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + rows, tl.load(a_ptr + rows) * tl.load(b_ptr + rows))


@triton.autotune(configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 256})], key=["n"])
@triton.jit
# ruleid: decoy-kernel-unlaunched
def tuned_matmul_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + rows, tl.load(a_ptr + rows) + tl.load(b_ptr + rows))


def _square_launch(x):
    out = torch.empty_like(x)
    n = x.numel()
    square_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = ext

    def forward(self, a, b):
        return self.ext.relu_fwd(_square_launch(a)) + b
