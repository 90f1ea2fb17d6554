# Fixture of function-complexity-high: a Python function and an embedded CUDA function above 15, and
# functions at exactly 15 that must not be reported.
import torch
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>

// ruleid: function-complexity-high
__device__ float branchy(float x, int mode) {
    if (mode == 0) x += 1.0f;
    if (mode == 1) x += 2.0f;
    if (mode == 2) x += 3.0f;
    if (mode == 3) x += 4.0f;
    if (mode == 4 && x > 0.0f) x += 5.0f;
    for (int i = 0; i < mode; ++i) x *= 0.5f;
    while (x > 100.0f) x -= 100.0f;
    switch (mode) {
        case 5: x = -x; break;
        case 6: x = x * x; break;
        default: break;
    }
    x = x > 1.0f ? 1.0f : x;
    if (mode == 7 || mode == 8) x = 0.0f;
    if (mode == 9) x = 9.0f;
    if (mode == 10) x = 10.0f;
    return x;
}

// ok: function-complexity-high
__device__ float fifteen(float x, int m) {
    if (m == 0) x += 1.0f;
    if (m == 1) x += 2.0f;
    if (m == 2) x += 3.0f;
    if (m == 3) x += 4.0f;
    if (m == 4) x += 5.0f;
    if (m == 5) x += 6.0f;
    if (m == 6) x += 7.0f;
    if (m == 7) x += 8.0f;
    if (m == 8) x += 9.0f;
    if (m == 9) x += 10.0f;
    if (m == 10) x += 11.0f;
    if (m == 11) x += 12.0f;
    if (m == 12) x += 13.0f;
    if (m == 13) x += 14.0f;
    return x;
}

__global__ void scale_kernel(const float* in, float* out, int n, int mode) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = branchy(in[i], mode) + fifteen(in[i], mode);
}

torch::Tensor scale(torch::Tensor x, int64_t mode) {
    auto out = torch::empty_like(x);
    int n = x.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), n, (int)mode);
    return out;
}
"""

ext = load_inline(name="scale_ext", cpp_sources="torch::Tensor scale(torch::Tensor x, int64_t mode);",
                  cuda_sources=cuda_src, functions=["scale"])


# ruleid: function-complexity-high
def pick_mode(shape, dtype, training):
    mode = 0
    if shape[0] > 1024:
        mode += 1
    elif shape[0] > 512:
        mode += 2
    elif shape[0] > 256:
        mode += 3
    for dim in shape:
        if dim % 2 == 0 and dim > 4:
            mode += 1
    while mode > 10:
        mode -= 10
    try:
        mode = int(mode)
    except ValueError:
        mode = 0
    except TypeError:
        mode = 1
    mode = mode if training or dtype is None else mode + 1
    assert mode >= 0
    return [m for m in range(mode) if m % 3 == 0][-1] if mode else 0


# ok: function-complexity-high
def fifteen(a):
    if a == 1 or a == 2 or a == 3:
        return 1
    if a == 4 and a == 5:
        return 2
    for _ in range(a):
        a -= 1
    else:
        a += 1
    while a > 0:
        a -= 1
    assert a == 0
    if a == 6:
        a = 0
    if a == 7:
        a = 0
    return sum(x for x in range(a) if x and a)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return ext.scale(x, pick_mode(tuple(x.shape), x.dtype, self.training))
