import torch
import triton
import triton.language as tl


@triton.jit
def _forward_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, r * r, mask=mask)


@triton.jit
def _backward_kernel(x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, g * 2.0 * tl.maximum(x, 0.0), mask=mask)


def squared_relu_forward(x):
    y = torch.empty_like(x)
    n = x.numel()
    _forward_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


def squared_relu_backward(x, grad_y):
    grad_x = torch.empty_like(x)
    n = x.numel()
    _backward_kernel[(triton.cdiv(n, 1024),)](x, grad_y, grad_x, n, BLOCK=1024)
    return grad_x
