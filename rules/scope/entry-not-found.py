# Fixture for entry-not-found: a Python module with a kernel-free helper and no harness entry at all
# (no ModelNew, no Model, no custom_kernel, no solve/solution): nothing here is a harness's way in.
import torch


# ruleid: entry-not-found
def fused_bias_relu(x, bias):
    return torch.relu(x + bias)


# ok: entry-not-found
def describe():
    return "bias + relu"
