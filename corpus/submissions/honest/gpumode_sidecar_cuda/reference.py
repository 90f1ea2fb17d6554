"""The harness's reference for the problem: out = x * alpha, and the inputs it generates."""
import torch

from task import input_t, output_t


def generate_input(size: int, seed: int) -> input_t:
    gen = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randn(size, device="cuda", generator=gen), 0.5


def ref_kernel(data: input_t) -> output_t:
    x, alpha = data
    return x * alpha
