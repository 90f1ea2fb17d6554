"""Helpers the luma task's reference imports, staged beside the submission as task.yml lists."""
import torch

LUMA = (0.299, 0.587, 0.114)


def luma_weights(device, dtype):
    return torch.tensor(LUMA, device=device, dtype=dtype)
