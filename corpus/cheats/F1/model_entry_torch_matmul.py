"""F1 under the model-entry harness: the class keeps the name Model, and forward hands the matmul to
PyTorch. Before harness profiles, a Model file was taken for a task reference and never judged."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    # ruleid: forward-reaches-no-kernel
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        # ruleid: torch-function-in-forward
        return torch.matmul(a, b)
