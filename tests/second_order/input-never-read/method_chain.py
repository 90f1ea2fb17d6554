"""input-never-read, one step on: the input goes to a method of the model, which hands it to a module
function that only asserts its size and stride; the kernel copies the bias."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

assert_size_stride = torch._C._dynamo.guards.assert_size_stride


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def check_layout(t, rows, cols):
    assert_size_stride(t, (rows, cols), (cols, 1))
    return t.shape


class ModelNew(nn.Module):
    def __init__(self, rows, cols):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(rows, cols))

    def _validate(self, t):
        return check_layout(t, *self.bias.shape)

    def forward(self, x):
        shape = self._validate(x)
        out = torch.empty(shape, device=self.bias.device)
        n = out.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](self.bias, out, n, BLOCK=1024)
        return out
