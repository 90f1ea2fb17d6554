"""x / (1 + |x|) in Triton, behind the input checks a careful kernel author writes: finite values and a
range the fp32 math keeps. The checks read x's values only to pick a branch; the kernel reads them for
the output. The checks are PyTorch ops, which the author suppresses with a reason (a maintainer who
accepts validation in forward); input-never-read must see the kernel's read either way."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softsign_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x / (1.0 + tl.abs(x)), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # kgate: ignore-next-line[torch-function-in-forward, tensor-method-in-forward] validation, not the output
        assert torch.isfinite(x).all(), "softsign: inputs must be finite"
        # kgate: ignore-next-line[tensor-method-in-forward] validation, not the output
        if x.abs().amax() > 1e30:
            raise ValueError("softsign: |x| beyond the fp32 range this kernel keeps exact")
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        block = 1024 if n >= 1 << 20 else 256
        softsign_kernel[(triton.cdiv(n, block),)](x, out, n, BLOCK=block)
        return out
