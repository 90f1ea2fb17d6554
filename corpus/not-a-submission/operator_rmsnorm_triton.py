"""A TritonBench-style operator module: a kernel, its wrapper and a self-test, with no harness entry
(no ModelNew, no Model, no custom_kernel). The gate judges it with the module-level rules and calls it
not-a-submission: it is a library, not something a harness would run as a candidate."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rms_norm_fwd(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(mean_square + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    y = torch.empty_like(x)
    rows, cols = x.shape
    _rms_norm_fwd[(rows,)](x, weight, y, x.stride(0), cols, eps, BLOCK=triton.next_power_of_2(cols))
    return y
