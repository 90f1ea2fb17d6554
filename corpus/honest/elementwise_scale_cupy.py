"""KernelBench submission with a CuPy RawKernel: CUDA source compiled by CuPy (NVRTC), launched on
the torch tensors' memory through DLPack views."""
import cupy
import torch
import torch.nn as nn

_SCALE_SRC = r"""
extern "C" __global__ void scale_shift(const float* x, float* y, float scale, float shift, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * scale + shift;
}
"""

_scale_shift = cupy.RawKernel(_SCALE_SRC, "scale_shift")


class ModelNew(nn.Module):
    def __init__(self, scale: float = 2.0, shift: float = 0.5):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        threads = 256
        _scale_shift(((n + threads - 1) // threads,), (threads,),
                     (cupy.from_dlpack(x), cupy.from_dlpack(y), cupy.float32(self.scale), cupy.float32(self.shift), cupy.int32(n)))
        return y
