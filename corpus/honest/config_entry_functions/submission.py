"""A task whose harness imports the submission and calls logsumexp_forward(x) and
logsumexp_backward(x, lse, grad) (row-wise log-sum-exp of a (B, V) matrix and its gradient). Both
entries launch Triton kernels of their own; .kgate.yaml beside this file names the entries."""
import torch
import triton
import triton.language as tl


@triton.jit
def _lse_fwd(x_ptr, lse_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    for start in range(0, V, BLOCK):
        x = tl.load(x_ptr + row * V + start + cols, mask=start + cols < V, other=float("-inf")).to(tl.float32)
        new_m = tl.maximum(m, tl.max(x, 0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), 0)
        m = new_m
    tl.store(lse_ptr + row, m + tl.log(s))


@triton.jit
def _lse_bwd(x_ptr, lse_ptr, g_ptr, dx_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    lse = tl.load(lse_ptr + row)
    g = tl.load(g_ptr + row)
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        x = tl.load(x_ptr + row * V + start + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(dx_ptr + row * V + start + cols, (tl.exp(x - lse) * g).to(dx_ptr.dtype.element_ty), mask=mask)


def logsumexp_forward(x):
    B, V = x.shape
    lse = torch.empty(B, device=x.device, dtype=torch.float32)
    _lse_fwd[(B,)](x, lse, V, BLOCK=1024)
    return lse


def logsumexp_backward(x, lse, grad):
    B, V = x.shape
    dx = torch.empty_like(x)
    _lse_bwd[(B,)](x, lse, grad, dx, V, BLOCK=1024)
    return dx
