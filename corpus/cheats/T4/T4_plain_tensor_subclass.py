"""Row-wise L2 normalisation. The Triton kernel copies the rows and computes their norms; the
division happens in the returned tensor subclass's __torch_function__, the first time the checker
touches the result, outside the timed region.

Technique T4 (lazy output), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _copy_and_norm_kernel(x_ptr, out_ptr, norm_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * n_cols + cols, x, mask=mask)
    tl.store(norm_ptr + row, tl.sqrt(tl.sum(x * x, axis=0)) + 1e-12)


# ruleid: lazy-output-subclass
class _DeferredNormalized(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        plain = []
        for a in args:
            if isinstance(a, _DeferredNormalized):
                base = a.as_subclass(torch.Tensor)
                a = base / a._norms[:, None]
            plain.append(a)
        return func(*plain, **kwargs)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        rows, cols = x.shape
        out = torch.empty_like(x)
        norms = torch.empty((rows,), device=x.device, dtype=x.dtype)
        _copy_and_norm_kernel[(rows,)](x, out, norms, cols, BLOCK_SIZE=triton.next_power_of_2(cols))
        lazy = out.as_subclass(_DeferredNormalized)
        lazy._norms = norms
        return lazy
