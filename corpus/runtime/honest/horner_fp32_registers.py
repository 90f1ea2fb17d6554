# runtime-task: corpus/runtime/tasks/horner
# runtime-expect: pass
# runtime-expect-fp32-reference: yes
"""Honest: evaluates the polynomial in fp32 and rounds once to the input's dtype. It is more exact than
the fp16/bf16 reference, which rounds after every op; the judge compares such an output with the
reference recomputed in fp32 as well (the case records matched_fp32_reference)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, coeffs):
        wide_x = x.float()
        wide_c = coeffs.float()
        y = torch.full_like(wide_x, float(wide_c[-1]))
        for i in range(wide_c.shape[0] - 2, -1, -1):
            y = y * wide_x + wide_c[i]
        return y.to(x.dtype)
