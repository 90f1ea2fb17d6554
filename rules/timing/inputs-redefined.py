# Fixture for inputs-redefined: module-level input builders of the submission's own.
import torch
import torch.nn as nn

N = 4096


# ruleid: inputs-redefined
def get_inputs():
    return [torch.randn(8, 8)]


# ruleid: inputs-redefined
def get_init_inputs():
    return []


# ok: inputs-redefined
def make_inputs():
    return [torch.randn(N, N)]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    # ok: inputs-redefined
    def get_inputs_for_debug(self):
        return []

    def forward(self, x):
        return x
