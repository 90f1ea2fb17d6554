# Fixture for write-python-module: creating importable modules and editing the import path.
import os
import pathlib
import shutil
import sys

import torch
import torch.nn as nn

PATCH = "import torch\n"

# ruleid: write-python-module
with open("torch.py", "w") as fh:
    fh.write(PATCH)
# ruleid: write-python-module
shutil.move("/tmp/payload.txt", "/tmp/site/sitecustomize.py")
# ruleid: write-python-module
pathlib.Path("numpy.py").write_text(PATCH)
# ruleid: write-python-module
shutil.copy("/tmp/payload.txt", "/tmp/site/zz_hook.pth")
# ruleid: write-python-module
sys.path.insert(0, "/tmp/site")
# ruleid: write-python-module
sys.path = ["/tmp/site"] + sys.path
# ok: write-python-module
REF_PATH = os.path.join(os.path.dirname(__file__), "reference.py")
# ok: write-python-module
with open("results.txt", "w") as fh:
    fh.write("0")


class ModelNew(nn.Module):
    def forward(self, x):
        # ruleid: write-python-module
        sys.meta_path.append(None)
        # ok: write-python-module
        found = "torch" in sys.modules
        return x if found else torch.empty_like(x)
