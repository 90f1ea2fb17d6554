# runtime-task: corpus/runtime/tasks/gpumode_spd_cholesky/reference.py
# runtime-expect: fail mismatch
"""M12 (GPU MODE): factors the first matrix of the batch only and hands its factor out for every matrix,
right where a batch repeats one matrix and wrong on the task's own inputs."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    return torch.linalg.cholesky(data[:1]).expand_as(data).contiguous()
