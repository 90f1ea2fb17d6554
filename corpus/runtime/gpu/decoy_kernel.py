# runtime-task: tasks/MatrixMultiply/matmul_square
# runtime-expect: fail no-own-kernel
# F2, runtime form: a Triton matmul kernel is defined (so a reader, or a filter that looks for one, sees
# a custom kernel), but forward never launches it; the product comes from torch.matmul. CUPTI shows
# only library kernels during the call.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK + tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, N, BLOCK):
        rk = k + tl.arange(0, BLOCK)
        a = tl.load(a_ptr + rm[:, None] * N + rk[None, :], mask=(rm[:, None] < N) & (rk[None, :] < N), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < N) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < N) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.kernel = matmul_kernel

    def forward(self, A, B):
        return torch.matmul(A, B)
