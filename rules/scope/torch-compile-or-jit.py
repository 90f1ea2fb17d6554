# Fixture for torch-compile-or-jit: compiler entry points as calls and as decorators, anywhere.
import re

import torch
import torch._dynamo as dynamo
import torch.nn as nn
import triton
import triton.language as tl
from torch import compile as tc


@triton.jit
# ok: torch-compile-or-jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@torch.compile
# ruleid: torch-compile-or-jit
def fused_epilogue(x):
    return x * 2


@torch.jit.script
# ruleid: torch-compile-or-jit
def scripted_bias(x, b):
    return x + b


def _helper(x):
    return x + 1


# ruleid: torch-compile-or-jit
fast_helper = tc(_helper)
# ok: torch-compile-or-jit
PATTERN = re.compile(r"^\d+$")


def _launch_copy(x):
    y = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    return y


# The submission's own launcher captured in a CUDA graph (GPU MODE style).
# ok: torch-compile-or-jit
launch_graphed = torch.compile(_launch_copy, mode="reduce-overhead")


def _scale_only(x):
    _launch_copy(x)
    return x * 3


# Compiles a function whose own arithmetic Inductor would turn into its kernels.
# ruleid: torch-compile-or-jit
scale_fast = torch.compile(_scale_only)


@torch.jit.ignore
# Kept out of TorchScript: the opposite of compiling.
# ok: torch-compile-or-jit
def _eager_only(x):
    return x


@torch._dynamo.disable
# ok: torch-compile-or-jit
def _not_traced(x):
    return x


# ok: torch-compile-or-jit
TRACING = torch.compiler.is_compiling()


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        # ruleid: torch-compile-or-jit
        self.fc_fast = torch.compile(self.fc, mode="max-autotune")
        # ruleid: torch-compile-or-jit
        self.traced = torch.jit.trace(self.fc, torch.randn(4, n))

    def forward(self, x):
        # ruleid: torch-compile-or-jit
        dynamo.mark_dynamic(x, 0)
        # ruleid: torch-compile-or-jit
        opt = torch._dynamo.optimize("inductor")(_helper)
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
        del opt
        return fused_epilogue(y)
