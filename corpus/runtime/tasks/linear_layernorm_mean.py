# A bare KernelBench-style task with a degenerate reference (after KernelBench's conv -> group norm ->
# mean problems): a layer norm's output averaged over the normalised dimension is the mean of its bias
# (plus rounding) whatever x is, so "return zeros" matches the output at its default initialisation.
import torch
import torch.nn as nn

batch_size = 64
in_features = 96
hidden = 128


class Model(nn.Module):
    def __init__(self, in_features, hidden):
        super().__init__()
        self.linear = nn.Linear(in_features, hidden)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x):
        return self.norm(self.linear(x)).mean(dim=-1)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, hidden]
