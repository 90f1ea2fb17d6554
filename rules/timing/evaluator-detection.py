# Fixture for evaluator-detection: reading argv, the environment and the tracer.
import os
import sys
from os import environ as env

import torch
import torch.nn as nn

# ok: evaluator-detection
os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0"
# ruleid: evaluator-detection
JUDGED = len(sys.argv) > 1
# ok: evaluator-detection
PY_OK = sys.version_info >= (3, 9)
# A tuning knob with a default, read at import.
# ok: evaluator-detection
BLOCK = int(os.getenv("KGATE_FIXTURE_BLOCK", "128"))
# A harness's own variable is detection even with a default (GPU MODE's result pipe).
# ruleid: evaluator-detection
RESULT_FD = int(os.environ.get("POPCORN_FD", "3"))
# Without a default it is no knob: the variable's presence alone selects the behaviour.
# ruleid: evaluator-detection
SECRET = os.environ.get("EVAL_SECRET")

# A knob without a default, read at import: a warning (the gate does not follow the value).
# ruleid: evaluator-detection
VERBOSE = os.environ.get("KGATE_FIXTURE_VERBOSE") == "1"
# ruleid: evaluator-detection
NO_GRAPH = "KGATE_FIXTURE_NO_GRAPH" in os.environ


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: evaluator-detection
        self.warps = int(os.environ.get("KGATE_FIXTURE_WARPS", "4"))

    def forward(self, x):
        # A CUDA-graph capture guard is no detection of the harness.
        # ok: evaluator-detection
        capturing = torch.cuda.is_current_stream_capturing()
        # On the entry's path even a read with a default selects the computation.
        # ruleid: evaluator-detection
        fast = os.environ.get("FAST_PATH", "0")
        # ruleid: evaluator-detection
        if "KERNELBENCH_EVAL" in os.environ:
            return torch.empty_like(x)
        # ruleid: evaluator-detection
        mode = os.getenv("EVAL_MODE", "")
        # ruleid: evaluator-detection
        ci = env.get("CI")
        # ruleid: evaluator-detection
        traced = sys.gettrace() is not None
        # ruleid: evaluator-detection
        profiled = sys.getprofile() is not None
        # ok: evaluator-detection
        arch = os.environ.get("TORCH_CUDA_ARCH_LIST")
        # ok: evaluator-detection
        tools = os.environ.get("PATH", "")
        del tools
        del mode, ci, traced, profiled, arch, capturing, fast
        return torch.empty_like(x)
