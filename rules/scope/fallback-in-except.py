# Fixture for fallback-in-except: PyTorch calls in except handlers on the forward path.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK + tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K):
        a = tl.load(a_ptr + rm * K + k, mask=rm < M, other=0.0)
        b = tl.load(b_ptr + k * N + rn, mask=rn < N, other=0.0)
        acc += a[:, None] * b[None, :]
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _launch(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    gemm_kernel[grid](a, b, c, M, N, K, BLOCK=32)
    return c


def _activation(c):
    try:
        return _launch(c, c)
    except RuntimeError:
        # ruleid: fallback-in-except
        return F.gelu(c)


def _offline_check(a, b):
    try:
        return _launch(a, b)
    except Exception:
        # ok: fallback-in-except
        return torch.matmul(a, b)


class ModelNew(nn.Module):
    def forward(self, a, b):
        try:
            c = _launch(a, b)
        except Exception:
            # ruleid: fallback-in-except
            c = torch.matmul(a, b)
        try:
            d = _launch(c, b)
        except (RuntimeError, ValueError):
            # ruleid: fallback-in-except
            d = c @ b
        except:  # noqa: E722
            # ruleid: fallback-in-except
            d = c.mm(b)
        try:
            d = _launch(d, d)
        except Exception:
            # ruleid: fallback-in-except
            d = d * d + a
        try:
            e = _launch(d, b)
        except Exception:
            # ok: fallback-in-except
            e = torch.empty_like(d)
            # ok: fallback-in-except
            e = e.contiguous()
            raise
        return _activation(e)
