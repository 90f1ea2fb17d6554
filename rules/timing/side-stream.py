# Fixture for side-stream: new streams, stream contexts and stream switches.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.cuda import Stream as CudaStream


@triton.jit
def fill_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, 1.0, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: side-stream
        self.side = torch.cuda.Stream(priority=-1)
        # ruleid: side-stream
        self.other = CudaStream()
        # ruleid: side-stream
        self.hidden = getattr(torch.cuda, "Str" + "eam")()

    def forward(self, x):
        y = torch.empty_like(x)
        n = y.numel()
        # ok: side-stream
        current = torch.cuda.current_stream()
        # ruleid: side-stream
        with torch.cuda.stream(self.side):
            fill_kernel[(triton.cdiv(n, 1024),)](y, n, BLOCK=1024)
        # ruleid: side-stream
        torch.cuda.set_stream(self.other)
        # ruleid: side-stream
        raw = torch.cuda.ExternalStream(current.cuda_stream)
        # ok: side-stream
        torch.cuda.synchronize()
        del raw
        return y
