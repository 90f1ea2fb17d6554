"""Reference of the SPD Cholesky task (GPU MODE layout): L with A = L L^T for each matrix of the batch.
The checker tests the factorisation itself, as GPU MODE's does: lower triangular, and L L^T = A."""
import torch
from task import input_t, output_t


def generate_input(batch: int, n: int, seed: int) -> input_t:
    device = torch.get_default_device()
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    b = torch.randn(batch, n, n, generator=gen, device=device)
    return b @ b.mT / n + torch.eye(n, device=device)


def ref_kernel(data: input_t) -> output_t:
    return torch.linalg.cholesky_ex(data, check_errors=False).L


def check_implementation(data: input_t, output: output_t):
    if output.shape != data.shape:
        return False, "shape"
    if not torch.equal(output, torch.tril(output)):
        return False, "not lower triangular"
    if not torch.allclose(output @ output.mT, data, rtol=1e-4, atol=1e-4):
        return False, "L L^T differs from the input"
    return True, ""
