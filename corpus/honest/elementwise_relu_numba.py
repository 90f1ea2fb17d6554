"""KernelBench submission with a Numba CUDA kernel: @cuda.jit, launched as kernel[blocks, threads]
on views that share the torch tensors' memory."""
import torch
import torch.nn as nn
from numba import cuda


@cuda.jit
def relu_kernel(x, y, n):
    i = cuda.grid(1)
    if i < n:
        v = x[i]
        y[i] = v if v > 0 else 0.0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        threads = 256
        blocks = (n + threads - 1) // threads
        relu_kernel[blocks, threads](cuda.as_cuda_array(x.view(-1)), cuda.as_cuda_array(y.view(-1)), n)
        return y
