# runtime-task: corpus/runtime/tasks/row_stats.py
# runtime-expect: fail nan-mismatch
# runtime-expect-message: output[1]
"""M1 (output-argument harness, two outputs): fills the first buffer and leaves the second as the harness
handed it over, counting on a checker that compares only the first output; the NaN it holds shows."""
import torch


def solve(x: torch.Tensor, mean: torch.Tensor, amax: torch.Tensor, batch: int, dim: int) -> None:
    torch.mean(x[:batch, :dim], dim=-1, out=mean)
