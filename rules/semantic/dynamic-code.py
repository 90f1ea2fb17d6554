# Fixture for dynamic-code: exec, eval, compile and hand-built functions.
import ast
import builtins
import marshal
import re
import types

import torch
import torch.nn as nn

SRC = "def helper(x):\n    return x\n"
# ruleid: dynamic-code
exec(SRC)
# ruleid: dynamic-code
CODE = compile(SRC, "<hidden>", "exec")
# ruleid: dynamic-code
FN = types.FunctionType(CODE, {})
# ruleid: dynamic-code
BLOB = marshal.loads(marshal.dumps(CODE))
# ok: dynamic-code
PATTERN = re.compile(r"\d+")
# ok: dynamic-code
CONFIG = ast.literal_eval("{'block': 128}")


class ModelNew(nn.Module):
    def forward(self, x):
        # ruleid: dynamic-code
        scale = eval("2 * 3")
        # ruleid: dynamic-code
        getattr(builtins, "ex" + "ec")("pass")
        return torch.empty_like(x) * scale
