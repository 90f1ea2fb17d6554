# Fixture for suppression-missing-reason: markers with and without a reason.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, a, b):
        # ruleid: suppression-missing-reason
        y = torch.matmul(a, b)  # kgate: ignore[torch-function-in-forward]
        # ruleid: suppression-missing-reason
        # kgate: ignore-next-line[tensor-method-in-forward]
        y = y.relu()
        # ruleid: suppression-missing-reason
        y = torch.mm(y, b).sigmoid()  # kgate: ignore[torch-function-in-forward,tensor-method-in-forward]
        # ok: suppression-missing-reason
        y = torch.mm(y, b)  # kgate: ignore[torch-function-in-forward] fp64 reference path kept for debugging
        # ok: suppression-missing-reason
        # kgate: ignore-next-line[tensor-method-in-forward] the task policy allows this epilogue
        y = y.sigmoid()
        return y
