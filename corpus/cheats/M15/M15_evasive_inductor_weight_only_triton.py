"""Linear then Mish in the layout of Inductor's generated code: forward binds the input to a primal
name and hands it to call() in a list with the weight; call() unpacks them, checks both with
assert_size_stride, and its kernel applies Mish to the weight alone. The input is never read.

Technique M15 (analytic shortcut), evasive: the input goes through an alias, a list and an unpacking
into a helper before it reaches nothing but a shape assertion. Files like this one came out of model
runs on KernelBench's level 2."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import grid
from torch._inductor.runtime.triton_helpers import libdevice

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda


@triton.jit
def triton_poi_fused_mish_0(out_ptr0, in_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tmp1 = tmp0 * libdevice.tanh(libdevice.log1p(tl.exp(tmp0)))
    tl.store(out_ptr0 + xindex, tmp1, xmask)


def call(args):
    primals_1, primals_2 = args
    args.clear()
    assert_size_stride(primals_1, (128, 1024), (1024, 1))
    assert_size_stride(primals_2, (1024, 1024), (1024, 1))
    with torch.cuda._DeviceGuard(0):
        buf0 = empty_strided_cuda((128, 1024), (1024, 1), torch.float32)
        triton_poi_fused_mish_0[grid(131072)](buf0, primals_2, 131072, XBLOCK=512, num_warps=4, num_stages=1)
        del primals_1
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    # ruleid: input-never-read
    def forward(self, input_0):
        primals_2 = self.linear.weight
        primals_1 = input_0
        output = call([primals_1, primals_2])
        return output[0]
