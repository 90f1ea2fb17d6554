# Fixture for imports-reference: the reference, the task file and the harness.
import importlib
import importlib.util
import math
import runpy

import torch
import torch.nn as nn
import torch.nn.functional as F
# ruleid: imports-reference
from reference import Model
# ruleid: imports-reference
import kernelbench.level1 as kb_level1
# ruleid: imports-reference
from __main__ import get_inputs
# ruleid: imports-reference
from src.eval import eval_kernel_against_ref
# ok: imports-reference
from torch.utils.cpp_extension import load_inline
# ok: imports-reference
import triton.language as tl

# ruleid: imports-reference
REF_GLOBALS = runpy.run_path("level1/1_Square_matrix_multiplication_.py")
# ruleid: imports-reference
SPEC = importlib.util.spec_from_file_location("ref_model", "/data/ref_model.py")
# ok: imports-reference
NATIVE_SPEC = importlib.util.spec_from_file_location("fast", "/tmp/fast.so")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: imports-reference
        self.task = importlib.import_module("level1.matmul")

    def forward(self, a, b):
        return torch.empty_like(a) * math.pi


def get_inputs():
    # The harness never calls the submission's input generator (it uses the reference's): handing it
    # to the reference beside the file, for a local run, loads nothing on the entry's path.
    # ok: imports-reference
    from reference import get_inputs as reference_inputs

    return reference_inputs()


def get_init_inputs():
    # ok: imports-reference
    import reference

    return [reference.ROWS]


def helper_the_entry_never_calls():
    # Outside an input generator an import of the reference is a finding wherever it sits.
    # ruleid: imports-reference
    from reference import get_inputs as reference_inputs

    return reference_inputs()
