# Runtime test task (bare KernelBench file) whose get_inputs() runs out of GPU memory, as it does when
# other runs hold the GPU: a limit of the harness, so `kgate run` reports harness-error (exit 3) with
# reason out-of-memory, never a task error (exit 2) and never a verdict on the submission.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(-torch.abs(x))


def get_inputs():
    raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 9.95 GiB (the GPU is shared)")


def get_init_inputs():
    return []
