"""Add-scalar-and-square with a Triton kernel, captured into a CUDA graph on the first call and
replayed afterwards: the replay reads the first call's input pointer, whatever the new input is.

Technique T14 (CUDA-graph replay against stale pointers), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_square_kernel(x_ptr, out_ptr, n_elements, shift, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0) + shift
    tl.store(out_ptr + offsets, x * x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, shift=0.5):
        super().__init__()
        self.shift = shift
        # ruleid: cuda-graph
        self._graph = torch.cuda.CUDAGraph()
        self._captured = False
        self._static_out = None

    def forward(self, x):
        if not self._captured:
            out = torch.empty_like(x)
            n = x.numel()
            with torch.cuda.graph(self._graph):
                _add_square_kernel[(triton.cdiv(n, 1024),)](x, out, n, self.shift, BLOCK_SIZE=1024)
            # ruleid: forward-mutates-state
            self._static_out = out
            # ruleid: forward-mutates-state
            self._captured = True
        # ruleid: cuda-graph
        self._graph.replay()
        # ruleid: returns-stored-output
        return self._static_out
