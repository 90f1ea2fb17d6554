"""F1, evasive: forward calls an operator of the submission's own torch.library.Library; the function
bound to it with lib.impl(...) is torch.bmm, one registration away from the entry. A Triton kernel
sits in the file and is never launched."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
# ruleid: decoy-kernel-unlaunched
def _bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(c_ptr + pid, tl.load(a_ptr + pid) * tl.load(b_ptr + pid))


_lib = torch.library.Library("kgate_fast", "DEF")
_lib.define("bmm(Tensor a, Tensor b) -> Tensor")


def _bmm_cuda(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # ruleid: torch-function-in-forward
    return torch.bmm(a, b)


_lib.impl("bmm", _bmm_cuda, "CUDA")


class ModelNew(nn.Module):
    # ruleid: forward-reaches-no-kernel
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.ops.kgate_fast.bmm(a, b)
