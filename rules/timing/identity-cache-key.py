# Fixture for identity-cache-key: identity, pointer and version keys, and memoised helpers.
import ctypes
import functools

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline


@functools.lru_cache(maxsize=None)
# ruleid: identity-cache-key
def _cached_result(key):
    return key


@functools.lru_cache(maxsize=None)
# ok: identity-cache-key
def _offline_table(n):
    return n * 2


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: identity-cache-key
        self.tag = id(self)
        self.seen = {}
        self.weight = nn.Parameter(torch.ones(4))
        self.graphed = GraphPerInput()

    def forward(self, x):
        # ruleid: identity-cache-key
        key = id(x)
        # ruleid: identity-cache-key
        ptr = x.data_ptr()
        # ruleid: identity-cache-key
        version = x._version
        # ruleid: identity-cache-key
        fingerprint = hash((tuple(x.shape), str(x.dtype)))
        # ruleid: identity-cache-key
        storage = x.untyped_storage()
        # ok: identity-cache-key
        n, s0 = x.numel(), x.stride(0)
        w = self.weight
        # Weight packing keyed on the parameter's own pointer and version.
        # ok: identity-cache-key
        wkey = (w.data_ptr(), w._version, self.weight.data_ptr())
        # ruleid: identity-cache-key
        mixed = (w.data_ptr(), x.data_ptr())
        del wkey, mixed
        # The input compared by identity with one the module kept (`is`, `is not`), or with a global.
        # ruleid: identity-cache-key
        if x is self.seen:
            return torch.empty_like(x)
        # ruleid: identity-cache-key
        if _LAST is not x:
            pass
        # Identity against None, between the inputs themselves, or between two pieces of state: no key.
        # ok: identity-cache-key
        if self.tag is None or x is not None or x is x.view(-1) or self.seen is self.weight:
            pass
        _cached_result(n)
        _copy_through_pointers(x)
        self.graphed(x)
        del key, ptr, version, fingerprint, storage, s0
        return torch.empty_like(x)


_ext = load_inline(name="copy_ext", cpp_sources="void copy_raw(int64_t src, int64_t dst, int64_t n);",
                   cuda_sources="void copy_raw(int64_t src, int64_t dst, int64_t n) {}", functions=["copy_raw"])


def _copy_through_pointers(x):
    y = torch.empty_like(x)
    # ok: identity-cache-key
    _ext.copy_raw(x.data_ptr(), y.data_ptr(), x.numel())
    # ruleid: identity-cache-key
    cache_key = (x.data_ptr(), y.data_ptr())
    del cache_key
    lib = ctypes.CDLL("./libcopy.so")
    p = ctypes.c_void_p
    # A pointer handed through ctypes to a library's kernel is the kernel's argument, not a key.
    # ok: identity-cache-key
    lib.copy_raw(p(x.data_ptr()), ctypes.c_void_p(y.data_ptr()), ctypes.c_int64(x.numel()))
    # A pointer table for a grouped kernel: the addresses of several tensors, gathered into a list that
    # becomes the kernel's int64 argument, recognise nothing.
    table = []
    for t in (x, y):
        # ok: identity-cache-key
        table.append((t.data_ptr(), t.numel()))
    ptrs = torch.tensor(table, dtype=torch.int64, device=x.device)
    # ok: identity-cache-key
    inline_ptrs = torch.tensor([x.data_ptr(), y.data_ptr()], dtype=torch.int64)
    _ext.copy_raw(ptrs.data_ptr(), inline_ptrs.data_ptr(), 2)
    # The same gathering, but the list is then compared with one kept from an earlier call: a key.
    seen = []
    # ruleid: identity-cache-key
    seen.append(x.data_ptr())
    if seen == _LAST:
        return y
    # ruleid: identity-cache-key
    hit = _RESULTS.get(x.data_ptr())
    # ruleid: identity-cache-key
    same = x.data_ptr() == y.data_ptr()
    # ruleid: identity-cache-key
    _remember(x.data_ptr())
    del hit, same
    return y


_RESULTS = {}
_LAST = []


def _remember(ptr):
    _RESULTS[ptr] = None


class GraphPerInput(nn.Module):
    """A CUDA graph captured on the input itself and recaptured for another tensor: the replay re-reads
    that tensor's memory, so the identity test is the graph's key, not a result cache's."""

    def __init__(self):
        super().__init__()
        self._graph = None
        self._captured_for = None
        self._out = None

    def forward(self, x):
        # ok: identity-cache-key
        if self._graph is None or x is not self._captured_for:
            self._out = torch.empty_like(x)
            self._graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self._graph):
                _ext.copy_raw(x, self._out, x.numel())
            self._captured_for = x
        self._graph.replay()
        return self._out.clone()
