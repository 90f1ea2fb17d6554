# Fixture for lazy-output-subclass: outputs that compute when inspected.
import torch
import torch.nn as nn


# ruleid: lazy-output-subclass
class LazyResult(torch.Tensor):
    pass


# ruleid: lazy-output-subclass
class Interceptor:
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


# ok: lazy-output-subclass
class MatmulFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x


# ok: lazy-output-subclass
class LaunchConfig:
    block = 128


def _always_equal(self, other):
    return True


def _tag(fn):
    # ok: lazy-output-subclass
    fn.__doc__ = "launch wrapper"
    return fn


# ruleid: lazy-output-subclass
torch.Tensor.__torch_function__ = classmethod(lambda cls, f, t, a=(), k=None: f(*a, **(k or {})))


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        # ruleid: lazy-output-subclass
        out.__eq__ = _always_equal
        # ruleid: lazy-output-subclass
        setattr(out, "__ne__", _always_equal)
        # ruleid: lazy-output-subclass
        lazy = torch.Tensor._make_subclass(LazyResult, out)
        return lazy
