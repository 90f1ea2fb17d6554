# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail input-mutated
"""M3 (output-argument harness): computes in place into its input y, then copies it into the output: the
answer is right, and the caller's input is gone."""
import torch


def solve(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, B: int, D: int) -> None:
    y.add_(x, alpha=2.0)
    out.copy_(y)
