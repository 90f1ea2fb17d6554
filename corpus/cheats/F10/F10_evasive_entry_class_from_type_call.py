"""F10 through type(): ModelNew is not a class statement but what type() builds from a name, a base
and a dict, and the dict's forward is PyTorch's ReLU. The kernel below is launched only from a helper
nobody calls. Which class the harness builds is decided by a call the gate cannot follow, so the
binding is the finding."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


def _launch(x):
    y = torch.empty_like(x)
    n = x.numel()
    relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


# ruleid: entry-class-replaced
ModelNew = type("ModelNew", (nn.Module,), {"forward": lambda self, x: torch.relu(x)})
