"""Honest (LeetGPU, challenge.py beside it): a one-program Triton softmax, then the draw the task
prescribes: PyTorch's generator seeded from the `seed` input, as the reference seeds it, and
torch.multinomial on the kernel's probabilities. The seed is the harness's input, not one of the
submission's choosing, and no kernel can reproduce PyTorch's sampler stream."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    row_max = tl.full((), float("-inf"), tl.float32)
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=float("-inf"))
        row_max = tl.maximum(row_max, tl.max(x, axis=0))
    total = tl.zeros((), tl.float32)
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=float("-inf"))
        total += tl.sum(tl.exp(x - row_max), axis=0)
    for start in range(0, n, BLOCK):
        mask = start + offs < n
        x = tl.load(x_ptr + start + offs, mask=mask, other=float("-inf"))
        tl.store(y_ptr + start + offs, tl.exp(x - row_max) / total, mask=mask)


def solve(logits: torch.Tensor, seed: torch.Tensor, token: torch.Tensor, vocab_size: int):
    probs = torch.empty_like(logits)
    softmax_kernel[(1,)](logits, probs, vocab_size, BLOCK=1024)
    generator = torch.Generator(device=logits.device)
    generator.manual_seed(int(seed.item()))
    token.copy_(torch.multinomial(probs, 1, generator=generator))
