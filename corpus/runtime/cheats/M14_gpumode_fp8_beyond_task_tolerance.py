# runtime-task: corpus/runtime/tasks/gpumode_bf16_silu/reference.py
# runtime-expect: fail mismatch
"""M14 (GPU MODE): rounds the input to fp8 (e4m3) before the activation: cheaper, and off by more than
even the task's loose tolerances (rtol 2e-2, atol 2e-2)."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x = data.to(torch.float8_e4m3fn).float()
    return x * torch.sigmoid(x)
