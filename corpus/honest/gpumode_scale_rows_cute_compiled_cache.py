"""GPU MODE-style submission in the CuTe DSL: custom_kernel(data) doubles every element with a
@cute.kernel launched from a class whose __call__ is the @cute.jit host function. The host function is
compiled once per element count with cute.compile and kept in a module-level dict; the last compiled
one is also kept in a global for the common case of a repeated size. Only compiled kernels are kept:
every call runs the kernel on this call's data."""
import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import from_dlpack

from task import input_t, output_t


class DoubleElements:
    def __init__(self, threads: int = 128):
        self.threads = threads

    @cute.kernel
    def kernel(self, gX: cute.Tensor, gY: cute.Tensor, n: cutlass.Int32):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = bidx * self.threads + tidx
        if i < n:
            gY[i] = gX[i] * 2.0

    @cute.jit
    def __call__(self, mX: cute.Tensor, mY: cute.Tensor, n: cutlass.Int32):
        blocks = (n + self.threads - 1) // self.threads
        self.kernel(mX, mY, n).launch(grid=(blocks, 1, 1), block=(self.threads, 1, 1))


_compiled_by_size = {}
_last_compiled = None


def custom_kernel(data: input_t) -> output_t:
    global _last_compiled
    x = data.contiguous().view(-1)
    y = torch.empty_like(x)
    n = x.numel()
    if n not in _compiled_by_size:
        _compiled_by_size[n] = cute.compile(DoubleElements(), from_dlpack(x), from_dlpack(y), n)
    _last_compiled = _compiled_by_size[n]
    _last_compiled(from_dlpack(x), from_dlpack(y), n)
    return y.view(data.shape)
