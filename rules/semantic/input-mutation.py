# Fixture for input-mutation: in-place changes to tensors the forward path was given.
import torch
import torch.nn as nn


def _clear(t):
    # ruleid: input-mutation
    t.zero_()


class _ScaleFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        # ok: input-mutation
        ctx.scale = scale
        return x * scale


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n, n))

    def forward(self, x, y, w_in):
        # ruleid: input-mutation
        x.zero_()
        # ruleid: input-mutation
        y.mul_(2.0)
        # ruleid: input-mutation
        x.copy_(y)
        # ruleid: input-mutation
        x[0] = 0
        # ruleid: input-mutation
        y.data = torch.empty_like(y)
        _clear(y)
        out = torch.empty_like(x)
        # ok: input-mutation
        out.fill_(0.0)
        # ok: input-mutation
        x.requires_grad_(False)
        # Through a view, and through functional in-place forms.
        flat = x.view(-1)
        # ruleid: input-mutation
        flat.zero_()
        head = y[:4]
        # ruleid: input-mutation
        head.mul_(0.0)
        # ruleid: input-mutation
        torch.relu_(x)
        # ruleid: input-mutation
        torch.mul(x, 2.0, out=y)
        # ok: input-mutation
        torch.relu_(out)
        h = self.weight @ y
        y = h.relu()
        # A parameter rebound to a new tensor before the in-place call: the local changes, not the input.
        # ok: input-mutation
        y.mul_(2.0)
        # ok: input-mutation
        torch.nn.functional.relu(y, inplace=True)
        copy = x.clone()
        # ok: input-mutation
        copy.mul_(2.0)
        # A local bound to a new tensor before the write, and to the input only in a later branch: the
        # write fills the new tensor (padding an input to a block multiple).
        if x.shape[0] % 16:
            padded = x.new_zeros((16, 16))
            # ok: input-mutation
            padded[:4, :4].copy_(copy[:4, :4])
        else:
            padded = x
        # A view of a parameter rebound to a new tensor before the view: the view is the new tensor's.
        w_in = torch.sigmoid(w_in)
        w_head = w_in[:4]
        # ok: input-mutation
        w_head /= 2.0
        # A loop that binds the local to the input after the write: the next iteration writes the input.
        buf = torch.empty_like(x)
        for _ in range(2):
            # ruleid: input-mutation
            buf.zero_()
            buf = x
        # A local bound to the input in one branch of an if/else and to a new tensor in the other: the
        # write after the if may clear the input, whichever branch binds it last in the text.
        if x.shape[0] > 1:
            maybe = x
        else:
            maybe = torch.empty_like(x)
        # ruleid: input-mutation
        maybe.zero_()
        # Either arm of a conditional expression may be the input's memory.
        either = x[:2] if x.shape[0] > 2 else torch.empty_like(x)
        # ruleid: input-mutation
        either.mul_(0.5)
        # Bound to the input first, then to a new tensor in every branch: the write fills the new one.
        fresh = x
        if x.shape[0] > 1:
            fresh = torch.empty_like(x)
        elif x.shape[0] > 0:
            fresh = torch.zeros_like(x)
        else:
            fresh = x.new_ones(x.shape)
        # ok: input-mutation
        fresh.fill_(1.0)
        # A parameter rebound to a new tensor in a branch and written in that same branch: the local.
        if x.shape[0] > 3:
            x = torch.sigmoid(x)
            # ok: input-mutation
            x.mul_(2.0)
        # ok: input-mutation
        z = x.add(1.0)
        z = _ScaleFn.apply(z, 2.0)
        return out + z
