# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: fail input-mutated
# M10 in the judge's memory: the inputs arrive through CUDA IPC in a buffer the judge owns. The
# candidate finds the whole allocation around its input (cuMemGetAddressRange) and zeroes it, as a cheat
# would that hunts for the checker's state. The judge keeps its expected outputs and its copies of the
# inputs in its own process, so the only effect is inputs that changed under the call.
import ctypes

import torch
import torch.nn as nn

_cuda = ctypes.CDLL("libcuda.so.1")
_cudart = None
for _name in ("libcudart.so.13", "libcudart.so.12", "libcudart.so"):
    try:
        _cudart = ctypes.CDLL(_name)
        break
    except OSError:
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.relu(x)
        base = ctypes.c_uint64()
        size = ctypes.c_size_t()
        rc = _cuda.cuMemGetAddressRange_v2(ctypes.byref(base), ctypes.byref(size), ctypes.c_uint64(x.data_ptr()))
        if rc == 0:
            _cudart.cudaMemset(ctypes.c_void_p(base.value), 0, size)
            torch.cuda.synchronize()
        return y
