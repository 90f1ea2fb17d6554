# runtime-task: tasks/Fusion/gemm_bias_relu
# runtime-expect: pass
"""relu(x @ W^T + b) as one Triton kernel: tl.dot over K tiles with fp32 accumulation, grouped tile order for
L2 reuse, and the bias add and ReLU fused into the epilogue before the single store."""

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_bias_relu_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    IEEE_FP32: tl.constexpr,
):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    # Grouped order: GROUP_M row tiles share the same column tiles of W while they are in L2.
    per_group = GROUP_M * tiles_n
    group = pid // per_group
    first_m = group * GROUP_M
    group_rows = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % group_rows
    pid_n = (pid % per_group) // group_rows

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_tile = x_ptr + offs_m[:, None].to(tl.int64) * stride_xm + offs_k[None, :] * stride_xk
    w_tile = w_ptr + offs_n[None, :].to(tl.int64) * stride_wn + offs_k[:, None] * stride_wk

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_ok = offs_k + k0 < K
        a = tl.load(x_tile, mask=(offs_m[:, None] < M) & k_ok[None, :], other=0.0)
        b = tl.load(w_tile, mask=k_ok[:, None] & (offs_n[None, :] < N), other=0.0)
        if IEEE_FP32:
            acc = tl.dot(a, b, acc, input_precision="ieee")
        else:
            acc = tl.dot(a, b, acc)
        x_tile += BLOCK_K * stride_xk
        w_tile += BLOCK_K * stride_wk

    bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    out = tl.maximum(acc + bias[None, :], 0.0)
    y_tile = y_ptr + offs_m[:, None].to(tl.int64) * stride_ym + offs_n[None, :] * stride_yn
    tl.store(y_tile, out.to(y_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    """nn.Linear(in_features, out_features) then ReLU; parameters drawn exactly as nn.Linear draws them."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-1]
        x2d = x.reshape(-1, x.shape[-1])
        M, K = x2d.shape
        N = self.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        if M > 0 and N > 0:
            fp32 = x.dtype == torch.float32
            block_m, block_n, block_k = (64, 64, 32) if fp32 else (128, 128, 32)
            grid = (triton.cdiv(M, block_m) * triton.cdiv(N, block_n),)
            linear_bias_relu_kernel[grid](
                x2d, self.weight, self.bias, y,
                M, N, K,
                x2d.stride(0), x2d.stride(1), self.weight.stride(0), self.weight.stride(1), y.stride(0), y.stride(1),
                BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k, GROUP_M=8, IEEE_FP32=fp32,
                num_warps=4 if fp32 else 8, num_stages=3,
            )
        return y.reshape(*lead, N)
