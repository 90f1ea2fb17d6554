"""A LeetGPU-style challenge (the corpus's own): a symmetric int8 matrix product. The reference widens
the int8 operands to fp32, multiplies, rescales and rounds back to int8, so the task's dtype contract
is fp32; the signature declares A and B as int8 buffers."""
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Scaled INT8 Matrix Product"
    atol = 1
    rtol = 0
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor, M: int, N: int, K: int,
                       scale: float):
        acc = A.view(M, K).to(torch.float32) @ B.view(K, N).to(torch.float32)
        C.view(M, N).copy_(torch.clamp(torch.round(acc * scale), -128, 127).to(torch.int8))

    def get_solve_signature(self):
        return {
            "A": (ctypes.POINTER(ctypes.c_int8), "in"),
            "B": (ctypes.POINTER(ctypes.c_int8), "in"),
            "C": (ctypes.POINTER(ctypes.c_int8), "out"),
            "M": (ctypes.c_int, "in"),
            "N": (ctypes.c_int, "in"),
            "K": (ctypes.c_int, "in"),
            "scale": (ctypes.c_float, "in"),
        }

    def _case(self, m, n, k):
        return {"A": torch.randint(-128, 128, (m * k,), dtype=torch.int8, device=self.device),
                "B": torch.randint(-128, 128, (k * n,), dtype=torch.int8, device=self.device),
                "C": torch.empty(m * n, dtype=torch.int8, device=self.device), "M": m, "N": n, "K": k,
                "scale": 0.0005}

    def generate_example_test(self):
        return self._case(2, 2, 2)

    def generate_functional_test(self):
        return [self._case(m, n, k) for m, n, k in ((1, 1, 1), (17, 33, 65), (128, 96, 300))]

    def generate_performance_test(self):
        return self._case(4096, 4096, 1024)
