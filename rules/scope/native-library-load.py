# Fixture for native-library-load: binaries loaded around load_inline.
import ctypes
import importlib.util
from ctypes import cdll

import cffi
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# ruleid: native-library-load
LIBCUDA = ctypes.CDLL("libcuda.so.1")
# ruleid: native-library-load
LIBC = cdll.LoadLibrary("libc.so.6")
# ruleid: native-library-load
torch.ops.load_library("/tmp/prebuilt_ops.so")
# ruleid: native-library-load
SPEC = importlib.util.spec_from_file_location("fast_ops", "/tmp/fast_ops.so")
# ok: native-library-load
REF_SPEC = importlib.util.spec_from_file_location("helpers", "helpers_module.py")
# ok: native-library-load
ext = load_inline(name="k", cpp_sources="int f() { return 1; }", functions=["f"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: native-library-load
        self.ffi = cffi.FFI()

    def forward(self, x):
        # ruleid: native-library-load
        ctypes.memmove(x.data_ptr(), x.data_ptr(), 0)
        # ok: native-library-load
        n = ctypes.c_int(x.numel())
        # ok: native-library-load
        ptr = ctypes.c_void_p(x.data_ptr())
        # ruleid: native-library-load
        ctypes.c_void_p.from_address(ptr.value).value = n.value
        # ok: native-library-load
        return torch.empty_like(x)
