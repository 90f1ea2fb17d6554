# runtime-task: tasks/Activation/gelu
# runtime-expect: fail side-stream
# T1, runtime form: the submission's own Triton kernel is right, but forward launches it on a stream of
# its own and returns without joining it, so an event timer on the current stream brackets nothing.
# The worker records the end of the call on the current stream and again after a device-wide
# synchronize: the work shows up only in the second; CUPTI also sees the kernel on another stream still
# running after the end-of-forward marker on the current one.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    # Redundant work that adds exactly zero (0 * erf is +-0 for every input), so the kernel outlives
    # forward's return even when the host is slow to launch: the cheat's gain is real.
    for i in range(256):  # a loop, not unrolled (256 unrolled erf calls take minutes to compile)
        y = y + 0.0 * tl.math.erf(x * (1.0 + i * 1e-3))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            gelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
