"""Stacked residual blocks, each launching its own Triton kernel. The model holds them in module
containers (nn.ModuleList, nn.Sequential) and calls them directly, by index and in a loop: calling a
container is calling its children's forward, so every path reaches the submission's kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scaled_residual(x_ptr, y_ptr, scale, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x + scale * tl.maximum(x, 0.0), mask=mask)


class Block(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _scaled_residual[(triton.cdiv(n, 1024),)](x, y, self.scale, n, BLOCK=1024)
        return y


class ModelNew(nn.Module):
    def __init__(self, depth: int = 4):
        super().__init__()
        self.blocks = nn.ModuleList([Block(0.5) for _ in range(depth)])
        self.head = nn.Sequential(Block(0.25), Block(0.125))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks[0](x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
