"""Single-head attention with a Triton residual-add kernel at the end.

Technique F1, evasive: the attention math is PyTorch, reached through getattr with a split name,
`t.__dict__[...]`, and a lambda defined in forward that uses the `@` operator.
"""
import torch as t
import triton
import triton.language as tl


@triton.jit
def _residual_add_kernel(a_ptr, b_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(b_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, a + b, mask=mask)


class ModelNew(t.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        # ruleid: tensor-method-in-forward
        score = lambda q_, k_: q_ @ k_.transpose(-2, -1)
        s = score(q, k)
        # ruleid: torch-function-in-forward, obfuscated-api-name
        p = t.__dict__["softmax"](s, dim=-1)
        # ruleid: torch-function-in-forward, obfuscated-api-name
        o = getattr(t, "mat" + "mul")(p, v)
        out = t.empty_like(o)
        n = o.numel()
        grid = (triton.cdiv(n, 1024),)
        _residual_add_kernel[grid](o, q, out, n, BLOCK_SIZE=1024)
        return out
