# Fixture for seed-rederive: seeding and RNG state, anywhere in the file.
import random

import numpy as np
import torch
import torch.nn as nn

# ruleid: seed-rederive
torch.manual_seed(42)
# ruleid: seed-rederive
np.random.seed(42)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        # ruleid: seed-rederive
        torch.cuda.manual_seed_all(0)
        # ok: seed-rederive
        self.weight = nn.Parameter(torch.randn(n, n))
        # ok: seed-rederive
        self.gen = torch.Generator(device="cpu")
        # ruleid: seed-rederive
        self.gen.manual_seed(1234)

    def forward(self, x):
        # ruleid: seed-rederive
        state = torch.get_rng_state()
        # ruleid: seed-rederive
        random.seed(0)
        # ok: seed-rederive
        jitter = random.random()
        del state, jitter
        return torch.empty_like(x)
