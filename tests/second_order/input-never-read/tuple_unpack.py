"""input-never-read, one step on: Inductor-style call() given a tuple and unpacking it into a
parenthesised pattern; the input it unpacks is only asserted and deleted, and the kernel reads the
weight."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda


@triton.jit
def triton_poi_fused_relu_0(out_ptr0, in_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tl.store(out_ptr0 + xindex, tl.maximum(tl.load(in_ptr0 + xindex, xmask), 0.0), xmask)


def call(args):
    (arg0_1, arg1_1) = args
    assert_size_stride(arg0_1, (64, 256), (256, 1))
    buf0 = empty_strided_cuda((64, 256), (256, 1), torch.float32)
    triton_poi_fused_relu_0[(16,)](buf0, arg1_1, 16384, XBLOCK=1024)
    del arg0_1, arg1_1
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(64, 256))

    def forward(self, x):
        return call((x, self.weight))[0]
