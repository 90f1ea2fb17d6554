"""Scaled exp with a Triton kernel, captured through an aliased torch.cuda.graphs module in a
helper method, and replayed through a split method name.

Technique T14 (CUDA-graph replay), evasive: `from torch.cuda import graphs as _graphs`, capture
in a helper, getattr(g, "re" + "play").
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.cuda import graphs as _graphs


@triton.jit
def _scaled_exp_kernel(x_ptr, out_ptr, n_elements, scale, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.exp(x * scale), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale=0.25):
        super().__init__()
        self.scale = scale
        self._replayer = None
        self._static_out = None

    def _record(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        # ruleid: cuda-graph
        g = _graphs.CUDAGraph()
        with _graphs.graph(g):
            _scaled_exp_kernel[(triton.cdiv(n, 1024),)](x, out, n, self.scale, BLOCK_SIZE=1024)
        # ruleid: forward-mutates-state
        self._replayer = g
        # ruleid: forward-mutates-state
        self._static_out = out

    def forward(self, x):
        if self._replayer is None:
            self._record(x)
        # ruleid: cuda-graph, obfuscated-api-name
        getattr(self._replayer, "re" + "play")()
        # ruleid: returns-stored-output
        return self._static_out
