"""The compile cache's Python half. In the judge: the toolchain fingerprint, the cache key and the child
process that builds. Run as a script (the child): builds one load_inline/load request into a directory
WITHOUT importing it, so the candidate's code never runs outside the worker's sandbox."""
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys


def toolchain_fingerprint():
    import torch

    parts = [f"torch {torch.__version__} cuda {torch.version.cuda}", f"python {sys.version}", platform.machine()]
    cuda_home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    for tool in (os.path.join(cuda_home, "bin", "nvcc"), shutil.which(os.environ.get("CXX", "c++")) or "c++"):
        try:
            parts.append(subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60).stdout)
        except OSError:
            parts.append(f"{tool}: absent")
    return "\n".join(parts)


def cache_key(request_json, toolchain):
    request = json.loads(request_json)
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((canonical + "\0" + toolchain).encode()).hexdigest()


def build_in_child(python, request_json, build_dir):
    """Returns (ok, log tail)."""
    proc = subprocess.run([python, os.path.abspath(__file__), build_dir], input=request_json, capture_output=True,
                          text=True, timeout=1800)
    log = (proc.stdout + proc.stderr)[-4000:]
    with open(os.path.join(build_dir, "build.log"), "w", encoding="utf-8") as f:
        f.write(proc.stdout + proc.stderr)
    return proc.returncode == 0, log


def _build(build_dir, request):
    import torch.utils.cpp_extension as cpp_extension

    # Build only: load_inline/load end by importing the module, which would run the candidate's static
    # initialisers here, outside the sandbox. The worker imports the .so itself.
    cpp_extension._import_module_from_library = lambda *args, **kwargs: None
    common = dict(extra_cflags=request.get("extra_cflags") or None, extra_cuda_cflags=request.get("extra_cuda_cflags") or None,
                  extra_ldflags=request.get("extra_ldflags") or None,
                  extra_include_paths=request.get("extra_include_paths") or None, build_directory=build_dir,
                  with_cuda=request.get("with_cuda"), verbose=True)
    if request["kind"] == "load_inline":
        cpp_extension.load_inline(name=request["name"], cpp_sources=request["cpp_sources"],
                                  cuda_sources=request.get("cuda_sources") or None,
                                  functions=request.get("functions") or None,
                                  with_pytorch_error_handling=request.get("with_pytorch_error_handling", True), **common)
    else:
        source_dir = os.path.join(build_dir, "sources")
        os.makedirs(source_dir, exist_ok=True)
        paths = []
        for name, text in request["sources"].items():
            if os.path.basename(name) != name or name in (".", ".."):
                raise ValueError(f"source name {name!r} is not a plain file name")
            path = os.path.join(source_dir, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            paths.append(path)
        cpp_extension.load(name=request["name"], sources=paths, **common)


if __name__ == "__main__":
    _build(sys.argv[1], json.loads(sys.stdin.read()))
