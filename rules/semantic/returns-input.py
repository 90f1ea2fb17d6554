# Fixture for returns-input: the input handed back from ModelNew.forward.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def _as_contiguous(t):
    # ok: returns-input
    return t if t.is_contiguous() else t.contiguous()


class ModelNew(nn.Module):
    def forward(self, x):
        if x.dim() == 1:
            # ruleid: returns-input
            return x
        if x.shape[0] == 1:
            # ruleid: returns-input
            return x.view(x.shape[1], 1)
        if x.shape[0] == 2:
            # ruleid: returns-input
            return x.float()
        x = _as_contiguous(x)
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        # ok: returns-input
        return out
