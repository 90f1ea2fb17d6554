"""F1 through code that runs when the model is called but is not forward, and through children that
are never assigned as attributes: a forward hook swaps the output for torch.softmax of the input;
nn.Linear children are registered with add_module and setattr, and an nn.ModuleList is unpacked into
locals. forward itself only launches a copy kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


def _replace_output(module, inputs, output):
    # ruleid: torch-function-in-forward
    return torch.softmax(inputs[0], dim=-1)


class ModelNew(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.add_module("proj_in", nn.Linear(d, d))
        setattr(self, "proj_out", nn.Linear(d, d))
        self.blocks = nn.ModuleList([nn.Linear(d, d), nn.GELU()])
        self.register_forward_hook(_replace_output)

    def forward(self, x):
        # ruleid: torch-function-in-forward
        h = self.proj_in(x)
        # ruleid: torch-function-in-forward
        h = self.proj_out(h)
        lin, act = self.blocks
        # ruleid: torch-function-in-forward
        h = act(lin(h))
        out = torch.empty_like(h)
        copy_kernel[(triton.cdiv(h.numel(), 1024),)](h.contiguous(), out, h.numel(), BLOCK=1024)
        return out
