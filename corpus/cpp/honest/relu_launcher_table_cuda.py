"""ReLU with two launchers of its own (vectorised and scalar) picked from a table by alignment.

The block size comes from the build flags (-DRELU_BLOCK=256). The launcher is called through a small
virtual interface and a std::function fallback; every path ends in this file's kernels.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor relu_forward(torch::Tensor x);"

cuda_source = r"""
#include <torch/extension.h>
#include <functional>

__global__ void relu_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

__global__ void relu_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ y, int64_t n4) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x[i];
        v.x = fmaxf(v.x, 0.0f);
        v.y = fmaxf(v.y, 0.0f);
        v.z = fmaxf(v.z, 0.0f);
        v.w = fmaxf(v.w, 0.0f);
        y[i] = v;
    }
}

int64_t grid_for(int64_t n) { return (n + RELU_BLOCK - 1) / RELU_BLOCK; }

void launch_scalar(const at::Tensor& x, at::Tensor& y) {
    const int64_t n = x.numel();
    relu_scalar_kernel<<<grid_for(n), RELU_BLOCK>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
}

void launch_vec4(const at::Tensor& x, at::Tensor& y) {
    const int64_t n4 = x.numel() / 4;
    relu_vec4_kernel<<<grid_for(n4), RELU_BLOCK>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()),
                                                    reinterpret_cast<float4*>(y.data_ptr<float>()), n4);
}

using Launcher = void (*)(const at::Tensor&, at::Tensor&);
static const Launcher kLaunchers[] = {&launch_scalar, &launch_vec4};

struct Epilogue {
    virtual void run(const at::Tensor& x, at::Tensor& y) const = 0;
};
struct TableEpilogue : Epilogue {
    void run(const at::Tensor& x, at::Tensor& y) const {
        const bool aligned = x.numel() % 4 == 0 && reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0;
        kLaunchers[aligned ? 1 : 0](x, y);
    }
};

static std::function<void(const at::Tensor&, at::Tensor&)> g_fallback = [](const at::Tensor& x, at::Tensor& y) {
    launch_scalar(x, y);
};

torch::Tensor relu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    if (xc.numel() < RELU_BLOCK) {
        g_fallback(xc, y);
        return y;
    }
    TableEpilogue epilogue;
    const Epilogue& e = epilogue;
    e.run(xc, y);
    return y;
}
"""

relu_ext = load_inline(
    name="kgate_relu_launcher_table",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3", "-DRELU_BLOCK=256"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return relu_ext.relu_forward(x)
