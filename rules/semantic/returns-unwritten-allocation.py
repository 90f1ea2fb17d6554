# Fixture for returns-unwritten-allocation: fresh buffers returned without any kernel writing them.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def neg_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, -tl.load(x_ptr + offs, mask=mask), mask=mask)


def _alloc_like(x):
    # ok: returns-unwritten-allocation
    return torch.empty_like(x)


class Tail(nn.Module):
    def forward(self, x):
        # ruleid: returns-unwritten-allocation
        return torch.zeros_like(x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.tail = Tail()

    def forward(self, x):
        if x.numel() == 0:
            # An empty input: the empty allocation is the whole (empty) result.
            # ok: returns-unwritten-allocation
            return torch.empty_like(x)
        if x.dim() == 3:
            # Shaped like the input, but the input is not empty here: nothing wrote it.
            # ruleid: returns-unwritten-allocation
            return torch.empty_like(x)
        if x.dim() == 1:
            early = torch.empty_like(x)
            # ruleid: returns-unwritten-allocation
            return early
        if x.shape[0] == 1:
            # ruleid: returns-unwritten-allocation
            return x.new_empty(x.shape)
        if x.shape[0] == 2:
            return self.tail(x)
        out = _alloc_like(x)
        n = x.numel()
        neg_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        # ok: returns-unwritten-allocation
        return out
