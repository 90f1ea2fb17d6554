"""F6, evasive (Python): a GEMM task. The constructor builds a CUTLASS Python plan
(cutlass.op.Gemm), which compiles CUTLASS's own library GEMM, and forward runs it through an attribute
of the module; a CuTe DSL kernel of the submission's own only adds the bias afterwards. CUTLASS's
CuTe DSL (cutlass.cute) is a kernel language; cutlass.op is a library of finished kernels."""
import cutlass
import cutlass.cute as cute
import torch
import torch.nn as nn
from cutlass.cute.runtime import from_dlpack


@cute.kernel
def _add_bias(c: cute.Tensor, bias: cute.Tensor, n: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    row = bidx
    col = tidx
    if col < n:
        c[row, col] = c[row, col] + bias[col]


@cute.jit
def _launch_bias(c: cute.Tensor, bias: cute.Tensor, m: cutlass.Int32, n: cutlass.Int32):
    _add_bias(c, bias, n).launch(grid=(m, 1, 1), block=(n, 1, 1))


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        self.plan = cutlass.op.Gemm(element=torch.float32, layout=cutlass.LayoutType.RowMajor)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty((x.shape[0], self.weight.shape[1]), device=x.device, dtype=x.dtype)
        # ruleid: kernel-library-call
        self.plan.run(x, self.weight, out, out, alpha=1.0, beta=0.0)
        _launch_bias(from_dlpack(out), from_dlpack(self.bias), out.shape[0], out.shape[1])
        return out
