"""A stack of residual blocks, each one launch of the submission's CUDA kernel. The model builds its
containers the way real ResNet-style submissions do: a `_make_stage` helper that receives the block
class as an argument and returns `nn.Sequential(*layers)` from a list filled with `append`, an empty
`nn.ModuleList` filled with `self.units.append(...)` and walked with `enumerate`, and a nested builder
that starts from a list literal and `extend`s it. Calling any of these containers calls its blocks'
forward, so every path reaches the kernel."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor scale_add_relu(torch::Tensor x, double scale);"

cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cstdint>

// y = relu(x * scale + x): a residual block with a scalar branch.
__global__ void scale_add_relu_kernel(const float* __restrict__ x, float* __restrict__ y, float scale, int64_t n) {
    int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (; i < n; i += stride) {
        const float v = x[i] * scale + x[i];
        y[i] = v < 0.f ? 0.f : v;
    }
}

torch::Tensor scale_add_relu(torch::Tensor x, double scale) {
    TORCH_CHECK(x.is_cuda(), "scale_add_relu: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "scale_add_relu: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "scale_add_relu: x must be contiguous");
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) {
        return y;
    }
    const int threads = 256;
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > 65535LL * 16) {
        blocks = 65535LL * 16;
    }
    scale_add_relu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), static_cast<float>(scale), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

block_ext = load_inline(
    name="kgate_honest_container_helper_built",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["scale_add_relu"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ResidualBlock(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return block_ext.scale_add_relu(x.contiguous(), self.scale)


class ModelNew(nn.Module):
    def __init__(self, depth: int = 3):
        super().__init__()
        self.stage1 = self._make_stage(ResidualBlock, depth, 0.5)
        self.stage2 = self._make_stage(block=ResidualBlock, depth=depth, scale=0.25)

        self.units = nn.ModuleList()
        for i in range(depth):
            unit = ResidualBlock(0.125 * (i + 1))
            self.units.append(unit)

        def build_head():
            parts = [ResidualBlock(0.1)]
            parts.extend([ResidualBlock(0.2), ResidualBlock(0.3)])
            return nn.Sequential(*parts)

        self.head = build_head()

    def _make_stage(self, block, depth, scale):
        layers = []
        layers.append(block(scale))
        for _ in range(1, depth):
            layers.append(block(scale * 0.5))
        return nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stage1(x)
        x = self.stage2(x)
        for _, unit in enumerate(self.units):
            x = unit(x)
        return self.head(x)
