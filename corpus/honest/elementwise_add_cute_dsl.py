"""KernelBench submission in the CuTe DSL: a @cute.kernel elementwise add launched from a @cute.jit
host function, compiled once with cute.compile and cached on the module."""
import cutlass
import cutlass.cute as cute
import torch
import torch.nn as nn
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def add_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    bdim, _, _ = cute.arch.block_dim()
    i = bidx * bdim + tidx
    m, n = gA.shape
    if i < m * n:
        gC[i // n, i % n] = gA[i // n, i % n] + gB[i // n, i % n]


@cute.jit
def add_launcher(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
    threads = 256
    m, n = mA.shape
    add_kernel(mA, mB, mC).launch(grid=((m * n + threads - 1) // threads, 1, 1), block=(threads, 1, 1))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.compiled = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        c = torch.empty_like(a)
        a_, b_, c_ = from_dlpack(a), from_dlpack(b), from_dlpack(c)
        if self.compiled is None:
            self.compiled = cute.compile(add_launcher, a_, b_, c_)
        self.compiled(a_, b_, c_)
        return c
