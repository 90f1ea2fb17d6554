# Fixture for returns-input: the input handed back from ModelNew.forward.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def _as_contiguous(t):
    # ok: returns-input
    return t if t.is_contiguous() else t.contiguous()


def _relu(t):
    if t.numel() == 0:
        # ok: returns-input
        return t
    out = torch.empty_like(t)
    relu_kernel[(triton.cdiv(t.numel(), 1024),)](t, out, t.numel(), BLOCK=1024)
    # ok: returns-input
    return out


def _pick(probe, t):
    if probe.numel() == 0:
        # ok: returns-input
        return t
    # ok: returns-input
    return _relu(t)


class ModelNew(nn.Module):
    def forward(self, x):
        if x.dim() == 1:
            # ruleid: returns-input
            return x
        if x.shape[0] == 1:
            # ruleid: returns-input
            return x.view(x.shape[1], 1)
        if x.shape[0] == 2:
            # ruleid: returns-input
            return x.float()
        if x.shape[0] == 3:
            y = x
            # ruleid: returns-input
            return y
        x = _as_contiguous(x)
        if x.shape[0] == 4:
            # Rebound to a view of itself: still the input.
            # ruleid: returns-input
            return x
        # An empty input gives back an empty tensor: no harness input is empty, and an empty result
        # cannot pass a check of a non-empty output.
        if x.numel() == 0:
            # ok: returns-input
            return x.clone()
        rows, cols = x.shape
        if rows < 1 or 0 in x.shape:
            # ok: returns-input
            return x
        if cols > 0:
            pass
        else:
            # ok: returns-input
            return x.view(-1)
        if x.shape[0] == 5:
            # A helper's own empty-input return does not make it hand back its input.
            # ok: returns-input
            return _relu(x)
        if x.shape[0] == 6:
            # The probe is empty on purpose: the helper returns what it was given, the input.
            # ruleid: returns-input
            return _pick(x[:0], x)
        empty = x[:0]
        if empty.numel() == 0:
            # The test found another tensor empty; this returns the input.
            # ruleid: returns-input
            return x
        n0 = empty.numel()
        empty = x
        if n0 == 0:
            # Rebound after its size was read: no longer the empty tensor.
            # ruleid: returns-input
            return empty
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        if n == 7:
            # ok: returns-input
            return out
        if n == 8:
            # Rebound to the kernel's result in this branch and returned there: the result.
            x = out
            # ok: returns-input
            return x
        if n == 9:
            # A loop that runs rebinds x on every pass: the last pass's result is returned.
            for _ in range(2):
                x = _relu(x)
            # ok: returns-input
            return x
        if n == 10:
            # A loop that never runs leaves x the input.
            for _ in range(0):
                x = _relu(x)
            # ruleid: returns-input
            return x
        if n == 11:
            # A pass may skip the rebinding (continue before it), and every pass may.
            for k in range(3):
                if k != 7:
                    continue
                x = _relu(x)
            # ruleid: returns-input
            return x
        # The parameter rebound to the kernel's result, unconditionally: what is returned is the result.
        x = out
        # ok: returns-input
        return x
