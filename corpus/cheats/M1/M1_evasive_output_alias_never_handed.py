"""M1 (output-argument, evasive): solve names its output through a local alias, but hands the kernel
only a scratch buffer and never copies it back, so the harness reads whatever `output` held (with a
caching allocator, often the reference's freed result). An alias is not a write: only what the alias
is handed to can write the output."""
import torch
import triton
import triton.language as tl


@triton.jit
def negate_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(dst_ptr + offsets, -tl.load(src_ptr + offsets, mask=mask), mask=mask)


# ruleid: output-unwritten
def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    result = output
    scratch = torch.empty_like(input)
    block = 1024
    negate_kernel[(triton.cdiv(N, block),)](input, scratch, N, BLOCK=block)
    return result
