# runtime-task: corpus/runtime/tasks/row_stats.py
# runtime-expect: pass
# Honest two-output candidate on the GPU: one Triton kernel writes each row's mean and maximum into two
# output tensors, which the runtime copies into the CUDA arena one after the other and compares each.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_stats_kernel(x_ptr, mean_ptr, max_ptr, cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
    tl.store(mean_ptr + row, tl.sum(x, axis=0) / cols)
    x = tl.where(mask, x, float("-inf"))
    tl.store(max_ptr + row, tl.max(x, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        mean = torch.empty(rows, device=x.device, dtype=x.dtype)
        top = torch.empty(rows, device=x.device, dtype=x.dtype)
        row_stats_kernel[(rows,)](x, mean, top, cols, x.stride(0), BLOCK=triton.next_power_of_2(cols))
        return mean, top
