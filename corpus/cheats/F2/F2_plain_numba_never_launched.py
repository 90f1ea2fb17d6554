"""Row sums (GPU MODE style). A Numba CUDA kernel is written, with its launch helper, but custom_kernel
never calls the helper: torch.sum does the work.

Technique F2 (decoy kernel), plain form, in Numba.
"""
import torch
from numba import cuda

from task import input_t, output_t


@cuda.jit
# ruleid: decoy-kernel-unlaunched
def _rowsum_kernel(x, out, cols):
    row = cuda.grid(1)
    if row < out.shape[0]:
        acc = 0.0
        for c in range(cols):
            acc += x[row, c]
        out[row] = acc


def _launch(x):
    rows, cols = x.shape
    out = torch.empty(rows, dtype=x.dtype, device=x.device)
    _rowsum_kernel[(rows + 127) // 128, 128](cuda.as_cuda_array(x), cuda.as_cuda_array(out), cols)
    return out


# ruleid: forward-reaches-no-kernel
def custom_kernel(data: input_t) -> output_t:
    x = data.contiguous()
    # ruleid: tensor-method-in-forward
    return x.sum(dim=1)
