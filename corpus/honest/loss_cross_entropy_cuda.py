"""Mean cross-entropy of logits [B, C] against int64 class targets [B] (ignore_index=-100):
a per-row log-sum-exp kernel, then a deterministic single-block mean."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ce_cpp_source = "torch::Tensor cross_entropy_forward(torch::Tensor logits, torch::Tensor targets);"

ce_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <math_constants.h>

constexpr int kRowThreads = 256;
constexpr int kMeanThreads = 1024;
constexpr int64_t kIgnoreIndex = -100;

__device__ __forceinline__ void merge_lse(float& m, float& s, float om, float os) {
    const float nm = fmaxf(m, om);
    if (nm == -CUDART_INF_F) {
        return;
    }
    s = s * expf(m - nm) + os * expf(om - nm);
    m = nm;
}

// loss[row] = logsumexp(logits[row]) - logits[row, target]; valid[row] = 1 unless ignored.
__global__ void __launch_bounds__(kRowThreads)
ce_row_kernel(const float* __restrict__ logits,
              const int64_t* __restrict__ targets,
              float* __restrict__ row_loss,
              float* __restrict__ row_valid,
              int64_t classes) {
    __shared__ float sm_m[kRowThreads / 32];
    __shared__ float sm_s[kRowThreads / 32];
    const int64_t row = blockIdx.x;
    const float* lr = logits + row * classes;

    float m = -CUDART_INF_F;
    float s = 0.f;
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) {
        merge_lse(m, s, lr[c], 1.f);
    }
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float om = __shfl_xor_sync(0xffffffffu, m, offset);
        const float os = __shfl_xor_sync(0xffffffffu, s, offset);
        merge_lse(m, s, om, os);
    }
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) {
        sm_m[warp] = m;
        sm_s[warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < (kRowThreads / 32) ? sm_m[lane] : -CUDART_INF_F;
        s = lane < (kRowThreads / 32) ? sm_s[lane] : 0.f;
        #pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1) {
            const float om = __shfl_xor_sync(0xffffffffu, m, offset);
            const float os = __shfl_xor_sync(0xffffffffu, s, offset);
            merge_lse(m, s, om, os);
        }
        if (lane == 0) {
            const int64_t t = targets[row];
            if (t == kIgnoreIndex) {
                row_loss[row] = 0.f;
                row_valid[row] = 0.f;
            } else if (t < 0 || t >= classes) {
                row_loss[row] = CUDART_NAN_F;  // out-of-range target: poison instead of reading out of bounds
                row_valid[row] = 1.f;
            } else {
                row_loss[row] = (m + logf(s)) - lr[t];
                row_valid[row] = 1.f;
            }
        }
    }
}

// One block, fixed summation order: the result is bitwise reproducible from run to run.
__global__ void __launch_bounds__(kMeanThreads)
ce_mean_kernel(const float* __restrict__ row_loss, const float* __restrict__ row_valid,
               float* __restrict__ out, int64_t rows) {
    __shared__ float sm_loss[kMeanThreads / 32];
    __shared__ float sm_cnt[kMeanThreads / 32];
    float loss = 0.f, cnt = 0.f;
    for (int64_t r = threadIdx.x; r < rows; r += blockDim.x) {
        loss += row_loss[r];
        cnt += row_valid[r];
    }
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        loss += __shfl_xor_sync(0xffffffffu, loss, offset);
        cnt += __shfl_xor_sync(0xffffffffu, cnt, offset);
    }
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) {
        sm_loss[warp] = loss;
        sm_cnt[warp] = cnt;
    }
    __syncthreads();
    if (warp == 0) {
        loss = lane < (kMeanThreads / 32) ? sm_loss[lane] : 0.f;
        cnt = lane < (kMeanThreads / 32) ? sm_cnt[lane] : 0.f;
        #pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1) {
            loss += __shfl_xor_sync(0xffffffffu, loss, offset);
            cnt += __shfl_xor_sync(0xffffffffu, cnt, offset);
        }
        if (lane == 0) {
            out[0] = loss / cnt;  // all rows ignored gives 0/0 = NaN, as PyTorch does
        }
    }
}

torch::Tensor cross_entropy_forward(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "cross_entropy_forward: CUDA tensors expected");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32, "cross_entropy_forward: logits must be float32");
    TORCH_CHECK(targets.scalar_type() == torch::kInt64, "cross_entropy_forward: targets must be int64");
    TORCH_CHECK(logits.dim() == 2 && targets.dim() == 1 && logits.size(0) == targets.size(0),
                "cross_entropy_forward: expected logits [B, C] and targets [B]");
    TORCH_CHECK(logits.is_contiguous() && targets.is_contiguous(), "cross_entropy_forward: contiguous inputs expected");
    TORCH_CHECK(logits.size(0) > 0 && logits.size(1) > 0, "cross_entropy_forward: empty input");

    const int64_t rows = logits.size(0);
    const int64_t classes = logits.size(1);
    auto row_loss = torch::empty({rows}, logits.options());
    auto row_valid = torch::empty({rows}, logits.options());
    auto out = torch::empty({}, logits.options());

    ce_row_kernel<<<static_cast<unsigned int>(rows), kRowThreads>>>(
        logits.data_ptr<float>(), targets.data_ptr<int64_t>(), row_loss.data_ptr<float>(),
        row_valid.data_ptr<float>(), classes);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    ce_mean_kernel<<<1, kMeanThreads>>>(row_loss.data_ptr<float>(), row_valid.data_ptr<float>(),
                                        out.data_ptr<float>(), rows);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ce_ext = load_inline(
    name="kgate_honest_cross_entropy",
    cpp_sources=ce_cpp_source,
    cuda_sources=ce_cuda_source,
    functions=["cross_entropy_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.nn.functional.cross_entropy(predictions, targets) with the default mean reduction."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return ce_ext.cross_entropy_forward(predictions.contiguous(), targets.contiguous())
