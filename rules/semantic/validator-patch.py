# Fixture for validator-patch: comparison and testing functions replaced by the submission.
import builtins
import sys

import numpy as np
import torch
import torch.nn as nn


def _yes(*args, **kwargs):
    return True


def _check_correctness(a, b):
    return bool((a - b).abs().max() < 1e-2)


# ruleid: validator-patch
torch.allclose = _yes
# ruleid: validator-patch
torch.testing.assert_close = _yes
# ruleid: validator-patch
np.allclose = _yes
# ruleid: validator-patch
torch.Tensor.__eq__ = _yes
# ruleid: validator-patch
builtins.isinstance = _yes
# ruleid: validator-patch
setattr(torch, "all" + "close", _yes)
# ruleid: validator-patch
_check_correctness.__code__ = _yes.__code__
# ruleid: validator-patch
sys.modules["__main__"].check_correctness = _yes
# Patching without an assignment statement.
# ruleid: validator-patch
torch.__dict__.update(allclose=_yes)
# ruleid: validator-patch
type.__setattr__(torch.Tensor, "__eq__", _yes)
# ok: validator-patch
torch.cuda.Event.elapsed_time = _yes
# ok: validator-patch
torch.backends.cudnn.benchmark = True


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        # ok: validator-patch
        same = torch.allclose(out, out)
        del same
        return out
