"""Reference of the luma task (GPU MODE layout): generate_input, ref_kernel, check_implementation."""
import torch
from task import input_t, output_t
from utils import luma_weights


def generate_input(size: int, seed: int) -> input_t:
    device = torch.get_default_device()
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    image = torch.rand(size, size, 3, device=device, dtype=torch.float32, generator=gen)
    output = torch.empty(size, size, device=device, dtype=torch.float32)
    return image, output


def ref_kernel(data: input_t) -> output_t:
    image, output = data
    output[...] = (image * luma_weights(image.device, image.dtype)).sum(dim=-1)
    return output


def check_implementation(data: input_t, output: output_t):
    expected = ref_kernel(data)
    if not torch.allclose(output, expected, rtol=1e-5, atol=1e-5):
        return False, "mismatch"
    return True, ""
