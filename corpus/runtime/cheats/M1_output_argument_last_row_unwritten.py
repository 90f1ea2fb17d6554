# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail nan-mismatch
"""M1 (output-argument harness): writes every row of the output buffer but the last; the buffer the
harness hands over is filled with NaN, so the row left as it was shows."""
import torch


def solve(x: torch.Tensor, y: torch.Tensor, output: torch.Tensor, B: int, D: int) -> None:
    output[: B - 1] = 2.0 * x[: B - 1] + y[: B - 1]
