# runtime-task: corpus/runtime/tasks/horner
# runtime-expect: fail mismatch
# runtime-expect-failing-dtypes: fp32 fp16 bf16
"""Cheat (a fast path right only near zero): evaluates the polynomial in fp32 without its top coefficient,
which is negligible only for |x| much smaller than 1. It is wrong against the fp16/bf16 reference and
against the reference recomputed in fp32 alike: the second comparison gives honest precision, not slack,
so its fp16 and bf16 cases fail too. (Where the dropped term vanishes, as on some special values, it is
right, and such a case may pass against the fp32 recomputation only.)"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, coeffs):
        wide_x = x.float()
        wide_c = coeffs.float()
        y = torch.full_like(wide_x, float(wide_c[-2]))
        for i in range(wide_c.shape[0] - 3, -1, -1):
            y = y * wide_x + wide_c[i]
        return y.to(x.dtype)
