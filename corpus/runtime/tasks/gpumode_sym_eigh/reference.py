"""Reference of the symmetric eigendecomposition task (GPU MODE layout): (Q, L) with A Q = Q diag(L),
Q orthonormal and L ascending, for each matrix of the batch. An eigenvector is right up to its sign, so
the checker tests the decomposition itself rather than comparing Q with the reference's Q."""
import torch
from task import input_t, output_t


def generate_input(batch: int, n: int, seed: int) -> input_t:
    device = torch.get_default_device()
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    b = torch.randn(batch, n, n, generator=gen, device=device)
    return (b + b.mT) / 2


def ref_kernel(data: input_t) -> output_t:
    values, vectors = torch.linalg.eigh(data)
    return vectors, values


def check_implementation(data: input_t, output: output_t):
    if not isinstance(output, (tuple, list)) or len(output) != 2:
        return False, "the output must be (Q, L)"
    q, values = output
    if q.shape != data.shape or values.shape != data.shape[:-1]:
        return False, f"shapes {tuple(q.shape)} and {tuple(values.shape)}"
    if not bool((values[..., 1:] >= values[..., :-1]).all()):
        return False, "L is not ascending"
    a, q64, l64 = data.double(), q.double(), values.double()
    scale = a.abs().amax().clamp_min(1.0)
    residual = (a @ q64 - q64 * l64.unsqueeze(-2)).abs().amax()
    if not bool(residual <= 1e-3 * scale * data.shape[-1]):
        return False, f"A Q - Q diag(L) is {residual.item():.3g}"
    eye = torch.eye(data.shape[-1], dtype=torch.float64, device=data.device)
    if not bool((q64.mT @ q64 - eye).abs().amax() <= 1e-3):
        return False, "Q is not orthonormal"
    return True, ""
