"""A LeetGPU-style challenge (the runtime's own, for its tests): out = alpha * x + y over N floats.
solve(x, y, out, alpha, N) writes `out`; x and y are read-only. The performance case is the public
shape set, the functional and example cases the hidden ones."""
import ctypes

import torch
from core.challenge_base import ChallengeBase, OutTensor, RandnTensor


class Challenge(ChallengeBase):
    name = "Scaled Vector Add"
    atol = 1e-05
    rtol = 1e-05
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, alpha: float, N: int):
        assert x.shape == y.shape == out.shape == (N,)
        assert x.dtype == y.dtype == out.dtype == torch.float32
        torch.add(y, x, alpha=alpha, out=out)

    def get_solve_signature(self):
        return {
            "x": (ctypes.POINTER(ctypes.c_float), "in"),
            "y": (ctypes.POINTER(ctypes.c_float), "in"),
            "out": (ctypes.POINTER(ctypes.c_float), "out"),
            "alpha": (ctypes.c_float, "in"),
            "N": (ctypes.c_int, "in"),
        }

    def _case(self, n, alpha=1.5):
        return {
            "x": torch.empty(n, device=self.device).uniform_(-4.0, 4.0),
            "y": torch.empty(n, device=self.device).uniform_(-4.0, 4.0),
            "out": torch.empty(n, device=self.device),
            "alpha": alpha,
            "N": n,
        }

    def generate_example_test(self):
        return {
            "x": torch.tensor([1.0, 2.0, 3.0, 4.0], device=self.device),
            "y": torch.tensor([0.5, 0.5, 0.5, 0.5], device=self.device),
            "out": torch.empty(4, device=self.device),
            "alpha": 1.5,
            "N": 4,
        }

    def generate_functional_test(self):
        return [self._case(n) for n in (1, 7, 1000, 4099)] + [self._case(7, alpha=-2.0)]

    def generate_performance_test(self):
        n = 65536
        return {"x": RandnTensor((n,)), "y": RandnTensor((n,)), "out": OutTensor((n,)), "alpha": 1.5, "N": n}
