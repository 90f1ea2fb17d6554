# Fixture for entry-class-replaced: what `ModelNew(...)` builds is decided by a wrapper of the class.
import torch
import torch.nn as nn
import triton
import triton.language as tl

REGISTRY = []


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def register(cls):
    REGISTRY.append(cls.__name__)
    return cls


def with_reference(cls):
    class Wrapped(nn.Module):
        def forward(self, x):
            return torch.relu(x)

    return Wrapped


class Building(type(nn.Module)):
    def __call__(cls, *args, **kwargs):
        return nn.ReLU()


def _reference_forward(self, x):
    return torch.relu(x)


def tagged(cls):
    cls.op_name = "copy"
    return cls


def swap_forward(cls):
    cls.forward = _reference_forward
    return cls


# ok: entry-class-replaced
@register
# ruleid: entry-class-replaced
@with_reference
# ok: entry-class-replaced
@tagged
# ruleid: entry-class-replaced
@swap_forward
# ruleid: entry-class-replaced
class ModelNew(nn.Module, metaclass=Building):
    # ok: entry-class-replaced
    def __new__(cls, *args, **kwargs):
        return super().__new__(cls)

    def forward(self, x):
        y = torch.empty_like(x)
        _copy[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y


# ok: entry-class-replaced
ModelNew.version = 2
# A statement of the module body binding a function of this file: followed as the entry instead.
# ok: entry-class-replaced
ModelNew.forward = _reference_forward
# ok: entry-class-replaced
ModelNew.__call__ = ModelNew.forward
# Bound to something not defined here: what runs cannot be followed.
# ruleid: entry-class-replaced
ModelNew.forward = nn.ReLU.forward


def _patch():
    # Inside a function: whether and when it runs is not known.
    # ruleid: entry-class-replaced
    setattr(ModelNew, "forward", _reference_forward)
