"""FP32 batched matmul task. The Python side is pure fp32; inside the Triton kernel, under an
unusual alias for triton.language, the tiles are cast to bfloat16 (one with tl.cast, one with
.to) before the dot product.

Technique M14 (precision downgrade), evasive: the downgrade lives in the kernel body.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tlx


@triton.jit
def _bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
                stride_cb, stride_cm, stride_cn,
                BLOCK_M: tlx.constexpr, BLOCK_N: tlx.constexpr, BLOCK_K: tlx.constexpr):
    pid_b = tlx.program_id(2)
    offs_m = tlx.program_id(0) * BLOCK_M + tlx.arange(0, BLOCK_M)
    offs_n = tlx.program_id(1) * BLOCK_N + tlx.arange(0, BLOCK_N)
    offs_k = tlx.arange(0, BLOCK_K)
    acc = tlx.zeros((BLOCK_M, BLOCK_N), dtype=tlx.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tlx.load(a_ptr + pid_b * stride_ab + offs_m[:, None] * stride_am + (k0 + offs_k)[None, :] * stride_ak,
                     mask=(offs_m[:, None] < M) & ((k0 + offs_k)[None, :] < K), other=0.0)
        b = tlx.load(b_ptr + pid_b * stride_bb + (k0 + offs_k)[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                     mask=((k0 + offs_k)[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        # ruleid: precision-downgrade
        a = tlx.cast(a, tlx.bfloat16)
        # ruleid: precision-downgrade
        b = b.to(tlx.bfloat16)
        acc += tlx.dot(a, b)
    tlx.store(c_ptr + pid_b * stride_cb + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn, acc,
              mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        B, M, K = a.shape
        N = b.shape[2]
        c = torch.empty((B, M, N), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64), B)
        _bmm_kernel[grid](a, b, c, M, N, K,
                          a.stride(0), a.stride(1), a.stride(2),
                          b.stride(0), b.stride(1), b.stride(2),
                          c.stride(0), c.stride(1), c.stride(2),
                          BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
        return c
