"""F1 under the GPU MODE harness: custom_kernel defines a Triton kernel for show and returns
PyTorch's result."""
from task import input_t, output_t

import torch
import triton
import triton.language as tl


@triton.jit
# ruleid: decoy-kernel-unlaunched
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))


# ruleid: forward-reaches-no-kernel
def custom_kernel(data: input_t) -> output_t:
    a, b = data
    # ruleid: torch-function-in-forward
    return torch.mm(a, b)
