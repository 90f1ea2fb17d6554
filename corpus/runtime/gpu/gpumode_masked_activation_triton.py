# runtime-task: corpus/runtime/tasks/gpumode_masked_activation/reference.py
# runtime-expect: pass
# Honest GPU MODE submission on the GPU whose tests carry boolean and string arguments: one Triton kernel
# per activation, the row mask applied where the data has one.
import torch
import triton
import triton.language as tl
from task import input_t, output_t


@triton.jit
def masked_activation_kernel(x_ptr, keep_ptr, out_ptr, cols, n, HAS_KEEP: tl.constexpr, ABS: tl.constexpr,
                             BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.abs(x) if ABS else tl.maximum(x, 0.0)
    if HAS_KEEP:
        keep = tl.load(keep_ptr + offs // cols, mask=mask)
        y = tl.where(keep > 0, y, 0.0)
    tl.store(out_ptr + offs, y, mask=mask)


def custom_kernel(data: input_t) -> output_t:
    x = data["x"].contiguous()
    keep = data["keep"]
    out = torch.empty_like(x)
    n = x.numel()
    masked_activation_kernel[(triton.cdiv(n, 1024),)](
        x, keep if keep is not None else x, out, x.shape[1], n,
        HAS_KEEP=keep is not None, ABS=data["mode"] == "abs", BLOCK=1024)
    return out
