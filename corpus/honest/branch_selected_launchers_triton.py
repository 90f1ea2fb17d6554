"""A model that picks one of its own launchers by configuration: an if/else binds the activation's
launcher, and a match statement binds the output scaling's. Every branch binds a function of the file
that launches a Triton kernel, so whichever runs, the work is the submission's."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _act_kernel(x_ptr, y_ptr, n, LEAKY: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.where(x > 0, x, x * 0.01) if LEAKY else tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def _scale_kernel(x_ptr, y_ptr, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * s, mask=mask)


def _relu(x):
    y = torch.empty_like(x)
    _act_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), LEAKY=False, BLOCK=1024)
    return y


def _leaky_relu(x):
    y = torch.empty_like(x)
    _act_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), LEAKY=True, BLOCK=1024)
    return y


def _halve(x):
    y = torch.empty_like(x)
    _scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), 0.5, BLOCK=1024)
    return y


def _double(x):
    y = torch.empty_like(x)
    _scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), 2.0, BLOCK=1024)
    return y


class ModelNew(nn.Module):
    def __init__(self, leaky=False, scale="half"):
        super().__init__()
        self.leaky = leaky
        self.scale = scale

    def forward(self, x):
        x = x.contiguous()
        if self.leaky:
            act = _leaky_relu
        else:
            act = _relu
        match self.scale:
            case "half":
                finish = _halve
            case _:
                finish = _double
        return finish(act(x))
