"""F10, evasive: the GPU MODE entry is imported straight from torch under the harness's name
(`from torch.nn.functional import relu as custom_kernel`). The file has no function of its own and no
assignment to custom_kernel: only the import binds it. The harness calls torch's ReLU."""
import torch
# ruleid: entry-class-replaced
from torch.nn.functional import relu as custom_kernel
from task import input_t, output_t

BLOCK = 1024
