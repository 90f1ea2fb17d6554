# W8A8 matmul: int8 activations with per-token scales times int8 weights with per-output-channel
# scales. y[m, n] = x_scale[m] * w_scale[n] * sum_k x_q[m, k] * w_q[n, k]. The reference accumulates in
# float64, which is exact for these integer products, so it runs on any device.
import torch
import torch.nn as nn

M = 256
N = 512
K = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x_q, x_scale, w_q, w_scale):
        acc = torch.matmul(x_q.to(torch.float64), w_q.to(torch.float64).t())
        return (acc * x_scale.to(torch.float64) * w_scale.to(torch.float64).unsqueeze(0)).to(torch.float32)


def get_inputs():
    x_q = torch.randint(-127, 128, (M, K), dtype=torch.int8)
    w_q = torch.randint(-127, 128, (N, K), dtype=torch.int8)
    x_scale = torch.rand(M, 1) * 0.02 + 0.001
    w_scale = torch.rand(N) * 0.02 + 0.001
    return [x_q, x_scale, w_q, w_scale]


def get_init_inputs():
    return []
