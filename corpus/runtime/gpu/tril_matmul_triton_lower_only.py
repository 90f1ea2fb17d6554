# runtime-task: corpus/runtime/tasks/tril_matmul.py
# runtime-expect: pass
# Honest under the task's input contract (both inputs lower triangular, as get_inputs() builds them):
# block (i, j) of C sums A[i, k] B[k, j] over the k blocks from j to i only, and blocks above the
# diagonal are zeros that read nothing. Refilling the inputs with full matrices would make it wrong;
# the judge keeps get_inputs()' zero pattern in every distribution. fp32 dot products (no TF32).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tril_matmul_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr):
    bi = tl.program_id(0)
    bj = tl.program_id(1)
    rm = bi * BLOCK + tl.arange(0, BLOCK)
    rn = bj * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    if bj <= bi:
        for bk in range(bj, bi + 1):
            rk = bk * BLOCK + tl.arange(0, BLOCK)
            a = tl.load(a_ptr + rm[:, None] * N + rk[None, :], mask=(rm[:, None] < N) & (rk[None, :] < N), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < N) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(a, b, input_precision="ieee")
    acc = tl.where(rm[:, None] >= rn[None, :], acc, 0.0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < N) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous()
        B = B.contiguous()
        n = A.shape[0]
        C = torch.empty_like(A)
        grid = (triton.cdiv(n, 32), triton.cdiv(n, 32))
        tril_matmul_kernel[grid](A, B, C, n, BLOCK=32)
        return C
