"""A harness that keeps the class name `Model` (model-entry profile), with a CuPy RawModule: the CUDA
source is compiled once, the kernel fetched by name with get_function, and launched on the torch
tensors' memory through DLPack views."""
import cupy
import torch
import torch.nn as nn

_SRC = r"""
extern "C" __global__ void softshrink(const float* x, float* y, float lambd, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = v > lambd ? v - lambd : (v < -lambd ? v + lambd : 0.0f);
  }
}
"""

_module = cupy.RawModule(code=_SRC)
_softshrink = _module.get_function("softshrink")


class Model(nn.Module):
    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        threads = 256
        _softshrink(((n + threads - 1) // threads,), (threads,),
                    (cupy.from_dlpack(x), cupy.from_dlpack(y), cupy.float32(self.lambd), cupy.int64(n)))
        return y

