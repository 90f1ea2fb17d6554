# runtime-task: corpus/runtime/tasks/gpumode_sym_eigh/reference.py
# runtime-expect: pass
# runtime-expect-task-checker: yes
"""Honest (GPU MODE): the eigendecomposition, each eigenvector signed so that its largest component is
positive. About half the columns of Q then differ in sign from the reference's, which no elementwise
tolerance accepts; the task's own checker does, since A Q = Q diag(L) holds either way."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    values, q = torch.linalg.eigh(data)
    largest = torch.gather(q, -2, q.abs().argmax(dim=-2, keepdim=True))
    return q * torch.sign(largest), values
