# Fixture for entry-helper-missing: the entry hands its work to a module of the submission that is
# not beside this file.
import math

import flash_attn
import torch
import torch.nn as nn
from _kgate_fixture_absent_kernels import fused_gelu


class ModelNew(nn.Module):
    def forward(self, q, k, v):
        scale = 1.0 / math.sqrt(q.shape[-1])
        # A published library is library code (judged by name), not a missing helper.
        # ok: entry-helper-missing
        o = flash_attn.flash_attn_func(q, k, v, softmax_scale=scale)
        # ruleid: entry-helper-missing
        return fused_gelu(o)
