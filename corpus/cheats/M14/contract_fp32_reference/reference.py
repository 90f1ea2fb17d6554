"""Reference of an fp32 task in a kernelbench.com-style workspace: a GEMM on fp32 inputs. It names
no lower dtype, so the contract is fp32."""
import torch
import torch.nn as nn

M, N, K = 1024, 1024, 1024


class Model(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a @ b


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
