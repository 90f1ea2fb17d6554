"""Launch configuration kept in a frozen dataclass and a typing.NamedTuple class, built positionally, by
keyword, from a dict of overrides and from the constructor's **options (which the harness, building
the model from get_init_inputs() by position, leaves empty): forward calls the launchers the records
hold, and reads their numbers. The records' fields are the constructor's arguments, so the calls reach
the file's own Triton kernels."""
import dataclasses
from typing import Callable, NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _hardswish(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * tl.minimum(tl.maximum(x + 3.0, 0.0), 6.0) / 6.0, mask=mask)


def _run(x, block):
    y = torch.empty_like(x)
    _hardswish[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), BLOCK=block)
    return y


class Stage(NamedTuple):
    launch: Callable
    block: int = 1024


@dataclasses.dataclass(frozen=True)
class Plan:
    stage: Stage
    contiguous: bool = True
    launch: Callable = _run


class ModelNew(nn.Module):
    def __init__(self, block=512, **options):
        super().__init__()
        self.stage = Stage(_run, block)
        overrides = {"stage": self.stage, "contiguous": True}
        self.plan = Plan(**overrides, **options)

    def forward(self, x):
        if self.plan.contiguous:
            x = x.contiguous()
        launch = self.plan.launch if self.plan.contiguous else self.stage.launch
        return launch(x, self.plan.stage.block)
