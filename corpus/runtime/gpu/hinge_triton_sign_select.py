# runtime-task: corpus/runtime/tasks/hinge_pm1.py
# runtime-expect: pass
# Honest under the task's input contract (targets are +1 or -1): the margin is 1 - p or 1 + p, picked
# by the target's sign. Targets are read through their broadcast strides (a view, no copy), partial sums
# per block are reduced by a second kernel in a fixed order, so the result is deterministic.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_partials_kernel(p_ptr, t_ptr, part_ptr, n, cols, t_stride_r, t_stride_c, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    r = offs // cols
    c = offs % cols
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + r * t_stride_r + c * t_stride_c, mask=mask, other=0.0)
    margin = tl.where(t > 0, 1.0 - p, 1.0 + p)
    margin = tl.where(mask, tl.maximum(margin, 0.0), 0.0)
    tl.store(part_ptr + tl.program_id(0), tl.sum(margin, axis=0))


@triton.jit
def mean_kernel(part_ptr, out_ptr, parts, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        cols = p.shape[-1]
        t = torch.broadcast_to(targets, p.shape).reshape(-1, cols)
        n = p.numel()
        block = 4096
        parts = triton.cdiv(n, block)
        partials = torch.empty(parts, device=p.device, dtype=torch.float32)
        hinge_partials_kernel[(parts,)](p, t, partials, n, cols, t.stride(0), t.stride(1), BLOCK=block)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        mean_kernel[(1,)](partials, out, parts, n, BLOCK=1024)
        return out
