# runtime-task: tasks/MatrixMultiply/matmul_square
# runtime-expect: pass
"""C = A @ B for row-major matrices of any size: a shared-memory tiled CUDA GEMM with 4x4 register blocking.

A block computes a 64x64 tile of C with 256 threads; each step stages a 64x16 slice of A (stored k-major) and a
16x64 slice of B in shared memory, and each thread accumulates its 4x4 outputs in fp32 registers.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_cpp_source = "torch::Tensor matmul_tiled(torch::Tensor A, torch::Tensor B);"

matmul_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cstdint>

template <typename T, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
// ruleid: function-complexity-high
matmul_tiled_kernel(const T* __restrict__ A,  // [M, K]
                    const T* __restrict__ B,  // [K, N]
                    T* __restrict__ C,        // [M, N]
                    int M, int N, int K) {
    constexpr int TX = BN / TN;
    constexpr int TY = BM / TM;
    constexpr int THREADS = TX * TY;
    __shared__ float As[BK][BM + 4];
    __shared__ float Bs[BK][BN + 4];

    const int tid = threadIdx.x;
    const int tx = tid % TX;
    const int ty = tid / TX;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;
    }

    for (int k0 = 0; k0 < K; k0 += BK) {
        // A is K-contiguous: consecutive threads read consecutive k, stored transposed (k-major).
        for (int e = tid; e < BM * BK; e += THREADS) {
            const int r = e / BK, k = e % BK;
            const int gm = m0 + r, gk = k0 + k;
            As[k][r] = (gm < M && gk < K) ? static_cast<float>(A[static_cast<int64_t>(gm) * K + gk]) : 0.f;
        }
        // B is N-contiguous: consecutive threads read consecutive n.
        for (int e = tid; e < BK * BN; e += THREADS) {
            const int k = e / BN, c = e % BN;
            const int gk = k0 + k, gn = n0 + c;
            Bs[k][c] = (gk < K && gn < N) ? static_cast<float>(B[static_cast<int64_t>(gk) * N + gn]) : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[kk][ty + TY * i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx + TX * j];
            #pragma unroll
            for (int i = 0; i < TM; ++i) {
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
            }
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int m = m0 + ty + TY * i;
        if (m >= M) continue;
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int n = n0 + tx + TX * j;
            if (n < N) C[static_cast<int64_t>(m) * N + n] = static_cast<T>(acc[i][j]);
        }
    }
}

template <typename T>
void launch_matmul(const torch::Tensor& A, const torch::Tensor& B, torch::Tensor& C) {
    constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
    const int M = static_cast<int>(A.size(0));
    const int K = static_cast<int>(A.size(1));
    const int N = static_cast<int>(B.size(1));
    const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    const dim3 block((BM / TM) * (BN / TN));
    matmul_tiled_kernel<T, BM, BN, BK, TM, TN><<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<T>(), B.data_ptr<T>(), C.data_ptr<T>(), M, N, K);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor matmul_tiled(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "matmul_tiled: CUDA tensors expected");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "matmul_tiled: [M, K] @ [K, N] expected");
    TORCH_CHECK(A.scalar_type() == B.scalar_type(), "matmul_tiled: one dtype expected");
    TORCH_CHECK(A.is_contiguous() && B.is_contiguous(), "matmul_tiled: contiguous tensors expected");
    auto C = torch::empty({A.size(0), B.size(1)}, A.options());
    if (C.numel() == 0) {
        return C;
    }
    switch (A.scalar_type()) {
        case torch::kFloat32: launch_matmul<float>(A, B, C); break;
        case torch::kFloat16: launch_matmul<at::Half>(A, B, C); break;
        case torch::kBFloat16: launch_matmul<at::BFloat16>(A, B, C); break;
        default: TORCH_CHECK(false, "matmul_tiled: float32, float16 or bfloat16 expected, got ", A.scalar_type());
    }
    return C;
}
"""

matmul_ext = load_inline(
    name="kgate_honest_task_matmul_square",
    cpp_sources=matmul_cpp_source,
    cuda_sources=matmul_cuda_source,
    functions=["matmul_tiled"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """C = A @ B, computed by matmul_tiled_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_ext.matmul_tiled(A.contiguous(), B.contiguous())
