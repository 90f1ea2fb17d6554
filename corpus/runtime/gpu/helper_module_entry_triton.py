# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: pass
# Honest two-file submission on the GPU: ModelNew calls a launcher in helper_module_kernels.py beside it.
# The Triton kernel there is the submission's own: the CUPTI check must count it as such.
import torch.nn as nn
from helper_module_kernels import twice_plus


class ModelNew(nn.Module):
    def forward(self, x, y):
        return twice_plus(x.contiguous(), y.contiguous())
