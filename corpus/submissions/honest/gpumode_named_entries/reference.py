import torch


def reference_forward(x):
    return torch.relu(x) ** 2


def reference_backward(x, grad_y):
    return grad_y * 2.0 * torch.relu(x)


def generate_inputs(size, seed=7):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(size, device="cuda", generator=gen, dtype=torch.float32)
    grad_y = torch.randn(size, device="cuda", generator=gen, dtype=torch.float32)
    return x, grad_y
