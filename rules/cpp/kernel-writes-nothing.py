# Fixture for kernel-writes-nothing, Triton side: a launched @triton.jit kernel that stores nothing.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
# ruleid: kernel-writes-nothing
def _decoy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    x = x * 2.0


@triton.jit
# ruleid: kernel-writes-nothing
def _empty(x_ptr, n):
    pass


@triton.jit
def _store_row(y_ptr, offs, v, n):
    tl.store(y_ptr + offs, v, mask=offs < n)


@triton.jit
# A kernel that stores through a jit helper writes its output there.
# ok: kernel-writes-nothing
def _through_helper(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    _store_row(y_ptr, offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, n)


@triton.jit
# ok: kernel-writes-nothing
def _atomic_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


@triton.jit
# Never launched from forward: decoy-kernel-unlaunched's business, not this rule's.
# ok: kernel-writes-nothing
def _unused(x_ptr):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        n = x.numel()
        y = torch.empty_like(x)
        s = torch.zeros(1, device=x.device)
        grid = (triton.cdiv(n, 1024),)
        _decoy[grid](x, y, n, BLOCK=1024)
        _empty[grid](x, n)
        _through_helper[grid](x, y, n, BLOCK=1024)
        _atomic_sum[grid](x, s, n, BLOCK=1024)
        return y + s
