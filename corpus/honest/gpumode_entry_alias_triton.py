"""GPU MODE submission whose entry is an alias of its own launcher (custom_kernel = _launch), with a
helper imported from Triton by name. The harness calls _launch, which launches the file's kernel."""
import torch
import triton
import triton.language as tl
from triton import cdiv
from task import input_t, output_t


@triton.jit
def _scale_kernel(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * scale, mask=mask)


def _launch(data: input_t) -> output_t:
    x, scale = data
    y = torch.empty_like(x)
    n = x.numel()
    _scale_kernel[(cdiv(n, 1024),)](x, y, n, scale, BLOCK=1024)
    return y


custom_kernel = _launch
