"""The compile cache's Python half. In the judge: the toolchain fingerprint, the cache key and the child
process that builds. Run as a script (the child): builds one load_inline/load request into a directory
WITHOUT importing it, so the candidate's code never runs outside the worker's sandbox. A LeetGPU CUDA
submission (kind "shared_library") is built with nvcc alone into a library that ctypes loads."""
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
    # UTF-8 both ways, whatever the locale: a source's comments may hold any character (a C locale's ASCII
    # codec would fail the build before it started).
    proc = subprocess.run([python, os.path.abspath(__file__), build_dir], input=request_json, capture_output=True,
                          encoding="utf-8", errors="replace", timeout=1800)
    log = (proc.stdout + proc.stderr)[-4000:]
    with open(os.path.join(build_dir, "build.log"), "w", encoding="utf-8") as f:
        f.write(proc.stdout + proc.stderr)
    return proc.returncode == 0, log


def _write_sources(build_dir, request):
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
    return paths


def _build_shared_library(build_dir, request):
    """A CUDA file built as LeetGPU's harness builds a submission: nvcc -shared, for this GPU's
    architecture, into build_dir/<name>.so; the worker loads it with ctypes."""
    import torch.utils.cpp_extension as cpp_extension

    try:
        arch = cpp_extension._get_cuda_arch_flags()
    except Exception:  # noqa: BLE001 - no GPU to ask and no TORCH_CUDA_ARCH_LIST: nvcc's default
        arch = []
    command = [cpp_extension._join_cuda_home("bin", "nvcc"), "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC",
               *arch, *(request.get("extra_cuda_cflags") or []), "-o",
               os.path.join(build_dir, request["name"] + ".so"), *_write_sources(build_dir, request),
               *(request.get("extra_ldflags") or [])]
    print(" ".join(command), flush=True)
    subprocess.run(command, check=True)
    _record_entry_symbol(build_dir, request["name"])


# A free function solve(...) or solution(...) with C++ linkage: its mangled name's prefix.
_MANGLED_ENTRIES = ("_Z5solve", "_Z8solution")


def _record_entry_symbol(build_dir, name):
    """Writes build_dir/entry.json: the library's exported solve or solution, by C name where it has one,
    else the mangled name of a C++ solve (older LeetGPU starters had no extern "C"), read with nm. The
    worker, which cannot run nm, reads the name there."""
    listing = subprocess.run(["nm", "-D", "--defined-only", os.path.join(build_dir, name + ".so")],
                             capture_output=True, text=True, check=True).stdout
    symbols = [line.split()[-1] for line in listing.splitlines() if len(line.split()) >= 3 and line.split()[1] == "T"]
    entry = next((s for s in ("solve", "solution") if s in symbols), None)
    if entry is None:
        entry = next((s for prefix in _MANGLED_ENTRIES for s in symbols if s.startswith(prefix)), None)
    with open(os.path.join(build_dir, "entry.json"), "w", encoding="utf-8") as f:
        json.dump({"symbol": entry, "linkage": "C" if entry in ("solve", "solution") else "C++" if entry else None}, f)


def _build(build_dir, request):
    import torch.utils.cpp_extension as cpp_extension

    # Build only: load_inline/load end by importing the module, which would run the candidate's static
    # initialisers here, outside the sandbox. The worker imports the .so itself.
    cpp_extension._import_module_from_library = lambda *args, **kwargs: None
    common = dict(extra_cflags=request.get("extra_cflags") or None, extra_cuda_cflags=request.get("extra_cuda_cflags") or None,
                  extra_ldflags=request.get("extra_ldflags") or None,
                  extra_include_paths=request.get("extra_include_paths") or None, build_directory=build_dir,
                  with_cuda=request.get("with_cuda"), verbose=True)
    if request["kind"] == "shared_library":
        _build_shared_library(build_dir, request)
    elif request["kind"] == "load_inline":
        cpp_extension.load_inline(name=request["name"], cpp_sources=request["cpp_sources"],
                                  cuda_sources=request.get("cuda_sources") or None,
                                  functions=request.get("functions") or None,
                                  with_pytorch_error_handling=request.get("with_pytorch_error_handling", True), **common)
    elif request["kind"] == "load":
        cpp_extension.load(name=request["name"], sources=_write_sources(build_dir, request), **common)
    else:
        raise ValueError(f"unknown compile request kind {request['kind']!r}")


if __name__ == "__main__":
    _build(sys.argv[1], json.loads(sys.stdin.buffer.read().decode("utf-8")))
