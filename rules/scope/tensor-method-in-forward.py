# Fixture for tensor-method-in-forward: compute methods and `@` on tensors reached from forward.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rowsum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    # ok: tensor-method-in-forward
    total = x.sum(axis=0)
    # ok: tensor-method-in-forward
    tl.store(out_ptr + row, total.to(tl.float32))


def _epilogue(v):
    # ruleid: tensor-method-in-forward
    return v.softmax(dim=-1)


def _scaled(v: torch.Tensor, n: int):
    # ok: tensor-method-in-forward
    blocks = (n + 31) // 32 - n % 2
    # ruleid: tensor-method-in-forward
    return v * blocks


def _cdiv(a, b):
    # ok: tensor-method-in-forward
    return (a + b - 1) // b


def _never_called(v):
    # ok: tensor-method-in-forward
    return v.softmax(dim=-1)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n, n))
        # ok: tensor-method-in-forward
        self.bias = nn.Parameter(torch.zeros(n).add(0.5))

    def forward(self, x):
        # ok: tensor-method-in-forward
        x = x.contiguous()
        # ok: tensor-method-in-forward
        rows, cols = x.size(0), x.size(1)
        # ok: tensor-method-in-forward
        flat = x.view(-1)
        # ok: tensor-method-in-forward
        stride = x.stride(0) + flat.numel()
        out = torch.empty(rows, device=x.device, dtype=x.dtype)
        # ok: tensor-method-in-forward
        grid = (_cdiv(rows * cols, 256) + x.shape[0] * 2,)
        rowsum_kernel[grid](x, out, cols, BLOCK=triton.next_power_of_2(cols))
        loss = torch.zeros(1, device=x.device)
        # ok: tensor-method-in-forward
        mean = loss / (rows * cols)
        # ok: tensor-method-in-forward
        scale = torch.ones(1, device=x.device) * 2.0
        # ruleid: tensor-method-in-forward
        twice = x * x + out[:, None]
        # ruleid: tensor-method-in-forward
        twice += 1.0
        # ruleid: tensor-method-in-forward
        z = 2.0 - (out if rows > 0 else x).T
        # ruleid: tensor-method-in-forward
        y = x @ self.weight
        # ruleid: tensor-method-in-forward
        y = y.matmul(self.weight.t())
        # ruleid: tensor-method-in-forward
        s = y.sum(dim=1)
        # ruleid: tensor-method-in-forward
        s = s.mean()
        # ruleid: tensor-method-in-forward
        y = y.relu()
        # ruleid: tensor-method-in-forward
        y.mul_(0.5)
        # ruleid: tensor-method-in-forward
        y = y.clamp(min=0.0).exp()
        # ruleid: tensor-method-in-forward
        y = torch.Tensor.add(y, self.bias)
        # ruleid: tensor-method-in-forward
        y = getattr(y, "log_" + "softmax")(-1)
        # ruleid: tensor-method-in-forward
        act = lambda v: v.tanh()
        y = act(y)
        # ruleid: tensor-method-in-forward
        y = _epilogue(y) + _scaled(twice, rows) + z + mean + scale
        if x.shape[0] < 0:
            # ok: tensor-method-in-forward
            y = y.cumsum(0)
        # ruleid: tensor-method-in-forward
        return y + out[:, None] + s + stride
