# runtime-task: tasks/Optimizer/adam_step
# runtime-expect: pass
"""One bias-corrected Adam step in a single Triton pass: each element's param, grad and moments are read once,
and the new param, exp_avg and exp_avg_sq are written to the rows of a fresh [3, N] output (inputs untouched).
The bias corrections are computed once on the host, as the reference does."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def adam_step_kernel(param_ptr, grad_ptr, m_ptr, v_ptr, out_ptr, n,
                     beta1, one_minus_beta1, beta2, one_minus_beta2, bias_corr1, bias_corr2, lr, eps,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(param_ptr + offs, mask=mask, other=0.0)
    g = tl.load(grad_ptr + offs, mask=mask, other=0.0)
    m = tl.load(m_ptr + offs, mask=mask, other=0.0)
    v = tl.load(v_ptr + offs, mask=mask, other=0.0)
    m_new = beta1 * m + one_minus_beta1 * g
    v_new = beta2 * v + one_minus_beta2 * g * g
    m_hat = tl.div_rn(m_new, bias_corr1)
    v_hat = tl.div_rn(v_new, bias_corr2)
    p_new = p - tl.div_rn(lr * m_hat, tl.sqrt_rn(v_hat) + eps)
    tl.store(out_ptr + offs, p_new, mask=mask)
    tl.store(out_ptr + n + offs, m_new, mask=mask)
    tl.store(out_ptr + 2 * n + offs, v_new, mask=mask)


class ModelNew(nn.Module):
    """Adam(lr, betas=(beta1, beta2), eps) at step `step`; returns stack([param, exp_avg, exp_avg_sq])."""

    def __init__(self, lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8, step=10):
        super().__init__()
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.step = step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        param = param.contiguous()
        grad = grad.contiguous()
        exp_avg = exp_avg.contiguous()
        exp_avg_sq = exp_avg_sq.contiguous()
        n = param.numel()
        out = torch.empty((3,) + tuple(param.shape), device=param.device, dtype=param.dtype)
        if n > 0:
            block = 1024
            adam_step_kernel[(triton.cdiv(n, block),)](
                param, grad, exp_avg, exp_avg_sq, out, n,
                self.beta1, 1.0 - self.beta1, self.beta2, 1.0 - self.beta2,
                1.0 - self.beta1 ** self.step, 1.0 - self.beta2 ** self.step, self.lr, self.eps,
                BLOCK=block, num_warps=4,
            )
        return out
