"""Reference of the masked-activation task (GPU MODE layout): relu or abs of x, with the rows that `keep`
marks zero kept and the others set to zero when the test asks for a mask."""
import torch
from task import input_t, output_t


def generate_input(rows: int, cols: int, seed: int, masked: bool, mode: str) -> input_t:
    device = torch.get_default_device()
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    x = torch.randn(rows, cols, generator=gen, device=device)
    keep = (torch.rand(rows, 1, generator=gen, device=device) > 0.3).to(x.dtype) if masked else None
    return {"x": x, "keep": keep, "mode": mode}


def ref_kernel(data: input_t) -> output_t:
    x = data["x"]
    y = torch.relu(x) if data["mode"] == "relu" else torch.abs(x)
    return y if data["keep"] is None else y * data["keep"]


def check_implementation(data: input_t, output: output_t):
    return torch.allclose(ref_kernel(data), output, rtol=1e-5, atol=1e-5), ""
