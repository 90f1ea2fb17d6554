"""GPU MODE-style submission (vectoradd): the harness calls custom_kernel(data) with the tuple that
reference.generate_input built, and compares the result with reference.ref_kernel. The task's types
come from task.py, which the harness provides next to the submission."""
from task import input_t, output_t

import torch
import triton
import triton.language as tl


@triton.jit
def _vector_add(a_ptr, b_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask)
    b = tl.load(b_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a + b, mask=mask)


def custom_kernel(data: input_t) -> output_t:
    a, b = data
    out = torch.empty_like(a)
    n_elements = a.numel()
    grid = (triton.cdiv(n_elements, 1024),)
    _vector_add[grid](a, b, out, n_elements, BLOCK=1024)
    return out
