"""GPU MODE-style submission (causal depthwise conv1d): data is (x, weight, bias) with x of shape
(batch, dim, seqlen) and weight (dim, width). The causal left padding is a layout copy done with
torch.cat; the convolution itself, with its bias, is the Triton kernel. Channel indices come from an
index range built once per call."""
from task import input_t, output_t

import torch
import triton
import triton.language as tl


@triton.jit
def _causal_conv1d(xp_ptr, w_ptr, b_ptr, ch_ptr, out_ptr, seqlen, padded_len, dim,
                   WIDTH: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # batch * dim + channel
    block = tl.program_id(1)
    channel = tl.load(ch_ptr + row % dim)
    t = block * BLOCK + tl.arange(0, BLOCK)
    mask = t < seqlen
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in tl.static_range(WIDTH):
        xv = tl.load(xp_ptr + row * padded_len + t + k, mask=mask, other=0.0)
        acc += xv.to(tl.float32) * tl.load(w_ptr + channel * WIDTH + k).to(tl.float32)
    acc += tl.load(b_ptr + channel).to(tl.float32)
    tl.store(out_ptr + row * seqlen + t, acc.to(out_ptr.dtype.element_ty), mask=mask)


def custom_kernel(data: input_t) -> output_t:
    x, weight, bias = data
    batch, dim, seqlen = x.shape
    width = weight.shape[1]
    pad = torch.zeros(batch, dim, width - 1, dtype=x.dtype, device=x.device)
    padded = torch.cat([pad, x], dim=2).contiguous()
    channels = torch.arange(dim, dtype=torch.int32, device=x.device)
    out = torch.empty_like(x)
    block = 256
    grid = (batch * dim, triton.cdiv(seqlen, block))
    _causal_conv1d[grid](padded, weight, bias, channels, out, seqlen, seqlen + width - 1, dim,
                         WIDTH=width, BLOCK=block)
    return out
