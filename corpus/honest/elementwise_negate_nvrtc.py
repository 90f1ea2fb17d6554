"""KernelBench submission that compiles its kernel with NVRTC through cuda-python and launches it
with the driver API (cuLaunchKernel) on the current stream."""
import ctypes

import torch
import torch.nn as nn
from cuda.bindings import driver, nvrtc

_SRC = b"""
extern "C" __global__ void negate(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = -x[i];
}
"""


def _compile():
    _, prog = nvrtc.nvrtcCreateProgram(_SRC, b"negate.cu", 0, [], [])
    nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=compute_90"])
    _, size = nvrtc.nvrtcGetPTXSize(prog)
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(prog, ptx)
    _, module = driver.cuModuleLoadData(ptx)
    _, function = driver.cuModuleGetFunction(module, b"negate")
    return function


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.function = _compile()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        threads = 256
        stream = torch.cuda.current_stream().cuda_stream
        # cuda-python takes kernel arguments as (values, ctypes types); None marks a device pointer.
        driver.cuLaunchKernel(self.function, (n + threads - 1) // threads, 1, 1, threads, 1, 1, 0, stream,
                              ((x.data_ptr(), y.data_ptr(), n), (None, None, ctypes.c_int)), 0)
        return y
