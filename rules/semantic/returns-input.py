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
        if x.shape[0] == 3:
            y = x
            # ruleid: returns-input
            return y
        x = _as_contiguous(x)
        if x.shape[0] == 4:
            # Rebound to a view of itself: still the input.
            # ruleid: returns-input
            return x
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        if n == 7:
            # ok: returns-input
            return out
        # The parameter rebound to the kernel's result, unconditionally: what is returned is the result.
        x = out
        # ok: returns-input
        return x
