"""F1 on the host: forward launches its own GELU kernel into a buffer nobody reads, then copies the
input to the host and computes the answer with NumPy (the tanh approximation), and copies it back. No
PyTorch compute function is called, and the GPU profile shows only the decoy kernel and two copies."""
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476)), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty_like(x)
        _gelu[(triton.cdiv(x.numel(), 1024),)](x, scratch, x.numel(), BLOCK=1024)
        # ruleid: host-readback-in-forward
        host = x.detach().cpu().numpy()
        # ruleid: host-compute-in-forward
        inner = np.sqrt(2.0 / np.pi) * (host + 0.044715 * np.power(host, 3))
        # ruleid: host-compute-in-forward
        out = 0.5 * host * (1.0 + np.tanh(inner))
        # ruleid: torch-function-in-forward
        return torch.from_numpy(out).to(x.device)
