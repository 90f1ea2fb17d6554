"""A LeetGPU-style challenge (the runtime's own, for its tests): reverse N floats in place.
solve(data, N) reads and writes `data` ("inout"): the runtime hands solve a fresh copy of the input,
and compares that copy after the call with the reference's."""
import ctypes

import torch
from core.challenge_base import ChallengeBase, RandTensor


class Challenge(ChallengeBase):
    name = "Reverse In Place"
    atol = 0.0
    rtol = 0.0
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, data: torch.Tensor, N: int):
        assert data.shape == (N,) and data.dtype == torch.float32
        data[:] = torch.flip(data, [0])

    def get_solve_signature(self):
        return {"data": (ctypes.POINTER(ctypes.c_float), "inout"), "N": (ctypes.c_int, "in")}

    def generate_example_test(self):
        return {"data": torch.tensor([1.0, 2.0, 3.0], device=self.device), "N": 3}

    def generate_functional_test(self):
        return [{"data": torch.empty(n, device=self.device).uniform_(-1.0, 1.0), "N": n} for n in (1, 2, 33, 1025)]

    def generate_performance_test(self):
        return {"data": RandTensor((40000,), -1.0, 1.0), "N": 40000}
