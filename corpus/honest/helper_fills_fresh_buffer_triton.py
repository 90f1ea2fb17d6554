"""A helper that fills a buffer in place: forward makes the buffer (a lookup table of scales) and
hands it to the helper, which writes it by subscript and with an in-place method. The helper's
parameter is written, but every call passes a tensor its caller made, never the harness's input."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scale_rows(x_ptr, s_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    s = tl.load(s_ptr + row)
    tl.store(y_ptr + row * cols + offs, tl.load(x_ptr + row * cols + offs, mask=mask) * s, mask=mask)


def _fill_scales(table, rows):
    table.fill_(1.0)
    table[: rows // 2] = 0.5


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        scales = torch.empty(rows, device=x.device, dtype=x.dtype)
        _fill_scales(scales, rows)
        y = torch.empty_like(x)
        _scale_rows[(rows,)](x, scales, y, cols, BLOCK=triton.next_power_of_2(cols))
        return y
