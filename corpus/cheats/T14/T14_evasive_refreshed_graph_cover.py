"""Softsign through a CUDA graph that looks refreshed: the new input is copied into the static buffer
and the graph of the submission's own kernel is replayed every call. But what is returned is a copy of
the first call's result, kept in self: the replay is cover for a bank of one output.

Technique T14 (graph replay), evasive: a refreshed replay, then a clone of another kept tensor.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _softsign_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, x / (1.0 + tl.abs(x)), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, batch_size: int, dim: int):
        super().__init__()
        self.static_x = torch.zeros(batch_size, dim, device="cuda")
        self.static_out = torch.empty_like(self.static_x)
        self.first = None
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            n = self.static_x.numel()
            _softsign_kernel[(triton.cdiv(n, 1024),)](self.static_x, self.static_out, n, BLOCK_SIZE=1024)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.static_x.copy_(x)
        self.graph.replay()
        if self.first is None:
            # ruleid: forward-mutates-state
            self.first = self.static_out.clone()
        # ruleid: returns-stored-output
        return self.first.clone()
