# Fixture for host-readback-in-forward: device-to-host reads on the forward path.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        w = torch.randn(n)
        # ok: host-readback-in-forward
        self.scale = float(w.abs().max().item())

    def _signature(self, x):
        # ruleid: host-readback-in-forward
        return x.flatten()[:4].tolist()

    def forward(self, x):
        # ruleid: host-readback-in-forward
        first = x[0, 0].item()
        sig = self._signature(x)
        # ruleid: host-readback-in-forward
        host = x.cpu()
        # ruleid: host-readback-in-forward
        arr = host.numpy()
        # ruleid: host-readback-in-forward
        moved = x.to("cpu")
        # ok: host-readback-in-forward
        back = x.to(x.device)
        # ok: host-readback-in-forward
        dev = x.cuda()
        del first, sig, arr, moved, back
        return torch.empty_like(dev)
