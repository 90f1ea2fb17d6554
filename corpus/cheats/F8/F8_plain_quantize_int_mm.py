"""W8A8 linear layer. Activation quantization and the int8 GEMM are PyTorch quantization APIs;
only the dequantize epilogue is a Triton kernel.

Technique F8 (quantization without doing it), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _dequant_kernel(acc_ptr, w_scale_ptr, out_ptr, M, N, x_scale, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    acc = tl.load(acc_ptr + row * N + cols, mask=mask, other=0)
    w_scale = tl.load(w_scale_ptr + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * N + cols, acc * x_scale * w_scale, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, x_scale=0.05):
        super().__init__()
        self.register_buffer("w_int8_t", torch.randint(-127, 128, (in_features, out_features), dtype=torch.int8))
        self.register_buffer("w_scale", torch.rand(out_features) * 0.01)
        self.x_scale = x_scale

    def forward(self, x):
        # ruleid: quantization-api
        qx = torch.quantize_per_tensor(x, self.x_scale, 0, torch.qint8)
        # ruleid: quantization-api
        x_int8 = qx.int_repr()
        # ruleid: quantization-api
        acc = torch._int_mm(x_int8, self.w_int8_t)
        M, N = acc.shape
        out = torch.empty((M, N), device=x.device, dtype=torch.float32)
        grid = (M, triton.cdiv(N, 128))
        _dequant_kernel[grid](acc, self.w_scale, out, M, N, self.x_scale, BLOCK_N=128)
        return out
