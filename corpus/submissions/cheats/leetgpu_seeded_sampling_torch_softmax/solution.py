"""Cheat (F1, LeetGPU): seeds exactly as the task does, so the draw itself is the task's, but the
softmax that is the computation is PyTorch's. The seeded draw excuses the draw, nothing else."""
import torch


def solve(logits: torch.Tensor, seed: torch.Tensor, token: torch.Tensor, vocab_size: int):
    seed_value = seed.item()
    torch.manual_seed(seed_value)
    token.copy_(torch.multinomial(torch.softmax(logits, dim=0), 1))
