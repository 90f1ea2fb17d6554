# Fixture for inheritance-bypass: ModelNew deriving from the reference, a library module, or aliased.
# The same name is rebound several times so that one file shows every form.
import torch
import torch.nn as nn


# ok: inheritance-bypass
class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


# ruleid: inheritance-bypass
class ModelNew(Model):
    pass


# ruleid: inheritance-bypass
ModelNew = Model


# ruleid: inheritance-bypass
class ModelNew(nn.Linear):
    pass


# ruleid: inheritance-bypass
class ModelNew(nn.Module, Model):
    pass


# ok: inheritance-bypass
class Wrapper(Model):
    pass


# ok: inheritance-bypass
class ModelNew(nn.Module):
    def forward(self, a, b):
        return a
