"""A LeetGPU-style challenge (the runtime's own, for its tests): merge two sorted arrays.
solve(A, B, C, M, N) writes the M + N values of A and B into C in non-decreasing order. Every case
draws A and B sorted, and a kernel may rely on it (a merge path, ranks by binary search), so the
judge's own draws must keep the order: the runtime infers `sorted` from the drawn inputs."""
import ctypes

import torch
from core.challenge_base import ChallengeBase


def _sorted(n, device, low=-10.0, high=10.0):
    return torch.sort(torch.empty(n, device=device).uniform_(low, high)).values


class Challenge(ChallengeBase):
    name = "Merge Sorted Arrays"
    atol = 0.0
    rtol = 0.0
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor, M: int, N: int):
        assert A.shape == (M,) and B.shape == (N,) and C.shape == (M + N,)
        C[:] = torch.sort(torch.cat([A, B])).values

    def get_solve_signature(self):
        return {
            "A": (ctypes.POINTER(ctypes.c_float), "in"),
            "B": (ctypes.POINTER(ctypes.c_float), "in"),
            "C": (ctypes.POINTER(ctypes.c_float), "out"),
            "M": (ctypes.c_int, "in"),
            "N": (ctypes.c_int, "in"),
        }

    def generate_example_test(self):
        A = torch.tensor([1.0, 4.0, 9.0], device=self.device)
        B = torch.tensor([2.0, 3.0, 10.0, 11.0], device=self.device)
        return {"A": A, "B": B, "C": torch.empty(7, device=self.device), "M": 3, "N": 4}

    def generate_functional_test(self):
        tests = []
        for m, n in ((1, 1), (17, 40), (300, 129)):
            tests.append({"A": _sorted(m, self.device), "B": _sorted(n, self.device),
                          "C": torch.empty(m + n, device=self.device), "M": m, "N": n})
        # Disjoint ranges: every value of A below every value of B.
        tests.append({"A": _sorted(64, self.device, -2.0, -1.0), "B": _sorted(96, self.device, 1.0, 2.0),
                      "C": torch.empty(160, device=self.device), "M": 64, "N": 96})
        return tests

    def generate_performance_test(self):
        m, n = 20000, 30000
        return {"A": _sorted(m, self.device, -1.0, 1.0), "B": _sorted(n, self.device, -1.0, 1.0),
                "C": torch.empty(m + n, device=self.device), "M": m, "N": n}
