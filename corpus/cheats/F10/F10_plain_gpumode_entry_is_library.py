"""F10, plain: a GPU MODE submission whose entry is torch's own function. The module defines a Triton
kernel for show, but binds custom_kernel to torch.nn.functional.silu: the harness calls the library
function and the kernel never runs. No def custom_kernel exists, so the profile is chosen from the
binding, and the binding is the finding (with no entry function there is no path to call the kernel
unlaunched on)."""
import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from task import input_t, output_t


@triton.jit
def _silu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x / (1.0 + tl.exp(-x)), mask=mask)


# ruleid: entry-class-replaced
custom_kernel = F.silu
