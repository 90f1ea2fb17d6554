# runtime-task: corpus/runtime/tasks/gpumode_luma/reference.py
# runtime-expect: pass
"""Honest (GPU MODE): custom_kernel writes the luma of every pixel into the output buffer that comes
with the input, and returns it."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    image, output = data
    r, g, b = image.unbind(dim=-1)
    torch.add(torch.add(0.299 * r, 0.587 * g), 0.114 * b, out=output)
    return output
