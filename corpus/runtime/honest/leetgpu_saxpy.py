# runtime-task: corpus/runtime/tasks/leetgpu_saxpy/challenge.py
# runtime-expect: pass
"""Honest (LeetGPU, PyTorch): solve writes alpha * x + y into the output buffer it is handed, binding
its parameters by position in get_solve_signature's order (its names need not match the challenge's)."""
import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, scale: float, n: int) -> None:
    torch.add(b[:n], a[:n], alpha=scale, out=c[:n])
