#!/usr/bin/env python3
# GPU machine only: does CUPTI activity tracing, as kgate-worker enables it, add overhead to a call's
# event timing? Times a 1M-element relu (flush, sync, start event, op, stream event, sync, device event)
# without CUPTI, with the activity kinds enabled, and with a forced cuptiActivityFlushAll around each
# call. On an H100 (2026-11-24): 32 us without CUPTI, 33-41 us with it, ~670 us with a forced flush
# before the call, which is why the worker never flushes between a call's preparation and its start.
# Usage: python3 tests/bench/cupti_flush_cost.py [libcupti.so path]
import ctypes, statistics, sys, glob
import torch
BUF = 4 << 20
x = torch.randn(1 << 20, device="cuda")
flush = torch.empty(100 << 20, dtype=torch.uint8, device="cuda")
cupti = None

def once(drain):
    flush.fill_(1)
    torch.cuda.synchronize()
    if drain and cupti: cupti.cuptiActivityFlushAll(1)
    s = torch.cuda.Event(enable_timing=True); m = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); y = torch.relu(x); m.record(); torch.cuda.synchronize(); e.record(); e.synchronize()
    if drain and cupti: cupti.cuptiActivityFlushAll(1)
    return s.elapsed_time(m) * 1e3, s.elapsed_time(e) * 1e3

def med(label, drain=False, n=60):
    for _ in range(5): once(drain)
    r = [once(drain) for _ in range(n)]
    print("%-40s stream %.1f us  synced %.1f us" % (label, statistics.median(a for a, _ in r), statistics.median(b for _, b in r)))

med("no CUPTI")
path = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda/lib64/libcupti.so"
cupti = ctypes.CDLL(path)
bufs = {}
REQ = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t))
COMP = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
def req(buf, size, maxr):
    b = ctypes.create_string_buffer(BUF); bufs[ctypes.addressof(b)] = b
    buf[0] = ctypes.addressof(b); size[0] = BUF; maxr[0] = 0
def comp(ctx, sid, buf, size, valid):
    bufs.pop(buf, None)
r = REQ(req); c = COMP(comp)
print("register", cupti.cuptiActivityRegisterCallbacks(r, c))
for kind in (10,):
    print("enable", kind, cupti.cuptiActivityEnable(kind))
med("CUPTI concurrent kernel")
med("CUPTI concurrent kernel + flush per call", drain=True)
for kind in (1, 2):
    print("enable", kind, cupti.cuptiActivityEnable(kind))
med("CUPTI kernel+memcpy+memset")
med("CUPTI kernel+memcpy+memset + flush per call", drain=True)
for kind in (10, 1, 2):
    cupti.cuptiActivityDisable(kind)
med("CUPTI disabled again")
