# Fixture for problem-shrink: redefined inputs and writes into foreign namespaces.
import ctypes
import sys

import __main__
import numpy as np
import torch
import torch.nn as nn

N = 4096


# ok: problem-shrink
def get_inputs():
    return [torch.randn(8, 8)]


# ok: problem-shrink
def get_init_inputs():
    return []


# ruleid: problem-shrink
sys.modules["__main__"].batch_size = 1
# ruleid: problem-shrink
globals()["N"] = 8
# ruleid: problem-shrink
__main__.M = 16
# ruleid: problem-shrink
np.pi = 3
# ok: problem-shrink
torch.backends.cudnn.benchmark = True


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: problem-shrink
        self.n = N

    # ok: problem-shrink
    def get_inputs(self):
        return []

    def forward(self, x):
        # ruleid: problem-shrink
        setattr(torch.nn.functional, "relu", torch.relu)
        return torch.empty_like(x)


def _load_library(path):
    lib = ctypes.CDLL(path)
    # A ctypes foreign function's signature is set-up of one's own library.
    # ok: problem-shrink
    lib.launch.restype = ctypes.c_int
    # ok: problem-shrink
    lib.launch.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib
