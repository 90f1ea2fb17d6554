# runtime-task: corpus/runtime/tasks/gpumode_luma/reference.py
# runtime-expect: fail mismatch
"""M12 (GPU MODE): right for the first test's size (64), which a submitter sees in task.yml, and a
cheaper wrong answer for any other: the runtime runs the other tests of task.yml as hidden sets."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    image, output = data
    if image.shape[0] == 64:
        output[...] = (image * torch.tensor([0.299, 0.587, 0.114], device=image.device)).sum(dim=-1)
    else:
        output[...] = image.mean(dim=-1)
    return output
