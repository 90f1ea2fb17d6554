"""A LeetGPU-style challenge (the runtime's own, for its tests): the histogram of N integers in
[0, num_bins). Integer input and integer output: solve(values, histogram, N, num_bins)."""
import ctypes

import torch
from core.challenge_base import ChallengeBase, OutTensor, RandIntTensor


class Challenge(ChallengeBase):
    name = "Integer Histogram"
    atol = 0.0
    rtol = 0.0
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, values: torch.Tensor, histogram: torch.Tensor, N: int, num_bins: int):
        assert values.shape == (N,) and histogram.shape == (num_bins,)
        assert values.dtype == histogram.dtype == torch.int32
        histogram.copy_(torch.bincount(values.long(), minlength=num_bins).to(torch.int32))

    def get_solve_signature(self):
        return {
            "values": (ctypes.POINTER(ctypes.c_int), "in"),
            "histogram": (ctypes.POINTER(ctypes.c_int), "out"),
            "N": (ctypes.c_int, "in"),
            "num_bins": (ctypes.c_int, "in"),
        }

    def _case(self, n, bins):
        return {
            "values": torch.randint(0, bins, (n,), device=self.device, dtype=torch.int32),
            "histogram": torch.empty(bins, device=self.device, dtype=torch.int32),
            "N": n,
            "num_bins": bins,
        }

    def generate_example_test(self):
        return self._case(8, 4)

    def generate_functional_test(self):
        return [self._case(1, 1), self._case(100, 7), self._case(5000, 256)]

    def generate_performance_test(self):
        return {
            "values": RandIntTensor((100000,), 0, 128),
            "histogram": OutTensor((128,), dtype="int32"),
            "N": 100000,
            "num_bins": 128,
        }
