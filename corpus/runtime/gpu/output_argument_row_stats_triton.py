# runtime-task: corpus/runtime/tasks/row_stats.py
# runtime-expect: pass
# Honest output-argument submission with two outputs on the GPU: the task's reference returns (mean, amax)
# of each row, so solve(x, mean, amax, batch, dim) gets one buffer for each and one Triton program per row
# writes both.
import torch
import triton
import triton.language as tl


@triton.jit
def row_mean_max_kernel(x_ptr, mean_ptr, amax_ptr, cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    vals = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
    tl.store(mean_ptr + row, tl.sum(vals, axis=0) / cols)
    tl.store(amax_ptr + row, tl.max(tl.where(mask, vals, float("-inf")), axis=0))


def solve(x: torch.Tensor, mean: torch.Tensor, amax: torch.Tensor, batch: int, dim: int) -> None:
    row_mean_max_kernel[(batch,)](x, mean, amax, dim, x.stride(0), BLOCK=triton.next_power_of_2(dim))
