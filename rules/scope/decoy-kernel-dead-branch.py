# Fixture for decoy-kernel-dead-branch: launches under dead guards, training tests and empty grids.
import torch
import torch.nn as nn
import triton
import triton.language as tl

DEBUG = False


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, 1024),)
        if False:
            # ruleid: decoy-kernel-dead-branch
            scale_kernel[grid](x, y, n, BLOCK=1024)
        if DEBUG:
            # ruleid: decoy-kernel-dead-branch
            scale_kernel[grid](x, y, n, BLOCK=1024)
        if x.shape[0] < 0:
            # ruleid: decoy-kernel-dead-branch
            scale_kernel[grid](x, y, n, BLOCK=1024)
        if self.training:
            # ruleid: decoy-kernel-dead-branch
            scale_kernel[grid](x, y, n, BLOCK=1024)
        if x.shape[-1] % 16 == 0:
            # ok: decoy-kernel-dead-branch
            scale_kernel[grid](x, y, n, BLOCK=1024)
        try:
            # ok: decoy-kernel-dead-branch
            scale_kernel[grid](x, y, n, BLOCK=1024)
        except RuntimeError:
            raise
        return y * 2
        # ruleid: decoy-kernel-dead-branch
        scale_kernel[grid](x, y, n, BLOCK=1024)
