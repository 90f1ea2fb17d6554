"""T19: a submission with no harness entry: no ModelNew, no Model, no custom_kernel, no solve. It
defines a function the harness will never find. The gate cannot judge it, so it is unjudged, never
a pass (a forgotten rename and an attempt to dodge a KernelBench-only gate look the same)."""
import torch
import torch.nn.functional as F


# ruleid: entry-not-found
def model_forward(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return F.linear(x, weight)
