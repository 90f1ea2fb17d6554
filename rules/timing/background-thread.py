# Fixture for background-thread: threads, processes, executors and timers that outlive forward.
import _thread
import multiprocessing as mp
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn as nn


def _fill(out, x):
    out.copy_(x)


# ruleid: background-thread
class Filler(threading.Thread):
    def run(self):
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: background-thread
        self.pool = ThreadPoolExecutor(max_workers=1)
        # ok: background-thread
        self.lock = threading.Lock()

    def forward(self, x):
        out = torch.empty_like(x)
        # ruleid: background-thread
        worker = threading.Thread(target=_fill, args=(out, x))
        # ruleid: background-thread
        timer = threading.Timer(0.001, _fill, args=(out, x))
        # ruleid: background-thread
        proc = mp.Process(target=_fill, args=(out, x))
        # ruleid: background-thread
        _thread.start_new_thread(_fill, (out, x))
        # ruleid: background-thread
        pid = os.fork()
        # ok: background-thread
        ident = threading.get_ident()
        del worker, timer, proc, pid, ident
        return out
