"""F1 behind a registered operator: forward calls torch.ops.kgate_demo.tiled_gemm, which looks like a
custom kernel. The op's implementation, registered with torch.library.custom_op in this file, is
torch.mm. The Triton kernel beside it only scales the result."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * s, mask=m)


@torch.library.custom_op("kgate_demo::tiled_gemm", mutates_args=())
def tiled_gemm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # ruleid: torch-function-in-forward
    return torch.mm(a, b)


@tiled_gemm.register_fake
def _(a, b):
    return a.new_empty(a.shape[0], b.shape[1])


class ModelNew(nn.Module):
    def __init__(self, scale: float = 0.5):
        super().__init__()
        self.scale = scale

    def forward(self, a, b):
        c = torch.ops.kgate_demo.tiled_gemm(a, b)
        y = torch.empty_like(c)
        n = c.numel()
        scale_kernel[(triton.cdiv(n, 1024),)](c, y, self.scale, n, BLOCK=1024)
        return y
