"""Matmul + GELU in one Triton kernel, with two quiet fallbacks: an aliased matmul in one except
handler, and a helper method (reached from another handler) that calls F.linear and F.gelu.

Technique F3 (try/except fallback), evasive: `from torch import matmul as _mm`,
`F = torch.nn.functional`, and a fallback moved out of the handler into a helper.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch import matmul as _mm

F = torch.nn.functional


@triton.jit
def _matmul_gelu_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k0 + offs_k)[None, :] * stride_ak,
                    mask=(offs_m[:, None] < M) & ((k0 + offs_k)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + offs_k)[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                    mask=((k0 + offs_k)[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    inner = 0.7978845608 * (acc + 0.044715 * acc * acc * acc)
    th = 2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0
    acc = 0.5 * acc * (1.0 + th)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.02)

    def _launch(self, a, w_t, c):
        M, K = a.shape
        N = w_t.shape[1]
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        _matmul_gelu_kernel[grid](a, w_t, c, M, N, K,
                                  a.stride(0), a.stride(1), w_t.stride(0), w_t.stride(1),
                                  c.stride(0), c.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)

    def _reference_path(self, a):
        # ruleid: torch-function-in-forward
        h = F.linear(a, self.weight)
        # ruleid: torch-function-in-forward
        return F.gelu(h, approximate="tanh")

    def forward(self, a):
        w_t = self.weight.T
        c = torch.empty((a.shape[0], w_t.shape[1]), device=a.device, dtype=a.dtype)
        try:
            self._launch(a, w_t, c)
        except RuntimeError:
            # ruleid: fallback-in-except
            c = _mm(a, w_t)
        except Exception:
            return self._reference_path(a)
        return c
