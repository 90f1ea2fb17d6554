"""A LeetGPU-style challenge (the corpus's own): softmax over a vocabulary, then one token drawn from it
with PyTorch's generator seeded by the `seed` the harness passes in. The draw is part of the task: a
solution must seed as the reference does and draw with the same PyTorch sampler to match it."""
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Seeded Sampling"
    atol = 0.0
    rtol = 0.0
    num_gpus = 1
    access_tier = "free"

    def reference_impl(self, logits: torch.Tensor, seed: torch.Tensor, token: torch.Tensor, vocab_size: int):
        assert logits.shape == (vocab_size,) and seed.shape == (1,) and token.shape == (1,)
        probs = torch.softmax(logits, dim=0)
        chosen_seed = seed.item()
        torch.manual_seed(chosen_seed)
        token[0] = torch.multinomial(probs, 1)[0]

    def get_solve_signature(self):
        return {
            "logits": (ctypes.POINTER(ctypes.c_float), "in"),
            "seed": (ctypes.POINTER(ctypes.c_int32), "in"),
            "token": (ctypes.POINTER(ctypes.c_int64), "out"),
            "vocab_size": (ctypes.c_int, "in"),
        }

    def generate_example_test(self):
        return {"logits": torch.tensor([1.0, 2.0, 3.0, 0.5], device=self.device),
                "seed": torch.tensor([7], device=self.device, dtype=torch.int32),
                "token": torch.empty(1, device=self.device, dtype=torch.int64), "vocab_size": 4}

    def generate_functional_test(self):
        return [{"logits": torch.randn(v, device=self.device),
                 "seed": torch.tensor([s], device=self.device, dtype=torch.int32),
                 "token": torch.empty(1, device=self.device, dtype=torch.int64), "vocab_size": v}
                for v, s in ((1, 3), (1000, 11), (50257, 12345))]

    def generate_performance_test(self):
        return {"logits": torch.randn(262144, device=self.device),
                "seed": torch.tensor([2024], device=self.device, dtype=torch.int32),
                "token": torch.empty(1, device=self.device, dtype=torch.int64), "vocab_size": 262144}
