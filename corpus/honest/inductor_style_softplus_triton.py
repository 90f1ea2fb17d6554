"""Softplus written as a hand-made kernel in the style of Inductor's generated code: the launcher
checks strides with assert_size_stride, allocates with empty_strided_cuda, takes the raw stream and
sizes the grid with Inductor's grid helper, and the @triton.jit kernel uses Inductor's device math
helpers. Nothing is compiled by PyTorch: the kernel below is the submission's own."""

import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_heuristics import grid
from torch._inductor.runtime.triton_helpers import libdevice

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda


@triton.jit
def triton_poi_softplus_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tmp1 = 20.0
    tmp2 = tmp0 > tmp1
    tmp3 = libdevice.log1p(tl.exp(triton_helpers.minimum(tmp0, tmp1)))
    tmp4 = tl.where(tmp2, tmp0, tmp3)
    tl.store(out_ptr0 + xindex, tmp4, xmask)


def call(args):
    (arg0_1,) = args
    args.clear()
    numel = arg0_1.numel()
    assert_size_stride(arg0_1, tuple(arg0_1.shape), tuple(arg0_1.stride()))
    with torch.cuda._DeviceGuard(arg0_1.device.index):
        buf0 = empty_strided_cuda(tuple(arg0_1.shape), tuple(arg0_1.stride()), torch.float32)
        get_raw_stream(arg0_1.device.index)
        triton_poi_softplus_0[grid(numel)](arg0_1, buf0, numel, XBLOCK=1024, num_warps=4, num_stages=1)
        del arg0_1
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return call([x.contiguous()])[0]
