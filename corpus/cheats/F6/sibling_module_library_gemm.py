"""F6 through a module the harness builds from a sibling file: `import tiled_gemm_prebuilt` names a
"tiled GEMM", but the sibling's exported function (sibling_module_gemm.cu) only calls at::matmul, so a
library kernel does the work. The import is followed into the sibling like a load() call."""
import torch
import torch.nn as nn

# ruleid: cpp-library-call
import tiled_gemm_prebuilt


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        # ruleid: extension-function-missing
        return tiled_gemm_prebuilt.tiled_gemm(a.contiguous(), b.contiguous())
