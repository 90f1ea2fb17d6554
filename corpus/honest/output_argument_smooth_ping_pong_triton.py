"""Output-argument harness (LeetGPU-style): solve(input, output, N, steps) applies a three-point
smoothing `steps` times. The passes ping-pong between a scratch buffer and the output, chosen by
branch so that the last pass lands in `output`: the output is written through the local `dst`, which
aliases it on the passes that write it."""
import torch
import triton
import triton.language as tl


@triton.jit
def smooth_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    left = tl.load(src_ptr + offsets - 1, mask=mask & (offsets > 0), other=0.0)
    mid = tl.load(src_ptr + offsets, mask=mask, other=0.0)
    right = tl.load(src_ptr + offsets + 1, mask=mask & (offsets + 1 < n), other=0.0)
    tl.store(dst_ptr + offsets, 0.25 * left + 0.5 * mid + 0.25 * right, mask=mask)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


def solve(input: torch.Tensor, output: torch.Tensor, N: int, steps: int):
    block = 1024
    grid = (triton.cdiv(N, block),)
    if steps == 0:
        copy_kernel[grid](input, output, N, BLOCK=block)
        return
    scratch = torch.empty_like(input)
    src = input
    for step in range(steps):
        if (steps - step) % 2 == 1:
            dst = output
        else:
            dst = scratch
        smooth_kernel[grid](src, dst, N, BLOCK=block)
        src = dst
