"""What the judge (reference Model) and the worker (candidate ModelNew) must do identically: the dtype
names of the manifest, and how a built model is moved to the run's device and dtype."""
import torch

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "int8": torch.int8}


def cast_model(model, dtype_name, device):
    """Device first; floating parameters to fp16/bf16 when the run's dtype is one; eval mode."""
    model = model.to(device)
    dtype = DTYPES[dtype_name]
    if dtype.is_floating_point and dtype != torch.float32:
        model = model.to(dtype)
    return model.eval()
