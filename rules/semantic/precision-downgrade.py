# Fixture for precision-downgrade: fp16/bf16/fp8/TF32/autocast in Python and in Triton kernels.
import torch
import torch as t
import torch.nn as nn
import triton
import triton.language as tl

# ruleid: precision-downgrade
torch.backends.cuda.matmul.allow_tf32 = True
# ruleid: precision-downgrade
torch.backends.cudnn.allow_tf32 = True
# ruleid: precision-downgrade
torch.set_float32_matmul_precision("high")


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    b = tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :])
    # ruleid: precision-downgrade
    a16 = a.to(tl.float16)
    # ruleid: precision-downgrade
    b16 = tl.cast(b, tl.bfloat16)
    # ruleid: precision-downgrade
    acc = tl.dot(a, b, input_precision="tf32")
    # ok: precision-downgrade
    exact = tl.dot(a, b, input_precision="ieee")
    # ok: precision-downgrade
    acc = acc.to(tl.float32) + exact + tl.sum(a16, axis=0)[None, :] + tl.sum(b16, axis=0)[None, :]
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        # ruleid: precision-downgrade
        self.weight = nn.Parameter(torch.randn(n, n).half())

    def forward(self, x):
        # ruleid: precision-downgrade
        xb = x.to(torch.bfloat16)
        # ruleid: precision-downgrade
        buf = torch.empty(x.shape, device=x.device, dtype=t.half)
        # ruleid: precision-downgrade
        with torch.autocast("cuda"):
            pass
        # ruleid: precision-downgrade
        x8 = x.to(torch.float8_e4m3fn)
        # ok: precision-downgrade
        x32 = x.float()
        # ok: precision-downgrade
        same = x.to(x.dtype)
        # ok: precision-downgrade
        out = torch.empty_like(x, dtype=torch.float32)
        gemm_kernel[(1,)](x32, same, out, BLOCK=32)
        del xb, buf, x8
        return out
