# runtime-task: corpus/runtime/tasks/gpumode_cumsum/reference.py
# runtime-expect: fail input-mutated
"""M3 (GPU MODE): computes the prefix sum in place in x, the input, and returns a copy."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x, _ = data
    torch.cumsum(x, dim=0, out=x)
    return x.clone()
