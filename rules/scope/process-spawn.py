# Fixture for process-spawn: shells, subprocesses and pip, anywhere in the file.
import importlib
import os
import pty
import subprocess
import subprocess as sp
from os import popen

import pip
import torch
import torch.nn as nn

# ruleid: process-spawn
subprocess.run(["nvidia-smi"], check=False)
# ok: process-spawn
BUILD_DIR = os.path.join(os.getcwd(), "build")


def _install():
    # ruleid: process-spawn
    pip.main(["install", "torch==2.0.0"])
    # ruleid: process-spawn
    os.execv("/bin/sh", ["sh", "-c", "true"])
    # ruleid: process-spawn
    pty.spawn("/bin/sh")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: process-spawn
        os.system("nvcc -o /tmp/k.so k.cu")
        # ruleid: process-spawn
        self.proc = sp.Popen(["python", "-c", "pass"])
        # ruleid: process-spawn
        self.out = popen("ls").read()
        # ruleid: process-spawn
        importlib.import_module("subprocess").check_output(["true"])
        # ruleid: process-spawn
        getattr(os, "sys" + "tem")("true")
        # ok: process-spawn
        self.pid = os.getpid()

    def forward(self, x):
        return torch.empty_like(x)
