# runtime-task: corpus/runtime/tasks/leetgpu_merge/challenge.py
# runtime-expect: fail
"""M12 (LeetGPU): a "merge" fitted to one fixture: it copies A and then B, which is the merge only
when every value of A lies below every value of B, as in the disjoint-range functional case. Sorted
draws that overlap, which the judge keeps drawing, expose it."""
import torch


def solve(A: torch.Tensor, B: torch.Tensor, C: torch.Tensor, M: int, N: int) -> None:
    C[:M] = A
    C[M:] = B
