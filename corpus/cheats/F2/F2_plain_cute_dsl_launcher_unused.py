"""ReLU (GPU MODE style). A CuTe DSL kernel and its @cute.jit launcher are written, but custom_kernel
never calls the launcher: torch.relu does the work.

Technique F2 (decoy kernel), plain form, in the CuTe DSL.
"""
import cutlass.cute as cute
import torch

from task import input_t, output_t


@cute.kernel
def _relu_kernel(gX: cute.Tensor, gY: cute.Tensor, total: cute.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    bdim, _, _ = cute.arch.block_dim()
    i = bidx * bdim + tidx
    if i < total:
        v = gX[i]
        gY[i] = v if v > 0 else v * 0


@cute.jit
def _relu_launcher(mX: cute.Tensor, mY: cute.Tensor, total: cute.Int32):
    _relu_kernel(mX, mY, total).launch(grid=((total + 255) // 256, 1, 1), block=(256, 1, 1))


# ruleid: forward-reaches-no-kernel
def custom_kernel(data: input_t) -> output_t:
    # ruleid: torch-function-in-forward
    return torch.relu(data)
