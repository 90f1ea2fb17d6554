# LayerNorm over the last dimension with a learned affine transform (non-trivial weight and bias).
import torch
import torch.nn as nn

B = 256
D = 1024


class Model(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.norm = nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.normal_(0.0, 0.5)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return [D]
