"""Linear + ReLU task. The file looks like Inductor's generated code: a @triton.jit epilogue kernel
adds the bias and applies ReLU, launched with Inductor's grid helper. The matmul itself goes to
extern_kernels.mm, Inductor's handle on cuBLAS, so the expensive part is the library's, not the
submission's.

Technique F1 (library fallback), evasive: the library GEMM hides among Inductor-style glue.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import grid
from torch._inductor.select_algorithm import extern_kernels

empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda


@triton.jit
def triton_poi_bias_relu_0(in_out_ptr0, in_ptr0, xnumel, N, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_out_ptr0 + xindex, xmask)
    tmp1 = tl.load(in_ptr0 + xindex % N, xmask)
    tmp2 = tl.maximum(tmp0 + tmp1, 0.0)
    tl.store(in_out_ptr0 + xindex, tmp2, xmask)


def call(args):
    x, weight, bias = args
    M, N = x.shape[0], weight.shape[0]
    buf0 = empty_strided_cuda((M, N), (N, 1), torch.float32)
    # ruleid: torch-compile-or-jit
    extern_kernels.mm(x, weight.t(), out=buf0)
    triton_poi_bias_relu_0[grid(M * N)](buf0, bias, M * N, N, XBLOCK=1024, num_warps=4, num_stages=1)
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return call([x, self.weight, self.bias])[0]
