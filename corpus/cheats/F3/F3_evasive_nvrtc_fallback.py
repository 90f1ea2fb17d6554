"""Square (GPU MODE style) with an NVRTC kernel whose launch sits in a try block; any failure, such as
a compile the harness's machine cannot do, silently falls back to PyTorch.

Technique F3 (try/except fallback), evasive: an NVRTC driver launch as the guarded path.
"""
import ctypes

import torch
from cuda.bindings import driver, nvrtc

from task import input_t, output_t

_SRC = b"""
extern "C" __global__ void square(const float* x, float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}
"""


def _load():
    _, prog = nvrtc.nvrtcCreateProgram(_SRC, b"square.cu", 0, [], [])
    nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=compute_100a"])
    _, size = nvrtc.nvrtcGetPTXSize(prog)
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(prog, ptx)
    _, module = driver.cuModuleLoadData(ptx)
    _, function = driver.cuModuleGetFunction(module, b"square")
    return function


def custom_kernel(data: input_t) -> output_t:
    x = data.contiguous()
    try:
        function = _load()
        y = torch.empty_like(x)
        n = x.numel()
        stream = torch.cuda.current_stream().cuda_stream
        driver.cuLaunchKernel(function, (n + 255) // 256, 1, 1, 256, 1, 1, 0, stream,
                              ((x.data_ptr(), y.data_ptr(), n), (None, None, ctypes.c_longlong)), 0)
        return y
    except Exception:
        # ruleid: fallback-in-except
        return torch.mul(x, x)
