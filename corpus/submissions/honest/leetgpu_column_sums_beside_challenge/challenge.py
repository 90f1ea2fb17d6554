"""A LeetGPU-style challenge (the corpus's own): the column sums of an M x N matrix. solve(X, sums, M,
N) writes sums; get_solve_signature says which parameter is the output, so the gate reads it from this
file when it sits beside the solution, as LeetGPU's layout has it."""
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Column Sums"
    atol = 1e-3
    rtol = 1e-4
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, X: torch.Tensor, sums: torch.Tensor, M: int, N: int):
        assert X.shape == (M, N) and sums.shape == (N,)
        torch.sum(X, dim=0, out=sums)

    def get_solve_signature(self):
        return {
            "X": (ctypes.POINTER(ctypes.c_float), "in"),
            "sums": (ctypes.POINTER(ctypes.c_float), "out"),
            "M": (ctypes.c_int, "in"),
            "N": (ctypes.c_int, "in"),
        }

    def generate_example_test(self):
        X = torch.tensor([[1.0, 2.0], [3.0, 4.0]], device=self.device)
        return {"X": X, "sums": torch.empty(2, device=self.device), "M": 2, "N": 2}

    def generate_functional_test(self):
        return [{"X": torch.randn(m, n, device=self.device), "sums": torch.empty(n, device=self.device), "M": m, "N": n}
                for m, n in ((1, 1), (37, 65), (512, 300))]

    def generate_performance_test(self):
        return {"X": torch.randn(8192, 4096, device=self.device), "sums": torch.empty(4096, device=self.device),
                "M": 8192, "N": 4096}
