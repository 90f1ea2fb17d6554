# Fixture for suppression-unknown-rule: markers naming ids that are not rules.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, a, b):
        # ruleid: suppression-unknown-rule
        y = torch.matmul(a, b)  # kgate: ignore[torch-functions-in-forward] misspelled id
        # ruleid: suppression-unknown-rule
        # kgate: ignore-next-line[no-such-rule] invented id
        y = y.relu()
        # ruleid: suppression-unknown-rule
        y = torch.mm(y, b)  # kgate: ignore[torch-function-in-forward, fallback] one known, one unknown
        # ruleid: suppression-unknown-rule
        y = y.exp()  # kgate: ignore the epilogue for now
        # ruleid: suppression-unknown-rule
        y = y.exp()  # kgate: ignore[] nothing named
        # ok: suppression-unknown-rule
        y = torch.mm(y, b)  # kgate: ignore[torch-function-in-forward] fp64 reference path kept for debugging
        # ok: suppression-unknown-rule
        # kgate: ignore-next-line[tensor-method-in-forward,host-readback-in-forward] scalar epilogue
        y = y.sigmoid()
        return y
