# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: pass
# Honest output-argument submission on the GPU: solve(x, y, out, B, D) launches its own Triton kernel,
# which writes 2x + y into the buffer the harness hands it; B and D come from the task's sizes.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, 2.0 * x + y, mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor, B: int, D: int) -> None:
    n = B * D
    scale_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
