# Fixture for host-compute-in-forward: NumPy/SciPy computing on data read back from the device.
import numpy as np
import scipy.special
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scale(x_ptr, y_ptr, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * s, mask=mask)


def _host_relu(x):
    arr = x.detach().cpu().numpy()
    # ruleid: host-compute-in-forward
    return torch.from_numpy(np.maximum(arr, 0)).to(x.device)


class ModelNew(nn.Module):
    def __init__(self, head_dim=64):
        super().__init__()
        self.head_dim = head_dim

    def forward(self, x):
        # Numbers that never were on the device: not matched.
        # ok: host-compute-in-forward
        scale = 1.0 / np.sqrt(self.head_dim)
        # ok: host-compute-in-forward
        n = int(np.prod(x.shape))
        y = torch.empty_like(x)
        _scale[(triton.cdiv(n, 1024),)](x, y, n, scale, BLOCK=1024)
        # A conversion moves the data; it does not compute.
        # ok: host-compute-in-forward
        host = np.asarray(y.cpu())
        # ruleid: host-compute-in-forward
        z = scipy.special.expit(host)
        # ruleid: host-compute-in-forward
        w = np.tanh(x.tolist())
        return _host_relu(y) + torch.as_tensor(z, device=x.device) + torch.as_tensor(w, device=x.device)
