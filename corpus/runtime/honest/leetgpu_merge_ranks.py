# runtime-task: corpus/runtime/tasks/leetgpu_merge/challenge.py
# runtime-expect: pass
"""Honest (LeetGPU, sorted inputs): a merge by ranks, as a merge-path kernel computes them. Each value
of A lands at its index plus the count of B's values below it, each value of B at its index plus the
count of A's values at or below it (ties go to A first). The ranks come from binary searches, which
are right only because A and B are sorted: the challenge's contract, which the judge's draws keep."""
import torch


def solve(A: torch.Tensor, B: torch.Tensor, C: torch.Tensor, M: int, N: int) -> None:
    a_rank = torch.arange(M, device=A.device) + torch.searchsorted(B, A, right=False)
    b_rank = torch.arange(N, device=B.device) + torch.searchsorted(A, B, right=True)
    C[a_rank] = A
    C[b_rank] = B
