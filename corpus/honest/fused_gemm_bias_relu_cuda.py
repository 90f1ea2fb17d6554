"""relu(x @ W^T + b), an nn.Linear followed by ReLU, as one tiled GEMM kernel with a bias+ReLU epilogue."""

import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

linear_relu_cpp = "torch::Tensor linear_bias_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

linear_relu_cuda = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
// ruleid: function-complexity-high
linear_bias_relu_kernel(const float* __restrict__ X,    // [M, K]
                        const float* __restrict__ Wt,   // [N, K], nn.Linear layout
                        const float* __restrict__ bias, // [N]
                        float* __restrict__ Y,          // [M, N]
                        int M, int N, int K) {
    constexpr int TX = BN / TN;
    constexpr int TY = BM / TM;
    constexpr int THREADS = TX * TY;
    __shared__ float Xs[BK][BM + 1];
    __shared__ float Ws[BK][BN + 1];

    const int tid = threadIdx.x;
    const int tx = tid % TX;
    const int ty = tid / TX;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        // Both operands are K-contiguous, so both tiles are loaded along k and stored k-major.
        for (int e = tid; e < BM * BK; e += THREADS) {
            const int r = e / BK, k = e % BK;
            const int gm = m0 + r, gk = k0 + k;
            Xs[k][r] = (gm < M && gk < K) ? X[static_cast<int64_t>(gm) * K + gk] : 0.f;
        }
        for (int e = tid; e < BN * BK; e += THREADS) {
            const int c = e / BK, k = e % BK;
            const int gn = n0 + c, gk = k0 + k;
            Ws[k][c] = (gn < N && gk < K) ? Wt[static_cast<int64_t>(gn) * K + gk] : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float xv[TM], wv[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) xv[i] = Xs[kk][ty + TY * i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) wv[j] = Ws[kk][tx + TX * j];
            #pragma unroll
            for (int i = 0; i < TM; ++i) {
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(xv[i], wv[j], acc[i][j]);
            }
        }
        __syncthreads();
    }

    // Epilogue: bias and ReLU in registers, one store per element.
    #pragma unroll
    for (int j = 0; j < TN; ++j) {
        const int n = n0 + tx + TX * j;
        if (n >= N) continue;
        const float b = bias[n];
        #pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int m = m0 + ty + TY * i;
            if (m < M) {
                const float v = acc[i][j] + b;
                Y[static_cast<int64_t>(m) * N + n] = v < 0.f ? 0.f : v;
            }
        }
    }
}

torch::Tensor linear_bias_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "linear_bias_relu: CUDA tensors expected");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32, "linear_bias_relu: float32 expected");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && bias.dim() == 1, "linear_bias_relu: bad ranks");
    TORCH_CHECK(x.size(1) == weight.size(1) && bias.size(0) == weight.size(0), "linear_bias_relu: shape mismatch");
    TORCH_CHECK(x.is_contiguous() && weight.is_contiguous() && bias.is_contiguous(),
                "linear_bias_relu: contiguous tensors expected");

    constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
    const int M = static_cast<int>(x.size(0));
    const int K = static_cast<int>(x.size(1));
    const int N = static_cast<int>(weight.size(0));
    auto y = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) {
        return y;
    }
    const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    const dim3 block((BM / TM) * (BN / TN));
    linear_bias_relu_kernel<BM, BN, BK, TM, TN><<<grid, block>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), M, N, K);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

linear_relu_ext = load_inline(
    name="kgate_honest_linear_bias_relu",
    cpp_sources=linear_relu_cpp,
    cuda_sources=linear_relu_cuda,
    functions=["linear_bias_relu"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.Linear(in_features, out_features) then ReLU, parameters initialised as nn.Linear does."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_relu_ext.linear_bias_relu(x.contiguous(), self.weight, self.bias)
