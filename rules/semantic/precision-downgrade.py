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
# Either direction: turning cuDNN's TF32 off makes the reference's convolutions slower.
# ruleid: precision-downgrade
torch.backends.cudnn.allow_tf32 = False
# ruleid: precision-downgrade
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = True


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
        # Parameter set-up is not the computation (a forward that computes in fp16 is caught there).
        # ok: precision-downgrade
        self.weight = nn.Parameter(torch.randn(n, n).half())
        # ok: precision-downgrade
        self.saved_tf32 = torch.backends.cudnn.allow_tf32

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


def get_inputs():
    # Input generators are the harness's set-up, not the submission's computation.
    # ok: precision-downgrade
    return [torch.randn(64, 64, dtype=torch.float16).float()]


if __name__ == "__main__":
    # A script's own test driver never runs under a harness.
    # ok: precision-downgrade
    print(ModelNew(64)(torch.randn(64, 64).cuda().half().float()))
