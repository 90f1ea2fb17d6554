# runtime-task: corpus/runtime/tasks/leetgpu_reverse/challenge.py
# runtime-expect: fail
"""M1 (LeetGPU, "inout"): reverses into a new tensor and returns it; the array it was handed, which the
harness reads afterwards, is left as it was."""
import torch


def solve(data: torch.Tensor, N: int) -> torch.Tensor:
    return torch.flip(data, [0])
