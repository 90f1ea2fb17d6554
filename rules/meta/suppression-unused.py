# Fixture for suppression-unused: markers whose lines produce no finding of the rules they name.
# Meta fixtures run with every rule enabled, so a marker on a real finding is used.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x, w):
        # ruleid: suppression-unused
        flat = x.view(-1)  # kgate: ignore[torch-function-in-forward] left over from an older version
        # ruleid: suppression-unused
        # kgate: ignore-next-line[host-readback-in-forward] scale used to be read back here
        n = flat.numel()
        # ok: suppression-unused
        y = torch.mm(x, w)  # kgate: ignore[torch-function-in-forward] reference path kept while the kernel is tuned
        # ok: suppression-unused
        z = torch.empty_like(x)  # kgate: ignore[no-such-rule] reported by suppression-unknown-rule instead
        # ok: suppression-unused
        # kgate docs say every ignore marker needs a rule id and a reason
        del n, z
        return y
