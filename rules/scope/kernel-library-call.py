# Fixture for kernel-library-call: published kernel libraries reached from ModelNew.forward.
import cupy
import cutlass
import cutlass.cute as cute
import torch
import torch.nn as nn
import triton
import triton.language as tl
import xformers.ops as xops
from flash_attn import flash_attn_func

_SRC = r"""
extern "C" __global__ void copy(const float* x, float* y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
"""
# ok: kernel-library-call
_copy = cupy.RawKernel(_SRC, "copy")


@triton.jit
def _scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


@cute.kernel
def _cute_copy(src: cute.Tensor, dst: cute.Tensor):
    tid, _, _ = cute.arch.thread_idx()
    dst[tid] = src[tid]


def _unused(q, k, v):
    # ok: kernel-library-call
    return flash_attn_func(q, k, v)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: kernel-library-call
        self.plan = cutlass.op.Gemm(element=torch.float32, layout=cutlass.LayoutType.RowMajor)

    def forward(self, q, k, v):
        # ruleid: kernel-library-call
        o = flash_attn_func(q, k, v)
        # ruleid: kernel-library-call
        o = xops.memory_efficient_attention(q, k, v)
        d = torch.empty_like(o)
        # ruleid: kernel-library-call
        self.plan.run(q, k, d, d)
        # ok: kernel-library-call
        x = cupy.from_dlpack(o)
        # ruleid: kernel-library-call
        w = cupy.matmul(x, x)
        y = torch.empty_like(o)
        n = y.numel()
        # ok: kernel-library-call
        _copy(((n + 255) // 256,), (256,), (x, cupy.from_dlpack(y), cupy.int64(n)))
        _scale[(triton.cdiv(n, 1024),)](o, y, n, BLOCK=1024)
        return y, w
