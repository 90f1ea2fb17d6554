# Fixture for input-never-read: a tensor input of ModelNew.forward whose values nothing reads.
import torch
import torch.nn as nn
import triton
import triton.language as tl

assert_size_stride = torch._C._dynamo.guards.assert_size_stride


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def launch_add(a, b):
    out = torch.empty_like(a)
    n = a.numel()
    add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK=1024)
    return out


def only_checks(t):
    assert_size_stride(t, (16, 16), (16, 1))
    assert t.is_contiguous() and len(t) == 16
    return t.shape[0]


def _finite(t):
    # A pure function of t: a call of it in a test only picks a branch.
    return bool(torch.isfinite(t).all()) and t.dim() == 2


def _doubled(t):
    return t * 2.0


_kept = []


def _keep_and_check(t):
    _kept.append(t)
    return bool(t.all())


def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    assert_size_stride(arg0_1, (16, 16), (16, 1))
    assert_size_stride(arg2_1, (16, 16), (16, 1))
    del arg2_1
    return (launch_add(arg1_1, arg1_1),)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(16, 16))
        self.proj = nn.Linear(16, 16, bias=False)

    def forward(
        self,
        # ok: input-never-read
        x,
        # ruleid: input-never-read
        shape_only,
        # ruleid: input-never-read
        asserted_by_helper,
        # ok: input-never-read
        read_by_helper,
        # ruleid: input-never-read
        unpacked_then_dropped,
        # ok: input-never-read
        unpacked_and_read,
        # ruleid: input-never-read
        unused,
        # ok: input-never-read
        stored,
        # ok: input-never-read
        returned_alias,
        # ruleid: input-never-read
        weight,
        # ok: input-never-read
        by_keyword_read,
        # ruleid: input-never-read
        by_keyword_checked,
        # ruleid: input-never-read
        thrown_away,
        # ruleid: input-never-read
        chained_alias,
        # ok: input-never-read
        chained_read,
        # ruleid: input-never-read
        steers_only,
        # ruleid: input-never-read
        asserted_finite,
        # ruleid: input-never-read
        picks_a_constant,
        # ok: input-never-read
        steers_and_read,
        # ok: input-never-read
        written_out_in_test,
        # ruleid: input-never-read
        checked_by_helper,
        # ruleid: input-never-read
        checked_through_bool,
        # ruleid: input-never-read
        checked_by_keyword,
        # ok: input-never-read
        read_through_pure_helper,
        # ok: input-never-read
        kept_by_check,
        scale: float,
        mask=None,
        *rest,
    ):
        out = torch.empty(shape_only.shape, dtype=shape_only.dtype, device=shape_only.device)
        only_checks(asserted_by_helper)
        total = launch_add(x, read_by_helper)
        total = launch_add(total, self.proj.weight)
        total = launch_add(total, b=by_keyword_read)
        only_checks(t=by_keyword_checked)
        thrown_away.float().sum()
        flat = chained_alias.contiguous().view(-1)
        assert flat.numel() == 256
        total = launch_add(total, chained_read.contiguous().view(16, 16))
        if steers_only.abs().sum() < 0 or not (steers_only == steers_only).all():
            raise ValueError("never taken")
        assert torch.isfinite(asserted_finite).all(), "inputs must be finite"
        total = total * (1.0 if torch.max(picks_a_constant).item() > -1e30 else 0.0)
        while steers_and_read.numel() > 0 and steers_and_read.sum() != 0:
            total = launch_add(total, steers_and_read)
            break
        if not _finite(checked_by_helper) or not bool(torch.isfinite(checked_through_bool).all()):
            raise ValueError("inputs must be finite")
        if not _finite(t=checked_by_keyword):
            raise ValueError("inputs must be finite")
        total = launch_add(total, _doubled(read_through_pure_helper))
        if not _keep_and_check(kept_by_check):
            raise ValueError("never taken")
        if torch.add(written_out_in_test, 0.0, out=total) is None:
            return total
        alias = unpacked_then_dropped
        (y,) = call([alias, unpacked_and_read, self.bias])
        self.last = stored
        same = returned_alias
        if scale < 0:
            return same
        out.copy_(launch_add(total, y))
        return out
