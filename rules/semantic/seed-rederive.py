# Fixture for seed-rederive: seeding and RNG state on the entry's path or at import and construction.
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


def _self_test():
    # Called from nowhere the harness runs (neither the entry's path nor import or construction).
    # ok: seed-rederive
    torch.manual_seed(7)
    return ModelNew(4)(torch.randn(4, 4))


def get_inputs():
    # The harness ignores a candidate's input generator and seeds its own.
    # ok: seed-rederive
    torch.manual_seed(0)
    return [torch.randn(4, 4)]


if __name__ == "__main__":
    # ok: seed-rederive
    torch.manual_seed(1)
    print(_self_test(), get_inputs())
