"""Own launchers handed around the way larger code bases do: a generator yields the pipeline's
stages, a helper takes them as *stages, a class table read through type(self) holds the epilogue, and
__init__ attaches the prologue with self.__dict__.update. Every callable is a function of the file that
launches a Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _affine(x_ptr, y_ptr, n, a, b, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * a + b, mask=mask)


def _launch(x, a, b):
    y = torch.empty_like(x)
    _affine[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), a, b, BLOCK=1024)
    return y


def _center(x):
    return _launch(x, 1.0, -0.5)


def _stretch(x):
    return _launch(x, 2.0, 0.0)


def _shift(x):
    return _launch(x, 1.0, 0.25)


def _stages():
    yield _center
    yield _stretch


def _chain(x, *stages):
    for stage in stages:
        x = stage(x)
    return x


class ModelNew(nn.Module):
    EPILOGUE = [_shift]

    def __init__(self):
        super().__init__()
        self.__dict__.update(prologue=_center)

    def forward(self, x):
        x = self.prologue(x.contiguous())
        x = _chain(x, *_stages())
        return type(self).EPILOGUE[0](x)
