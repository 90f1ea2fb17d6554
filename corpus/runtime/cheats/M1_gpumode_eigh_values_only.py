# runtime-task: corpus/runtime/tasks/gpumode_sym_eigh/reference.py
# runtime-expect: fail mismatch
# runtime-expect-message: output[0]
"""M1 (GPU MODE): computes the eigenvalues only, the cheap half of the work, and hands out the identity
as the eigenvectors: the second output is right, the first is not a decomposition of anything."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    values = torch.linalg.eigvalsh(data)
    q = torch.eye(data.shape[-1], dtype=data.dtype, device=data.device).expand_as(data).contiguous()
    return q, values
