# runtime-task: corpus/runtime/tasks/leetgpu_reverse/challenge.py
# runtime-expect: pass
"""Honest (LeetGPU, an "inout" parameter): solve reverses the array it is handed, in place, swapping
the two halves element by element with a gather of the mirrored indices."""
import torch


def solve(data: torch.Tensor, N: int) -> None:
    half = N // 2
    front = data[:half].clone()
    data[:half] = data[N - half:].flip(0)
    data[N - half:] = front.flip(0)
