"""Fixture for cpp-input-never-read: an input of forward that reaches only C++ parameters whose values
the C++ never reads."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(
    name="kgate_fixture_cpp_reads",
    cpp_sources="""
torch::Tensor bias_mean(torch::Tensor x, torch::Tensor bias);
torch::Tensor scale(torch::Tensor x, torch::Tensor w);
torch::Tensor through_helper(torch::Tensor x);
torch::Tensor dispatched(torch::Tensor x);
torch::Tensor shaped_like(torch::Tensor x, torch::Tensor fill);
torch::Tensor via_helpers(torch::Tensor x, torch::Tensor fill);
torch::Tensor validated(torch::Tensor x, torch::Tensor fill);
torch::Tensor chosen(torch::Tensor x, torch::Tensor w);
""",
    cuda_sources=r"""
#include <torch/extension.h>
#define CHECK_CUDA(t) TORCH_CHECK(t.is_cuda(), #t " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(t) TORCH_CHECK(t.is_contiguous(), #t " must be contiguous")
#define CHECK_INPUT(t) CHECK_CUDA(t); CHECK_CONTIGUOUS(t)

__global__ void fill_kernel(const float* value, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value[0];
}
__global__ void mul_kernel(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i];
}

// x: its batch size and options only.
torch::Tensor bias_mean(torch::Tensor x, torch::Tensor bias) {
    CHECK_INPUT(x);
    CHECK_INPUT(bias);
    auto mean = bias.mean();
    auto out = torch::empty({x.size(0)}, x.options());
    int n = out.numel();
    fill_kernel<<<(n + 255) / 256, 256>>>(mean.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}

torch::Tensor scale(torch::Tensor x, torch::Tensor w) {
    CHECK_INPUT(x);
    auto out = torch::empty_like(x);
    int n = x.numel();
    mul_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}

torch::Tensor through_helper(torch::Tensor x) { return scale(x, x); }

torch::Tensor dispatched(torch::Tensor x) {
    auto out = torch::empty_like(x);
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "dispatched", [&] {
        mul_kernel<<<1, 256>>>(x.data_ptr<float>(), x.data_ptr<float>(), out.data_ptr<float>(), x.numel());
    });
    return out;
}

// x: only the shape of the output.
torch::Tensor shaped_like(torch::Tensor x, torch::Tensor fill) {
    auto out = torch::zeros_like(x);
    int n = out.numel();
    fill_kernel<<<(n + 255) / 256, 256>>>(fill.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}

// x: handed to helpers of the file that only shape the output.
static torch::Tensor shaped(const torch::Tensor& t) { return torch::empty_like(t); }
static torch::Tensor checked_shaped(const torch::Tensor& t) {
    TORCH_CHECK(t.is_cuda(), "x must be a CUDA tensor");
    return shaped(t);
}
torch::Tensor via_helpers(torch::Tensor x, torch::Tensor fill) {
    auto out = checked_shaped(x);
    int n = out.numel();
    fill_kernel<<<(n + 255) / 256, 256>>>(fill.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}

// x: only tested, then the output is filled from another tensor.
torch::Tensor validated(torch::Tensor x, torch::Tensor fill) {
    TORCH_CHECK(x.isfinite().all().item<bool>(), "x must be finite");
    if (x.abs().amax().item<float>() > 1e30f) {
        throw std::runtime_error("x is out of range");
    }
    auto out = torch::empty_like(x);
    int n = out.numel();
    fill_kernel<<<(n + 255) / 256, 256>>>(fill.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}

// x: tested, and read by the kernel of the branch it picks.
torch::Tensor chosen(torch::Tensor x, torch::Tensor w) {
    auto out = torch::empty_like(x);
    int n = x.numel();
    if (x.sum().item<float>() > 0) {
        mul_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), n);
    } else {
        out.zero_();
    }
    return out;
}
""",
    functions=["bias_mean", "scale", "through_helper", "dispatched", "shaped_like", "via_helpers", "validated", "chosen"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(16))

    def forward(
        self,
        # ruleid: cpp-input-never-read
        x,
        # ok: cpp-input-never-read
        bias,
        # ok: cpp-input-never-read
        w,
        # ok: cpp-input-never-read
        y,
        # ok: cpp-input-never-read
        z,
        # ruleid: cpp-input-never-read
        shape,
        # ok: cpp-input-never-read
        both,
        # ruleid: cpp-input-never-read
        handed,
        # ruleid: cpp-input-never-read
        steered,
        # ok: cpp-input-never-read
        picked,
    ):
        a = ext.bias_mean(x, bias)
        b = ext.scale(a, w)
        c = ext.through_helper(y)
        d = ext.dispatched(z)
        e = ext.shaped_like(shape, self.bias)
        # read in one call: the other's unread parameter does not matter
        f = ext.shaped_like(both, self.bias) + ext.scale(both, both)
        g = ext.via_helpers(handed, self.bias)
        h = ext.validated(steered, self.bias)
        i = ext.chosen(picked, self.bias)
        return a + b + c + d + e + f + g + h + i
