"""F1 behind a config-named entry: the task's harness calls logsumexp_forward and logsumexp_backward
(.kgate.yaml beside this file names them). The forward launches its own Triton kernel; the backward,
timed just as much, hands the work to PyTorch."""
import torch
import triton
import triton.language as tl


@triton.jit
def _lse_fwd(x_ptr, lse_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    for start in range(0, V, BLOCK):
        x = tl.load(x_ptr + row * V + start + cols, mask=start + cols < V, other=float("-inf")).to(tl.float32)
        new_m = tl.maximum(m, tl.max(x, 0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), 0)
        m = new_m
    tl.store(lse_ptr + row, m + tl.log(s))


def logsumexp_forward(x):
    B, V = x.shape
    lse = torch.empty(B, device=x.device, dtype=torch.float32)
    _lse_fwd[(B,)](x, lse, V, BLOCK=1024)
    return lse


def logsumexp_backward(x, lse, grad):
    # ruleid: torch-function-in-forward, tensor-method-in-forward
    return torch.softmax(x.float(), dim=-1).mul(grad[:, None]).to(x.dtype)
