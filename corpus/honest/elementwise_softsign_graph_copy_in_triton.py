"""Softsign with a Triton kernel, replayed through a CUDA graph to save launch overhead. The graph is
captured once, in __init__, on static buffers of the problem's size; every call copies the new input
into the static input buffer before the replay, so the replay computes this call's result, and a
fresh copy of the static output is returned (the caller never holds the buffer the next replay
overwrites)."""
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
        self._launch()  # compile outside the capture
        torch.cuda.synchronize()
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self._launch()

    def _launch(self):
        n = self.static_x.numel()
        _softsign_kernel[(triton.cdiv(n, 1024),)](self.static_x, self.static_out, n, BLOCK_SIZE=1024)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.static_x.copy_(x)
        self.graph.replay()
        return self.static_out.clone()
