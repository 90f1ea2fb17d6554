#!/usr/bin/env python3
"""Runs `kgate run` on one annotated runtime candidate and checks the verdict it must get.

The candidate's first lines say what is expected (corpus/runtime/README and docs/runtime.md; a CUDA
candidate writes them after `//`):
  # runtime-task: <task dir, task.yaml or bare KernelBench .py, relative to the repo root>
  # runtime-expect: <verdict> [<reason id>]
  # runtime-expect-message: <text the reason's message must contain>   (optional)
  # runtime-expect-message-cuda: <the same, when the run is on a GPU>    (optional; the CUDA sandbox
      lets exec through seccomp for Triton's toolchain, so a different layer reports some violations)
  # runtime-expect-fp32-reference: yes|no   (optional; whether some case passed only against the fp32
      recomputation of an fp16/bf16 reference, which rounds after every op)
  # runtime-expect-task-checker: yes|no   (optional; whether some case's output differed from the
      reference's beyond tolerance and the task's own check_implementation accepted it)
  # runtime-expect-failing-dtypes: <dtype> ...   (optional; each listed dtype has at least one failing
      case: for an fp16/bf16 dtype, the fp32 recomputation did not rescue the candidate either)
Usage: check_annotated.py KGATE REPO_ROOT CANDIDATE [extra kgate run options...]
Exit 0 when the verdict, the reason id, the message and the exit code all match; 1 otherwise."""
import json
import os
import subprocess
import sys


def annotations(path):
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("//"):  # a CUDA candidate's annotations
                line = "#" + line[2:]
            if not line.startswith("#"):
                break
            for key in ("runtime-task", "runtime-expect", "runtime-expect-message", "runtime-expect-message-cuda",
                        "runtime-expect-fp32-reference", "runtime-expect-task-checker",
                        "runtime-expect-failing-dtypes"):
                prefix = f"# {key}:"
                if line.startswith(prefix):
                    found[key] = line[len(prefix):].strip()
    return found


def main():
    kgate, root, candidate, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    notes = annotations(candidate)
    if "runtime-task" not in notes or "runtime-expect" not in notes:
        print(f"{candidate}: missing # runtime-task / # runtime-expect annotations")
        return 1
    expected = notes["runtime-expect"].split()
    want_verdict = expected[0]
    want_reason = expected[1] if len(expected) > 1 else None
    task = os.path.join(root, notes["runtime-task"])
    device = [] if "--device" in extra else ["--device", "cpu"]
    on_gpu = "--device" in extra and extra[extra.index("--device") + 1] != "cpu"
    want_message = notes.get("runtime-expect-message", "")
    if on_gpu and "runtime-expect-message-cuda" in notes:
        want_message = notes["runtime-expect-message-cuda"]
    cmd = [kgate, "run", "--task", task, candidate, *device, "--format", "json", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print(f"{candidate}: kgate exited {proc.returncode} without a JSON report\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
        return 1
    # KGATE_REPORTS_DIR keeps every report, for `kgate speedup` over the suite (tools/device/build.sh sets it).
    if os.environ.get("KGATE_REPORTS_DIR") and candidate.find(os.sep + "honest" + os.sep) >= 0:
        os.makedirs(os.environ["KGATE_REPORTS_DIR"], exist_ok=True)
        name = os.path.relpath(candidate, root).replace(os.sep, "_")
        with open(os.path.join(os.environ["KGATE_REPORTS_DIR"], name + ".json"), "w") as f:
            f.write(proc.stdout)
    problems = []
    if report["verdict"] != want_verdict:
        problems.append(f"verdict {report['verdict']}, expected {want_verdict}")
    ids = [r["id"] for r in report["reasons"]]
    if want_reason and want_reason not in ids:
        problems.append(f"reasons {ids}, expected {want_reason}")
    if want_verdict == "pass" and ids:
        problems.append(f"a pass with reasons {ids}")
    messages = " | ".join(r["message"] for r in report["reasons"])
    if want_message and want_message not in messages:
        problems.append(f"reason messages {messages!r} do not mention {want_message!r}")
    want_code = 0 if want_verdict == "pass" else 1
    if proc.returncode != want_code:
        problems.append(f"exit code {proc.returncode}, expected {want_code}")
    if not report["cases"]:
        problems.append("no case ran")
    # yes: at least one case passed only against the fp32 recomputation of an fp16/bf16 reference;
    # no: none did (the candidate is wrong in both precisions, or matched the reference's own rounding).
    want_wide = notes.get("runtime-expect-fp32-reference")
    if want_wide:
        wide = sum(1 for c in report["cases"] if c.get("matched_fp32_reference"))
        if (want_wide == "yes") != (wide > 0):
            problems.append(f"{wide} cases matched only the fp32 reference, expected {want_wide}")
    want_checker = notes.get("runtime-expect-task-checker")
    if want_checker:
        accepted = sum(1 for c in report["cases"] if c.get("accepted_by_task_checker"))
        if (want_checker == "yes") != (accepted > 0):
            problems.append(f"{accepted} cases passed only by the task's checker, expected {want_checker}")
    for dtype in notes.get("runtime-expect-failing-dtypes", "").split():
        if not any(c["dtype"] == dtype and c["verdict"] != "pass" for c in report["cases"]):
            problems.append(f"no {dtype} case failed, expected some")
    timing = report.get("timing")
    # A GPU pass is timed (runtime stage II): no timing there means the timing phase is missing.
    if "--device" in extra and extra[extra.index("--device") + 1] == "cuda" and report["verdict"] == "pass" and not timing:
        problems.append("a GPU pass without timing")
    summary = f"{os.path.basename(candidate)}: {report['verdict']} {ids} {messages[:160]!r} ({len(report['cases'])} cases, {report['seconds']:.1f} s, sandbox {report['sandbox']['mode']})"
    if timing:
        roof = timing.get("roofline", {})
        summary += (f"\n  timing {timing['dtype']} {timing['shapes']}: candidate {timing['candidate']['synced']['median_s'] * 1e6:.1f} us"
                    f" (CV {timing['candidate']['synced']['cv']:.3f}), eager {timing['reference']['synced']['median_s'] * 1e6:.1f} us,"
                    f" speedup {timing['speedup']:.2f}x, own kernels {timing['own_kernel_share'] * 100:.0f}%")
        if roof:
            summary += f", MFU {roof['mfu']:.3f} IOU {roof['iou']:.3f} ({roof['peaks_source']})"
    if problems:
        first = next((c for c in report["cases"] if c["verdict"] != "pass"), None)
        if first:
            problems.append("first failing case: " + json.dumps({k: first.get(k) for k in (
                "shapes", "dtype", "distribution", "seed_index", "timed", "reason", "errors")})[:1500])
        print(summary + "\n  " + "\n  ".join(problems) + "\n  stderr: " + proc.stderr[-2000:])
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
