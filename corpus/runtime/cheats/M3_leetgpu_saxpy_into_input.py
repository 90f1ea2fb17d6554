# runtime-task: corpus/runtime/tasks/leetgpu_saxpy/challenge.py
# runtime-expect: fail input-mutated
"""M3 (LeetGPU): computes alpha * x + y in place in y, an "in" parameter, and copies it to the output:
the answer is right and the caller's input is gone."""
import torch


def solve(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, alpha: float, N: int) -> None:
    y.add_(x, alpha=alpha)
    out.copy_(y)
