# A bare KernelBench-style task with a degenerate reference (after KernelBench's conv -> group norm ->
# mean problems): a layer norm without affine step averaged over the normalised dimension is zero (plus
# rounding) whatever x is, so the output is the offset parameter for every input, whatever values the
# judge redraws the parameters to.
import torch
import torch.nn as nn

batch_size = 64
in_features = 96
hidden = 128


class Model(nn.Module):
    def __init__(self, in_features, hidden):
        super().__init__()
        self.linear = nn.Linear(in_features, hidden)
        self.norm = nn.LayerNorm(hidden, elementwise_affine=False)
        self.offset = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return self.norm(self.linear(x)).mean(dim=-1) + self.offset


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, hidden]
