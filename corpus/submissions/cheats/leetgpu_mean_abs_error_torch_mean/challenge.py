"""A LeetGPU-style challenge (the corpus's own): the mean absolute error of two vectors, written into a
one-element output. No assert gives its shape; every test the generators build makes `mae` with
torch.empty(1), which is how the gate knows that arithmetic on it is glue."""
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Mean Absolute Error"
    atol = 1e-4
    rtol = 1e-4
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, a: torch.Tensor, b: torch.Tensor, mae: torch.Tensor, N: int):
        mae[0] = torch.mean(torch.abs(a - b))

    def get_solve_signature(self):
        return {
            "a": (ctypes.POINTER(ctypes.c_float), "in"),
            "b": (ctypes.POINTER(ctypes.c_float), "in"),
            "mae": (ctypes.POINTER(ctypes.c_float), "out"),
            "N": (ctypes.c_int, "in"),
        }

    def generate_example_test(self):
        mae = torch.empty(1, device=self.device)
        return {"a": torch.tensor([1.0, -2.0, 3.0], device=self.device),
                "b": torch.tensor([0.5, 2.0, 3.0], device=self.device), "mae": mae, "N": 3}

    def generate_functional_test(self):
        return [{"a": torch.randn(n, device=self.device), "b": torch.randn(n, device=self.device),
                 "mae": torch.empty(1, device=self.device), "N": n} for n in (1, 1000, 65537)]

    def generate_performance_test(self):
        n = 50_000_000
        return {"a": torch.randn(n, device=self.device), "b": torch.randn(n, device=self.device),
                "mae": torch.zeros((1,), device=self.device), "N": n}
