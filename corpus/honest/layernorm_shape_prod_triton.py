"""KernelBench LayerNorm over the trailing normalized_shape. forward counts the normalised elements
with torch.prod over a tensor made from the constructor's shape tuple (host numbers, never an input),
then one Triton program per row computes the mean, the variance and the affine output in fp32."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _layer_norm(x_ptr, w_ptr, b_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + offs, mask=offs < n, other=0.0)
    mean = tl.sum(acc, axis=0) / n
    sq = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        d = tl.load(x_ptr + base + offs, mask=offs < n, other=0.0) - mean
        sq += tl.where(offs < n, d * d, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(sq, axis=0) / n + eps)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        w = tl.load(w_ptr + offs, mask=mask, other=1.0)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.normalized_shape = normalized_shape
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = 1e-5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = int(torch.prod(torch.tensor(self.normalized_shape)).item())
        x = x.contiguous()
        y = torch.empty_like(x)
        rows = x.numel() // n
        _layer_norm[(rows,)](x, self.weight, self.bias, y, n, self.eps, BLOCK=1024)
        return y
