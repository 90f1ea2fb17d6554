# Embedding lookup: gather rows of a [V, D] table at int64 indices [B, L].
import torch
import torch.nn as nn

V = 4096
D = 256
B = 8
L = 128


class Model(nn.Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.table = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, idx):
        return self.table(idx)


def get_inputs():
    return [torch.randint(0, V, (B, L), dtype=torch.int64)]


def get_init_inputs():
    return [V, D]
