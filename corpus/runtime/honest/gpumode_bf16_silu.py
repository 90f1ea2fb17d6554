# runtime-task: corpus/runtime/tasks/gpumode_bf16_silu/reference.py
# runtime-expect: pass
"""Honest (GPU MODE): computes in bf16 and returns fp32, within the tolerances the task's
check_implementation declares (rtol 2e-2, atol 2e-2), though not within the runtime's fp32 default."""
import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x = data.to(torch.bfloat16)
    return (x * torch.sigmoid(x)).float()
