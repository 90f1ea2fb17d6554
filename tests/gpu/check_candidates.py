#!/usr/bin/env python3
"""Checks the honest GPU candidates in corpus/honest/tasks against their task references, on a GPU.

For each task that has a candidate, the reference Model and the candidate ModelNew are built from the same seed
and run on the same inputs for every public and hidden shape set of the manifest and every floating dtype it
declares; outputs are compared with the manifest's tolerance contract (docs/task-manifest.md) and the inputs are
checked to be unchanged afterwards. One line per task/shape/dtype, then a summary; exit 1 if anything failed.

The CUDA candidates compile their extensions (load_inline) at import. Phase 1 imports every candidate in
parallel subprocesses to fill the extension cache; phase 2 checks each task in its own subprocess (--task-jobs
at once), so a crash or a sticky CUDA error stays inside that task; with --time, phase 3 times candidate and
reference on the public shapes, one task at a time.

    python3 tests/gpu/check_candidates.py [--root REPO] [--only NAME ...] [--task-jobs N] [--time] [--out DIR]
    TRITON_INTERPRET=1 python3 tests/gpu/check_candidates.py --device cpu --only Loss Math --max-size 2e7
"""

import argparse
import concurrent.futures
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

DTYPE_NAMES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
DEFAULT_TOLERANCE = {
    "fp32": {"atol": 1e-4, "rtol": 1e-4, "norm_rtol": 1e-5},
    "fp16": {"atol": 1e-2, "rtol": 1e-2, "norm_rtol": 2e-3},
    "bf16": {"atol": 2e-2, "rtol": 2e-2, "norm_rtol": 8e-3},
}
SEED = 20260422


def candidates(root: Path, only: list[str]) -> list[tuple[str, Path, Path]]:
    """(task id, task dir, candidate file) for every candidate whose task exists, sorted by task id."""
    found = []
    for cand in sorted((root / "corpus" / "honest" / "tasks").glob("*/*.py")):
        task_id = f"{cand.parent.name}/{cand.stem}"
        task_dir = root / "tasks" / cand.parent.name / cand.stem
        if only and not any(o in task_id for o in only):
            continue
        if not (task_dir / "task.yaml").is_file():
            print(f"MISS {task_id:34} no task at {task_dir}")
            continue
        found.append((task_id, task_dir, cand))
    return found


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare(expected, actual, manifest: dict, dtype_name: str) -> tuple[bool, str]:
    """The manifest's contract: elementwise |a-e| <= atol + rtol|e| and the norm bound, or the quantization one."""
    import torch

    if not isinstance(actual, torch.Tensor):
        return False, f"output is {type(actual).__name__}, not a tensor"
    if actual.shape != expected.shape:
        return False, f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    if actual.dtype != expected.dtype:
        return False, f"dtype {actual.dtype} != {expected.dtype}"
    if actual.device != expected.device:
        return False, f"device {actual.device} != {expected.device}"
    if not actual.is_contiguous():
        return False, "output not contiguous"
    e = expected.detach().to(torch.float64)
    a = actual.detach().to(torch.float64)
    if e.numel() == 0:
        return True, "empty"
    if manifest.get("contract", "elementwise") == "quantization":
        q = manifest["quantization"]
        cosine = torch.nn.functional.cosine_similarity(a.flatten(), e.flatten(), dim=0).item()
        rel_l1 = ((a - e).abs().sum() / e.abs().sum().clamp_min(1e-300)).item()
        rmse = (a - e).pow(2).mean().sqrt().item()
        ok = cosine >= q["cosine_min"] and rel_l1 <= q["rel_l1_max"] and rmse <= q["rmse_max"]
        return ok, f"cosine={cosine:.8f} rel_l1={rel_l1:.3e} rmse={rmse:.3e}"
    tol = dict(DEFAULT_TOLERANCE[dtype_name])
    tol.update((manifest.get("tolerance") or {}).get(dtype_name, {}))
    e_nan, a_nan = torch.isnan(e), torch.isnan(a)
    if bool((a_nan & ~e_nan).any()) or bool((e_nan & ~a_nan).any()):
        return False, f"NaN pattern differs ({int((a_nan ^ e_nan).sum())} elements)"
    finite = ~e_nan
    diff = (a - e).abs()[finite]
    ref = e.abs()[finite]
    same_inf = (a[finite] == e[finite])  # inf == inf counts as exact
    diff = torch.where(same_inf, torch.zeros_like(diff), diff)
    bad = int((diff > tol["atol"] + tol["rtol"] * ref).sum())
    max_abs = diff.max().item() if diff.numel() else 0.0
    max_rel = (diff / ref.clamp_min(1e-30)).max().item() if diff.numel() else 0.0
    err_norm = diff.norm().item()
    ref_norm = ref.norm().item()
    norm_limit = tol["norm_rtol"] * ref_norm + tol["atol"] * math.sqrt(diff.numel())
    ok = bad == 0 and err_norm <= norm_limit
    return ok, (f"max_abs={max_abs:.3e} max_rel={max_rel:.3e} mismatches={bad} "
                f"norm_ratio={err_norm / norm_limit if norm_limit > 0 else float(err_norm > 0):.3f}")


def time_ms(fn, inputs, reps: int = 20) -> float:
    import torch

    for _ in range(3):
        fn(*inputs)
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*inputs)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def run_task(task_id: str, task_dir: Path, cand_path: Path, device: str, with_time: bool,
             max_size: float, public_only: bool) -> list[dict]:
    """Every shape set and dtype of one task, in this process. One record per check."""
    import torch
    import yaml

    # The reference is the judge's ground truth: no TF32 and no reduced-precision (fp16/bf16) split-K reductions
    # in cuBLAS/cuDNN, which cost the reference several bf16 ulps on odd shapes (matmul_square, N = 1023).
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False

    manifest = yaml.safe_load((task_dir / "task.yaml").read_text())
    reference = load_module(task_dir / "reference.py", "kgate_reference_" + task_id.replace("/", "_"))
    candidate = load_module(cand_path, "kgate_candidate_" + task_id.replace("/", "_"))
    shape_sets = [("public", s) for s in manifest["shapes"]["public"]]
    if not public_only:
        shape_sets += [("hidden", s) for s in manifest["shapes"].get("hidden", [])]
    dtypes = [d for d in manifest.get("dtypes", ["fp32"]) if d in DTYPE_NAMES]
    records = []
    for kind, shape in shape_sets:
        if max_size and math.prod(shape.values()) > max_size:
            print(f"not run (--max-size): {task_id} {kind} {shape}", file=sys.stderr)
            continue
        for dtype_name in dtypes:
            dtype = getattr(torch, DTYPE_NAMES[dtype_name])
            record = {"task": task_id, "kind": kind, "shape": shape, "dtype": dtype_name}
            try:
                for symbol, value in shape.items():
                    setattr(reference, symbol, value)
                with torch.device(device):
                    init = reference.get_init_inputs()
                    torch.manual_seed(SEED)
                    ref_model = reference.Model(*init)
                    torch.manual_seed(SEED)
                    cand_model = candidate.ModelNew(*init)
                    torch.manual_seed(SEED + 1)
                    inputs = reference.get_inputs()
                ref_model = ref_model.to(device=device, dtype=dtype)
                cand_model = cand_model.to(device=device, dtype=dtype)
                inputs = [x.to(device=device, dtype=dtype) if isinstance(x, torch.Tensor) and x.is_floating_point()
                          else x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
                originals = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
                with torch.no_grad():
                    expected = ref_model(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
                    actual = cand_model(*inputs)
                if device == "cuda":
                    torch.cuda.synchronize()
                ok, detail = compare(expected, actual, manifest, dtype_name)
                for i, (before, after) in enumerate(zip(originals, inputs)):
                    if isinstance(before, torch.Tensor) and not torch.equal(before, after):
                        ok, detail = False, f"input {i} was modified; " + detail
                if ok and with_time and kind == "public" and device == "cuda":
                    with torch.no_grad():
                        record["ref_ms"] = time_ms(ref_model, inputs)
                        record["cand_ms"] = time_ms(cand_model, inputs)
                record.update(ok=ok, detail=detail)
            except Exception as exc:  # reported, never swallowed: the record fails with the error
                record.update(ok=False, detail=f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
            records.append(record)
    return records


def format_record(r: dict) -> str:
    shape = ",".join(f"{k}={v}" for k, v in r["shape"].items())
    timing = ""
    if "cand_ms" in r:
        timing = f" | cand {r['cand_ms']:.4f} ms, torch {r['ref_ms']:.4f} ms, speedup {r['ref_ms'] / r['cand_ms']:.2f}x"
    return f"{'PASS' if r['ok'] else 'FAIL'} {r['task']:34} {r['dtype']:4} {r['kind']:6} {shape:34} {r['detail']}{timing}"


def build_one(cand_path: Path) -> tuple[Path, float, str]:
    """Import a candidate in a fresh interpreter, which compiles and caches its extension."""
    start = time.time()
    code = ("import importlib.util, sys; p = sys.argv[1]; s = importlib.util.spec_from_file_location('c', p); "
            "m = importlib.util.module_from_spec(s); s.loader.exec_module(m)")
    proc = subprocess.run([sys.executable, "-c", code, str(cand_path)], capture_output=True, text=True, timeout=400)
    tail = (proc.stderr or "").strip().splitlines()[-3:] if proc.returncode else []
    return cand_path, time.time() - start, "ok" if proc.returncode == 0 else "FAILED: " + " | ".join(tail)


def run_in_subprocess(root: Path, args, task_id: str, timed: bool) -> list[dict]:
    """One task in a fresh interpreter, so that a crash or a sticky CUDA error stays inside it."""
    cmd = [sys.executable, __file__, "--root", str(root), "--device", args.device, "--single", task_id]
    if timed:
        cmd += ["--time", "--public-only"]
    if args.max_size:
        cmd += ["--max-size", str(args.max_size)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        return [{"task": task_id, "kind": "-", "shape": {}, "dtype": "-", "ok": False,
                 "detail": "task process timed out after 240 s"}]
    lines = [line for line in proc.stdout.splitlines() if line.startswith("KGATE_RECORDS ")]
    if lines:
        return json.loads(lines[-1][len("KGATE_RECORDS "):])
    err = (proc.stderr or "").strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
    return [{"task": task_id, "kind": "-", "shape": {}, "dtype": "-", "ok": False,
             "detail": f"task process died: {err[0]}"}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--time", action="store_true", help="time candidate and reference on the public shapes")
    parser.add_argument("--jobs", type=int, default=8, help="parallel extension builds in phase 1")
    parser.add_argument("--task-jobs", type=int, default=1, help="tasks checked at once in phase 2")
    parser.add_argument("--public-only", action="store_true", help="only the public shape sets")
    parser.add_argument("--out", type=Path, help="directory for results.jsonl")
    parser.add_argument("--max-size", type=float, default=0,
                        help="skip shape sets whose symbols multiply to more than this (for TRITON_INTERPRET=1 on a CPU)")
    parser.add_argument("--single", help=argparse.SUPPRESS)  # internal: run one task, print JSON records
    args = parser.parse_args()
    root = args.root.resolve()

    if args.single:
        task_id, task_dir, cand = next(c for c in candidates(root, [args.single]) if c[0] == args.single)
        print("KGATE_RECORDS " + json.dumps(run_task(task_id, task_dir, cand, args.device, args.time, args.max_size, args.public_only)))
        return 0

    todo = candidates(root, args.only)
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for path, seconds, status in pool.map(build_one, [c[2] for c in todo]):
            print(f"BUILD {path.parent.name}/{path.stem:24} {seconds:6.1f} s {status}", flush=True)
    print(f"phase 1 (imports and extension builds): {time.time() - started:.1f} s", flush=True)

    records = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.task_jobs)) as pool:
        for task_records in pool.map(lambda t: run_in_subprocess(root, args, t[0], timed=False), todo):
            for r in task_records:
                print(format_record(r), flush=True)
            records.extend(task_records)
    print(f"phase 2 (correctness): {time.time() - started:.1f} s since the start", flush=True)
    failed = [r for r in records if not r["ok"]]
    tasks_failed = sorted({r["task"] for r in failed})
    print(f"summary: {len(records) - len(failed)}/{len(records)} checks passed over {len(todo)} tasks; "
          f"tasks with failures: {', '.join(tasks_failed) if tasks_failed else 'none'}; "
          f"{time.time() - started:.1f} s in all")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        with open(args.out / "results.jsonl", "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    if args.time:
        # Phase 3, one task at a time so that nothing else shares the GPU: public shapes, median of 20 calls.
        for task in todo:
            for r in run_in_subprocess(root, args, task[0], timed=True):
                print("TIME " + format_record(r), flush=True)
    return 1 if failed or not todo else 0


if __name__ == "__main__":
    sys.exit(main())
