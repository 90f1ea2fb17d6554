# runtime-task: corpus/runtime/tasks/leetgpu_saxpy/challenge.py
# runtime-expect: fail
"""M12 (LeetGPU): a kernel written for the timed size alone: it handles whole blocks of 4096 and drops
the tail, which the performance case (65,536) never has and every odd functional case does."""
import torch


def solve(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, alpha: float, N: int) -> None:
    whole = N - N % 4096
    torch.add(y[:whole], x[:whole], alpha=alpha, out=out[:whole])
