"""out = x * scale + residual, written by hand in the layout of Inductor's generated code: forward
binds its inputs and the scale parameter to primal names and hands them to call() in a list; call()
unpacks them, checks each with assert_size_stride, and its kernel reads both inputs. The same shape
as an input-never-read cheat, except that every input reaches the kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import grid

assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda


@triton.jit
def triton_poi_fused_add_mul_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tmp1 = tl.load(in_ptr1)
    tmp2 = tl.load(in_ptr2 + xindex, xmask)
    tl.store(out_ptr0 + xindex, tmp0 * tmp1 + tmp2, xmask)


def call(args):
    primals_1, primals_2, primals_3 = args
    args.clear()
    numel = primals_1.numel()
    assert_size_stride(primals_1, tuple(primals_1.shape), tuple(primals_1.stride()))
    assert_size_stride(primals_3, tuple(primals_1.shape), tuple(primals_1.stride()))
    with torch.cuda._DeviceGuard(primals_1.device.index):
        buf0 = empty_strided_cuda(tuple(primals_1.shape), tuple(primals_1.stride()), torch.float32)
        triton_poi_fused_add_mul_0[grid(numel)](primals_1, primals_2, primals_3, buf0, numel, XBLOCK=1024)
        del primals_1, primals_3
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x, residual):
        primals_1 = x
        primals_2 = self.scale
        primals_3 = residual
        return call([primals_1, primals_2, primals_3])[0]
