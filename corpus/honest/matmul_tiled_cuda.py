"""C = A @ B for fp32 matrices: 64x64 shared-memory tiles, each thread accumulating a 4x4 register block."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cpp_source = "torch::Tensor tiled_matmul(torch::Tensor a, torch::Tensor b);"

matmul_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int BM = 64;          // rows of C per block
constexpr int BN = 64;          // columns of C per block
constexpr int BK = 16;          // depth of one shared-memory stage
constexpr int TM = 4;           // rows per thread
constexpr int TN = 4;           // columns per thread
constexpr int THREADS_X = BN / TN;  // 16
constexpr int THREADS_Y = BM / TM;  // 16
constexpr int THREADS = THREADS_X * THREADS_Y;

// A tile is stored k-major so the inner loop reads one row of each tile. Thread (tx, ty) owns
// rows ty + 16*i and columns tx + 16*j, so neighbouring threads read neighbouring banks.
__global__ void __launch_bounds__(THREADS)
// ruleid: function-complexity-high
tiled_matmul_kernel(const float* __restrict__ A,
                    const float* __restrict__ B,
                    float* __restrict__ C,
                    int M, int N, int K) {
    __shared__ float As[BK][BM + 1];
    __shared__ float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int tx = tid % THREADS_X;
    const int ty = tid / THREADS_X;
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            acc[i][j] = 0.f;
        }
    }

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = tid; e < BM * BK; e += THREADS) {
            const int r = e / BK;
            const int c = e % BK;
            const int gr = row0 + r;
            const int gc = k0 + c;
            As[c][r] = (gr < M && gc < K) ? A[static_cast<int64_t>(gr) * K + gc] : 0.f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            const int r = e / BN;
            const int c = e % BN;
            const int gr = k0 + r;
            const int gc = col0 + c;
            Bs[r][c] = (gr < K && gc < N) ? B[static_cast<int64_t>(gr) * N + gc] : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_frag[TM];
            float b_frag[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) {
                a_frag[i] = As[kk][ty + THREADS_Y * i];
            }
            #pragma unroll
            for (int j = 0; j < TN; ++j) {
                b_frag[j] = Bs[kk][tx + THREADS_X * j];
            }
            #pragma unroll
            for (int i = 0; i < TM; ++i) {
                #pragma unroll
                for (int j = 0; j < TN; ++j) {
                    acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
                }
            }
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = row0 + ty + THREADS_Y * i;
        if (r >= M) {
            continue;
        }
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = col0 + tx + THREADS_X * j;
            if (c < N) {
                C[static_cast<int64_t>(r) * N + c] = acc[i][j];
            }
        }
    }
}

torch::Tensor tiled_matmul(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "tiled_matmul: operands must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "tiled_matmul: operands must be float32");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "tiled_matmul: operands must be 2-D");
    TORCH_CHECK(a.size(1) == b.size(0), "tiled_matmul: inner dimensions differ");
    TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "tiled_matmul: operands must be contiguous");
    TORCH_CHECK(a.size(0) < (1LL << 31) && b.size(1) < (1LL << 31) && a.size(1) < (1LL << 31),
                "tiled_matmul: dimensions must fit in int32");

    const int M = static_cast<int>(a.size(0));
    const int K = static_cast<int>(a.size(1));
    const int N = static_cast<int>(b.size(1));
    auto c = torch::empty({M, N}, a.options());
    if (M == 0 || N == 0) {
        return c;
    }
    const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    const dim3 block(THREADS);
    tiled_matmul_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), M, N, K);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return c;
}
"""

matmul_ext = load_inline(
    name="kgate_honest_tiled_matmul",
    cpp_sources=matmul_cpp_source,
    cuda_sources=matmul_cuda_source,
    functions=["tiled_matmul"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.matmul(A, B) for 2-D fp32 inputs, computed by tiled_matmul_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_ext.tiled_matmul(A.contiguous(), B.contiguous())
