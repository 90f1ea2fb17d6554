# Fixture for forward-reaches-no-kernel: a submission whose only launch sits on a dead branch.
import torch
import torch.nn as nn
import triton
import triton.language as tl

USE_KERNEL = False


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x > 0, x, 0.0), mask=mask)


def launch_relu(x):
    y = torch.empty_like(x)
    n = x.numel()
    # ok: forward-reaches-no-kernel
    relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    # ruleid: forward-reaches-no-kernel
    def forward(self, x):
        if USE_KERNEL:
            # ok: forward-reaches-no-kernel
            return launch_relu(x)
        # ok: forward-reaches-no-kernel
        return torch.relu(x)
