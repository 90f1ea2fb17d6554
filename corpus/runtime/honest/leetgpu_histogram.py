# runtime-task: corpus/runtime/tasks/leetgpu_histogram/challenge.py
# runtime-expect: pass
"""Honest (LeetGPU, integer input and output): solve counts each value into its bin with a scatter-add
over the output buffer, which it clears first."""
import torch


def solve(values: torch.Tensor, histogram: torch.Tensor, N: int, num_bins: int) -> None:
    histogram.zero_()
    histogram.scatter_add_(0, values[:N].long(), torch.ones(N, dtype=histogram.dtype, device=histogram.device))
