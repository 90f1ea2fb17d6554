# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: pass
"""Honest (output-argument harness, LeetGPU/Tensara style): solve(x, y, out, B, D) writes 2x + y into the
output buffer it is given; B and D are the task's sizes, passed by name."""
import torch


def solve(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, B: int, D: int) -> None:
    torch.add(y[:B, :D], x[:B, :D], alpha=2.0, out=out)
