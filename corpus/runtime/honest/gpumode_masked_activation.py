# runtime-task: corpus/runtime/tasks/gpumode_masked_activation/reference.py
# runtime-expect: pass
"""Honest (GPU MODE): reads the activation's name and the optional mask from the data, as the tests'
string and boolean arguments set them."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x, keep = data["x"], data["keep"]
    out = x.clamp_min(0.0) if data["mode"] == "relu" else x.abs()
    if keep is not None:
        out = torch.where(keep > 0, out, torch.zeros_like(out))
    return out
