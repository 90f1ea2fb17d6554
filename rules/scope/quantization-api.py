# Fixture for quantization-api: PyTorch quantization and int8/fp8 matmul entry points, anywhere.
import torch
import torch.ao.quantization as tq
import torch.nn as nn
from torch import _scaled_mm as scaled_mm


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        w = torch.randn(n, n)
        # ruleid: quantization-api
        self.qw = torch.quantize_per_tensor(w, scale=0.05, zero_point=0, dtype=torch.qint8)
        # ruleid: quantization-api
        self.w_int = self.qw.int_repr()
        # ruleid: quantization-api
        self.observer = tq.MinMaxObserver()
        # ok: quantization-api
        self.scale = w.abs().amax() / 127.0

    def forward(self, x):
        # ok: quantization-api
        xq = torch.clamp(torch.round(x / self.scale), -128, 127).to(torch.int8)
        # ruleid: quantization-api
        acc = torch._int_mm(xq, self.w_int)
        # ruleid: quantization-api
        acc = getattr(torch, "_int" + "_mm")(xq, self.w_int)
        # ruleid: quantization-api
        y = scaled_mm(x, x, scale_a=self.scale, scale_b=self.scale)
        # ruleid: quantization-api
        y = torch.ops.aten._int_mm(xq, self.w_int)
        # ruleid: quantization-api
        deq = self.qw.dequantize()
        return acc, y, deq
