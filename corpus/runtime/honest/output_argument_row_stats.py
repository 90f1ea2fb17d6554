# runtime-task: corpus/runtime/tasks/row_stats.py
# runtime-expect: pass
"""Honest (output-argument harness, two outputs): the task's reference returns (mean, amax) of each row,
so solve gets one buffer for each, in that order, after the input, then the sizes by name."""
import torch


def solve(x: torch.Tensor, mean: torch.Tensor, amax: torch.Tensor, batch: int, dim: int) -> None:
    torch.sum(x[:batch, :dim], dim=-1, out=mean)
    mean.div_(dim)
    torch.amax(x[:batch, :dim], dim=-1, out=amax)
