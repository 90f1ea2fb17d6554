# Fixture for introspection: frames, the garbage collector, sys.modules and namespaces.
import gc
import inspect
import sys

import torch
import torch.nn as nn

# ok: introspection
PY_VERSION = sys.version_info


def _find_reference_output(shape):
    # ruleid: introspection
    for obj in gc.get_objects():
        if torch.is_tensor(obj) and obj.shape == shape:
            return obj
    return None


class ModelNew(nn.Module):
    def forward(self, x):
        found = _find_reference_output(x.shape)
        # ruleid: introspection
        caller = sys._getframe(1)
        # ruleid: introspection
        outer = caller.f_back
        # ruleid: introspection
        names = outer.f_locals
        # ruleid: introspection
        main = sys.modules["__main__"]
        # ruleid: introspection
        hidden = [v for v in sys._getframe(2).f_globals.values() if torch.is_tensor(v)]
        # ruleid: introspection
        frames = inspect.stack()
        # ruleid: introspection
        space = globals()
        # ok: introspection
        sig = inspect.signature(self.forward)
        # ok: introspection
        is_cls = inspect.isclass(type(x))
        del found, names, main, hidden, frames, space, sig, is_cls
        return torch.empty_like(x)
