#!/usr/bin/env bash
# Runs THERE (the GPU machine): prints the facts the runtime's GPU path depends on (GPU, driver, torch,
# Triton and its ptxas, CUPTI's libraries, ncu), so that a failed GPU run can be read against them.
set -u
echo "== GPU"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv 2>&1 | head -3
python="${KGATE_PYTHON:-$(command -v python3)}"
echo "== python: $python"
"$python" - <<'PY'
import os, shutil, torch
print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())
try:
    import triton
    print("triton", triton.__version__, triton.__file__)
    b = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
    print("triton bin:", sorted(os.listdir(b)) if os.path.isdir(b) else "missing")
    from triton import knobs
    try:
        print("ptxas tool:", knobs.nvidia.ptxas.path)
    except Exception as e:
        print("ptxas tool: error", type(e).__name__, e)
except ImportError as e:
    print("no triton", e)
print("TRITON env:", {k: v for k, v in os.environ.items() if k.startswith("TRITON")})
print("which ptxas:", shutil.which("ptxas"), "PATH:", os.environ.get("PATH"))
PY
echo "== CUPTI"; ls /usr/local/cuda/lib64/libcupti* /usr/local/cuda/extras/CUPTI/lib64/libcupti* 2>/dev/null | head
echo "== ncu"; command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -2
echo "== cmake"; cmake --version | head -1; nproc
