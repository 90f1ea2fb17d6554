# Fixture for timer-patch: timing functions and events replaced by the submission.
import sys
import time

import torch
import torch.nn as nn
import triton.testing as tt

E = torch.cuda.Event


def _noop(*args, **kwargs):
    return None


def _zero_elapsed(self, end):
    return 0.001


# ruleid: timer-patch
torch.cuda.Event.elapsed_time = _zero_elapsed
# ruleid: timer-patch
setattr(E, "record", _noop)
# ruleid: timer-patch
time.perf_counter = lambda: 0.0
# ruleid: timer-patch
torch.cuda.synchronize = _noop
# ruleid: timer-patch
tt.do_bench = lambda fn, *a, **k: 0.001
# ruleid: timer-patch
sys.modules["time"].perf_counter_ns = lambda: 0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: timer-patch
        self.start = torch.cuda.Event(enable_timing=True)
        # ok: timer-patch
        self.t0 = time.perf_counter()

    def forward(self, x):
        # ruleid: timer-patch
        E.query = _noop
        return torch.empty_like(x)
