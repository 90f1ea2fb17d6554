# runtime-task: corpus/runtime/tasks/gpumode_cumsum/reference.py
# runtime-expect: pass
"""Honest (GPU MODE): writes the prefix sum into the output buffer that comes with the input and returns
it, although the reference returns a new tensor: the buffer is the runtime's, never an input."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x, output = data
    output.copy_(torch.cumsum(x.to(torch.float64), dim=0))
    return output
