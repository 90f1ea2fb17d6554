# runtime-task: tasks/Loss/mse_loss
# runtime-expect: pass
"""mean((pred - target)^2) as a deterministic two-stage Triton reduction: a persistent grid writes one fp32
partial sum per program (no atomics, so every run adds in the same order), then one program sums the
partials and divides by the element count."""

import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PARTIALS = 1024  # a power of two: the second stage reads all partials in one block


@triton.jit
def squared_error_partials_kernel(pred_ptr, target_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, programs * BLOCK):
        idx = start + offs
        mask = idx < n
        p = tl.load(pred_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(target_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        d = p - t
        acc += d * d
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def mean_of_partials_kernel(partial_ptr, out_ptr, count, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    parts = tl.load(partial_ptr + offs, mask=offs < count, other=0.0)
    total = tl.sum(parts, axis=0)
    tl.store(out_ptr, (total / n).to(out_ptr.dtype.element_ty))


class ModelNew(nn.Module):
    """F.mse_loss(pred, target, reduction='mean'), a 0-d tensor in the inputs' dtype."""

    def __init__(self):
        super().__init__()

    def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        pred = pred.contiguous()
        target = target.contiguous()
        n = pred.numel()
        block = 4096
        programs = max(1, min(MAX_PARTIALS, triton.cdiv(n, block)))
        partials = torch.empty(programs, device=pred.device, dtype=torch.float32)
        out = torch.empty((), device=pred.device, dtype=pred.dtype)
        squared_error_partials_kernel[(programs,)](pred, target, partials, n, BLOCK=block, num_warps=8)
        mean_of_partials_kernel[(1,)](partials, out, programs, n, BLOCK=MAX_PARTIALS, num_warps=4)
        return out
