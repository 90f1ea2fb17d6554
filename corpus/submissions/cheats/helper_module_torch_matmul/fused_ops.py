"""Helper module of the submission beside it.

Cheat (F1, library fallback moved out of the entry file): linear_relu launches a Triton kernel for
the ReLU, but the GEMM that is the task's whole cost is torch.matmul. Judged file by file, the
entry calls only a function of this module, so the fallback has to be followed into it.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


def linear_relu(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    h = torch.matmul(x, weight.t())
    y = torch.empty_like(h)
    n = h.numel()
    _relu_kernel[(triton.cdiv(n, 1024),)](h, y, n, BLOCK=1024)
    return y
