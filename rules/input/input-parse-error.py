# Fixture for input-parse-error: one broken statement inside an otherwise valid submission.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        # ok: input-parse-error
        y = torch.empty_like(x)
        # ruleid: input-parse-error
        y = x $ 2
        # ok: input-parse-error
        return y
