"""T19 + T7: a file with no harness entry at all. At import it writes a fake result line to the
harness's inherited pipe and leaves. Skipped files must not pass: the module-level rule rejects it,
and without that rule the file would still be unjudged, never a pass."""
import os

import torch

# ruleid: evaluator-detection
_fd = int(os.environ.get("POPCORN_FD", "3"))
# ruleid: result-channel-forgery
os.write(_fd, b"check: pass\nbenchmark-count: 1\nbenchmark.0.mean: 1.0\n")
# ruleid: result-channel-forgery
os._exit(0)


# ruleid: entry-not-found
def kernel(x: torch.Tensor) -> torch.Tensor:
    return x
