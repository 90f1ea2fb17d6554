# Fixture for dynamic-lookup-unresolved: lookups and imports whose names cannot be folded.
import importlib

import torch
import torch.nn as nn
import torch.nn.functional as F


def _patch(obj, attr_name, value):
    # ruleid: dynamic-lookup-unresolved
    setattr(obj, attr_name, value)


def _identity(v):
    return v


_OWN = {"id": _identity}


class _Ops:
    # Followed for the name read: a branch that compares it with a constant, else a lookup by name.
    def __getattr__(self, name):
        if name == "ident":
            return _identity
        return getattr(torch, name)


class ModelNew(nn.Module):
    def forward(self, x, op, mod_name, attr_name):
        # ruleid: dynamic-lookup-unresolved
        y = getattr(torch, op)(x, x)
        # ruleid: dynamic-lookup-unresolved
        y = getattr(F, op + "_fn")(y)
        # ruleid: dynamic-lookup-unresolved
        y = torch.__dict__[op](y)
        # ruleid: dynamic-lookup-unresolved
        helper = importlib.import_module(mod_name)
        _patch(helper, attr_name, y)
        # A call of a value that holds nothing the gate can name (an attribute never assigned).
        # ruleid: dynamic-lookup-unresolved
        y = self.table[op](y)
        # A table of functions of this file, picked by key: they run.
        # ok: dynamic-lookup-unresolved
        y = _OWN[op](y)
        ops = _Ops()
        # ok: dynamic-lookup-unresolved
        y = ops.ident(y)
        # ruleid: dynamic-lookup-unresolved
        y = ops.softmax(y)
        # ok: dynamic-lookup-unresolved
        math_mod = importlib.import_module("math")
        # ok: dynamic-lookup-unresolved
        y = getattr(torch, "matmul")(y, y)
        return y * math_mod.pi
