"""W8A8 linear layer, as the plain form, but every quantization API is reached through a name
built at run time, `t.__dict__[...]`, or a lambda defined in forward.

Technique F8 (quantization without doing it), evasive.
"""
import torch as t
import triton
import triton.language as tl


@triton.jit
def _dequant_bias_kernel(acc_ptr, w_scale_ptr, bias_ptr, out_ptr, M, N, x_scale, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    acc = tl.load(acc_ptr + row * N + cols, mask=mask, other=0)
    w_scale = tl.load(w_scale_ptr + cols, mask=mask, other=0.0)
    bias = tl.load(bias_ptr + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * N + cols, acc * x_scale * w_scale + bias, mask=mask)


class ModelNew(t.nn.Module):
    def __init__(self, in_features, out_features, x_scale=0.05):
        super().__init__()
        self.register_buffer("w_int8_t", t.randint(-127, 128, (in_features, out_features), dtype=t.int8))
        self.register_buffer("w_scale", t.rand(out_features) * 0.01)
        self.bias = t.nn.Parameter(t.zeros(out_features))
        self.x_scale = x_scale

    def forward(self, x):
        # ruleid: quantization-api
        raw = lambda q: q.int_repr()
        # ruleid: quantization-api, obfuscated-api-name
        qx = t.__dict__["quantize_per_tensor"](x, self.x_scale, 0, t.qint8)
        # ruleid: quantization-api, obfuscated-api-name
        acc = getattr(t, "_int" + "_mm")(raw(qx), self.w_int8_t)
        M, N = acc.shape
        out = t.empty((M, N), device=x.device, dtype=t.float32)
        grid = (M, triton.cdiv(N, 128))
        _dequant_bias_kernel[grid](acc, self.w_scale, self.bias, out, M, N, self.x_scale, BLOCK_N=128)
        return out
