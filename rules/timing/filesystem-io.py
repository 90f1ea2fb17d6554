# Fixture for filesystem-io: files, pickles, temp dirs and shared memory.
import mmap
import os
import pathlib
import pickle
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# ruleid: filesystem-io
CACHE_DIR = "/dev/shm/kb_cache"
# ok: filesystem-io
BUILD_DIR = "/tmp/torch_extensions"
# ok: filesystem-io
ext = load_inline(name="noop", cpp_sources="int f() { return 0; }", functions=["f"], build_directory=BUILD_DIR)



def _write_source(path):
    # A build helper writing a source for load(): a warning, off the entry's path.
    # ruleid: filesystem-io
    with open(path, "w") as fh:
        fh.write("// kernel source")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: filesystem-io
        self.bank = torch.load("answers.pt")
        # ruleid: filesystem-io
        self.table = np.load("table.npy")
        # A temp directory made at construction: a warning here; what forward stores in it is the error.
        # ruleid: filesystem-io
        self.tmp = tempfile.mkdtemp()

    def forward(self, x):
        out = torch.empty_like(x)
        # ruleid: filesystem-io
        torch.save(out, os.path.join(self.tmp, "out.pt"))
        # ruleid: filesystem-io
        with open(os.path.join(CACHE_DIR, "meta.pkl"), "rb") as fh:
            # ruleid: filesystem-io
            meta = pickle.load(fh)
        # ruleid: filesystem-io
        names = os.listdir(self.tmp)
        # ruleid: filesystem-io
        raw = pathlib.Path(self.tmp).read_bytes()
        # ruleid: filesystem-io
        region = mmap.mmap(-1, 4096)
        # ok: filesystem-io
        joined = os.path.join("a", "b")
        del meta, names, raw, region, joined
        return out
