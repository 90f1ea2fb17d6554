# runtime-task: tasks/MatrixMultiply/matmul_square/reference.py
# runtime-expect: fail library-kernel
# F5/F6 on a task without a manifest (the square matmul reference, run as a bare KernelBench file): the
# GEMM runs in cuBLAS (torch.mm picked out of a dict, which the static gate may not resolve), and the
# submission's own Triton kernel only copies the result. The CUPTI backstop is on for every task:
# cuBLAS kernels are not allowed unless a manifest allows them.
import torch
import torch.nn as nn
import triton
import triton.language as tl

OPS = {"mm": torch.mm}


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        product = OPS["mm"](A, B)
        out = torch.empty_like(product)
        n = out.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](product, out, n, BLOCK=1024)
        return out
