"""Reference of a GPU MODE-style block-scaled fp8 GEMM task for MI300: A [m, k] and B [n, k] in fp8
e4m3 fnuz, one fp32 scale per 128 columns of K (per row of A, per 128 x 128 block of B), and a bf16
output C [m, n] that the harness allocates and hands to the submission."""
import torch

BLOCK = 128


def generate_input(m: int, n: int, k: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn((m, k), device="cuda", generator=gen).to(torch.float8_e4m3fnuz)
    b = torch.randn((n, k), device="cuda", generator=gen).to(torch.float8_e4m3fnuz)
    a_scale = torch.rand((k // BLOCK, m), device="cuda", generator=gen)
    b_scale = torch.rand((k // BLOCK, (n + BLOCK - 1) // BLOCK), device="cuda", generator=gen)
    c = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
    return a, b, a_scale, b_scale, c


def ref_kernel(data):
    a, b, a_scale, b_scale, c = data
    m, k = a.shape
    n = b.shape[0]
    a_full = a.float() * a_scale.T.repeat_interleave(BLOCK, dim=1)[:, :k]
    b_blocks = b_scale.repeat_interleave(BLOCK, dim=0)[:k].repeat_interleave(BLOCK, dim=1)[:, :n]
    b_full = b.float() * b_blocks.T
    c[...] = (a_full @ b_full.T).to(torch.bfloat16)
    return c


def check_implementation(data, output):
    expected = ref_kernel(data)
    return torch.allclose(output.float(), expected.float(), rtol=2e-2, atol=2e-2)
