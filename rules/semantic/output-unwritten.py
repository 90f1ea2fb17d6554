# Fixture for output-unwritten: output-argument entries (solve / solution) must write their output.
import torch
import triton
import triton.language as tl


@triton.jit
def _scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


# ruleid: output-unwritten
def solve(input: torch.Tensor, output: torch.Tensor, n: int):
    scratch = torch.empty_like(input)
    _scale[(triton.cdiv(n, 1024),)](input, scratch, n, BLOCK=1024)


# ok: output-unwritten
def solution(input: torch.Tensor, output: torch.Tensor, n: int):
    _scale[(triton.cdiv(n, 1024),)](input, output, n, BLOCK=1024)
