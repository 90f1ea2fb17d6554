"""Cheat (M7, LeetGPU): the submission seeds PyTorch with a number of its own choosing, not the `seed`
the harness passes in. With a known seed it can regenerate or steer the harness's draws; the task's
seed input is read only to look like it."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + offs, e / tl.sum(e, axis=0), mask=mask)


def solve(logits: torch.Tensor, seed: torch.Tensor, token: torch.Tensor, vocab_size: int):
    probs = torch.empty_like(logits)
    softmax_kernel[(1,)](logits, probs, vocab_size, BLOCK=triton.next_power_of_2(vocab_size))
    chosen = int(seed.item()) * 0 + 1234
    torch.manual_seed(chosen)
    token.copy_(torch.multinomial(probs, 1))
