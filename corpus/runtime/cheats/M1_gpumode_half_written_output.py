# runtime-task: corpus/runtime/tasks/gpumode_luma/reference.py
# runtime-expect: fail nan-mismatch
"""M1 (GPU MODE): writes the luma of the first half of the rows only. The output buffer that comes with
the input is the runtime's fresh one on every call (NaN for floating types), so the unwritten rows
cannot hold a previous call's or the reference's values."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    image, output = data
    half = image.shape[0] // 2
    w = torch.tensor([0.299, 0.587, 0.114], device=image.device)
    output[:half] = (image[:half] * w).sum(dim=-1)
    return output
