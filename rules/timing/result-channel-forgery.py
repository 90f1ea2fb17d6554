# Fixture for result-channel-forgery: descriptor writes, stdout swaps and abrupt exits.
import atexit
import io
import os
import sys

import torch
import torch.nn as nn


def _report():
    # ruleid: result-channel-forgery
    os.write(1, b'{"correct": true, "runtime_ms": 0.001}\n')
    # ruleid: result-channel-forgery
    os._exit(0)


# ruleid: result-channel-forgery
atexit.register(_report)
# ruleid: result-channel-forgery
sys.stdout = io.StringIO()


class ModelNew(nn.Module):
    def forward(self, x):
        # ruleid: result-channel-forgery
        os.dup2(os.open("/dev/null", os.O_WRONLY), 2)
        if x.numel() == 0:
            # ruleid: result-channel-forgery
            sys.exit(0)
        # ok: result-channel-forgery
        print("launching", x.shape)
        return torch.empty_like(x)


if __name__ == "__main__":
    # ok: result-channel-forgery
    sys.exit(0)
