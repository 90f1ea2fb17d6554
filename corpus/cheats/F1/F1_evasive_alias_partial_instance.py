"""MLP block: Linear -> Linear -> LeakyReLU -> scale, with a Triton kernel for the final scale.

Technique F1, evasive: every PyTorch op is reached through an alias (`import torch as t`,
`from torch import matmul as mm`, `F = t.nn.functional`), a functools.partial, a module bound
in __init__, or a helper method, so no line says `torch.matmul` or `F.linear` in plain text.
"""
import functools

import torch as t
import triton
import triton.language as tl
from torch import matmul as mm

F = t.nn.functional
_activation = functools.partial(F.leaky_relu, negative_slope=0.01)


@triton.jit
# ok: decoy-kernel-unlaunched
def _scale_kernel(x_ptr, out_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, x * alpha, mask=mask)


class ModelNew(t.nn.Module):
    def __init__(self, in_features, hidden, out_features, alpha=0.5):
        super().__init__()
        self.w_in = t.nn.Parameter(t.randn(in_features, hidden) * 0.02)
        self.proj = t.nn.Linear(hidden, out_features)
        self.alpha = alpha

    def _gemm(self, a, b):
        # ruleid: torch-function-in-forward
        return mm(a, b)

    def forward(self, x):
        h = self._gemm(x, self.w_in)
        # ruleid: torch-function-in-forward
        h = self.proj(h)
        # ruleid: torch-function-in-forward
        h = _activation(h)
        out = t.empty_like(h)
        n = h.numel()
        grid = (triton.cdiv(n, 1024),)
        _scale_kernel[grid](h, out, n, self.alpha, BLOCK_SIZE=1024)
        # ok: returns-unwritten-allocation
        return out
