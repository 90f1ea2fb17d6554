# runtime-task: corpus/runtime/tasks/row_sum
# runtime-expect: pass
"""Honest: sums each row at whatever shape it is given, public or hidden.

It sums in the reference's order. A chunked sum (256 columns at a time, tried first) failed the fp32
contract now and then: under the outlier and huge distributions a row's sum cancels to ~60 from terms
of ~1e4, and two summation orders then differ by more than atol + rtol*|expected| although both are
faithful fp32 sums. The contract's elementwise term is relative to the output, not to the terms that
were summed; that gap is recorded in the README ("Not built yet")."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.sum(dim=1)
