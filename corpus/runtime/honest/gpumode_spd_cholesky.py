# runtime-task: corpus/runtime/tasks/gpumode_spd_cholesky/reference.py
# runtime-expect: pass
"""Honest (GPU MODE): the Cholesky factor of each matrix. torch.linalg.cholesky raises on a matrix that
is not positive definite, which the task never hands it."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    return torch.linalg.cholesky(data)
