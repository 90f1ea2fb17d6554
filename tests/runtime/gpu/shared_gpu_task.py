# The shared-GPU test's task (shared_gpu_two_runs.sh): relu over one fp32 tensor of KGATE_TEST_NUMEL
# elements, sized by the script so that one run needs more than half of the GPU's free memory.
import os

import torch
import torch.nn as nn

ROWS = 1024
COLS = max(1, int(os.environ.get("KGATE_TEST_NUMEL", "1048576")) // ROWS)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
