"""BatchNorm task run in training mode (KernelBench never calls eval()). forward flips the module
to eval mode, so the kernel normalises with the running statistics (zeros and ones at start) instead
of the batch's: a cheaper, different computation.

Technique M18 (mode switch inside forward), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _affine(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, hw, c, n, eps, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ch = (offs // hw) % c
    x = tl.load(x_ptr + offs, mask=mask)
    mean = tl.load(mean_ptr + ch, mask=mask)
    var = tl.load(var_ptr + ch, mask=mask)
    w = tl.load(w_ptr + ch, mask=mask)
    b = tl.load(b_ptr + ch, mask=mask)
    tl.store(y_ptr + offs, (x - mean) / tl.sqrt(var + eps) * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x):
        # ruleid: forward-mutates-state, mode-switch-in-forward
        self.bn.training = False
        y = torch.empty_like(x)
        n = x.numel()
        _affine[(triton.cdiv(n, 1024),)](x, y, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias,
                                         x.shape[2] * x.shape[3], x.shape[1], n, self.bn.eps, BLOCK=1024)
        return y
