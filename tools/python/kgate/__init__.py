"""KernelGate in Python.

The static gate runs in process (``kgate.check``, ``kgate.Gate``: the compiled ``kgate._core``); the
runtime stage runs in a long-lived judge process (``kgate.Verifier``, ``kgate.verify``), and
``kgate.ray`` spreads verifiers over a Ray cluster (imported on its own: it needs ``ray``).
"""
from kgate._core import Finding, Gate, Result, __version__, check, clang_engine
from kgate.verifier import VerifyError, Verifier, VerifyResult, verify

__all__ = [
    "Finding",
    "Gate",
    "Result",
    "VerifyError",
    "VerifyResult",
    "Verifier",
    "__version__",
    "check",
    "clang_engine",
    "verify",
]
