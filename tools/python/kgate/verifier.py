"""The whole verdict on a candidate: the static gate in process, then the runtime stage in a judge kept alive.

``Verifier`` holds one ``kgate-runtime serve`` process: the trusted judge, with its embedded Python and
torch imported, the CUDA context, the loaded tasks and the compile cache. A stream of candidates then
pays neither process start, interpreter start nor torch import. Every candidate still runs in a fresh
sandboxed worker that the judge starts for it, so one candidate cannot touch the next.

    import kgate
    with kgate.Verifier(device="cuda:0", profile="quick") as verifier:
        result = verifier.verify(source, "Activation/gelu")
        result.verdict, result.speedup, result.reasons

``kgate.verify(source, task, ...)`` does the same once (it starts and stops a judge).
"""
from __future__ import annotations

import dataclasses
import json
import os
import site
import subprocess
import sys
import tempfile
import threading
from typing import Any, Optional, Union

from kgate import _core

# The runtime's verdicts (runtime/verdict.h) and the static gate's, as VerifyResult.verdict gives them.
RUNTIME_VERDICTS = ("pass", "fail", "crashed", "timeout", "sandbox-violation", "harness-error")
STATIC_VERDICTS = ("reject", "unjudged")


class VerifyError(RuntimeError):
    """A problem of the request, the task or the installation (kgate run's exit code 2), never of the candidate."""


@dataclasses.dataclass
class VerifyResult:
    """One candidate's verdict. Plain data (picklable), so Ray can carry it between processes.

    verdict: "pass", a runtime verdict ("fail", "crashed", "timeout", "sandbox-violation",
      "harness-error": a limit or fault of ours, never the candidate's), or the static gate's "reject"
      or "unjudged" (then the runtime did not run).
    stage: "static" when the static gate decided, else "runtime".
    reasons: [{"id", "message"}]: the static gate's error findings, or the runtime's reasons.
    static_findings: every finding of the static gate ({"rule", "severity", "message", "line", "col"}).
    report: the runtime's whole report (kgate run --format json), or None.
    """

    verdict: str
    stage: str
    path: str
    task: str
    reasons: list = dataclasses.field(default_factory=list)
    static_verdict: Optional[str] = None
    static_findings: list = dataclasses.field(default_factory=list)
    report: Optional[dict] = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    @property
    def harness_error(self) -> bool:
        """No verdict on the candidate: the harness met a limit or fault of its own."""
        return self.verdict == "harness-error"

    @property
    def timing(self) -> Optional[dict]:
        return (self.report or {}).get("timing")

    @property
    def speedup(self) -> Optional[float]:
        """Eager PyTorch's time over the candidate's (GPU runs whose every case passed), else None."""
        return (self.timing or {}).get("speedup")

    @property
    def roofline(self) -> Optional[dict]:
        return (self.timing or {}).get("roofline")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "VerifyResult":
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in fields})


def runtime_executable() -> str:
    """kgate-runtime: $KGATE_RUNTIME, else the installed one (the environment's or the user's bin/),
    else the one this build produced."""
    env = os.environ.get("KGATE_RUNTIME")
    if env:
        return env
    bases = [sys.prefix]
    if site.USER_BASE:
        bases.append(site.USER_BASE)
    for base in bases:
        candidate = os.path.join(base, "bin", "kgate-runtime")
        if os.access(candidate, os.X_OK):
            return candidate
    built = getattr(_core, "built_runtime", "")
    if built and os.access(built, os.X_OK):
        return built
    raise VerifyError(
        "kgate-runtime was not found (set KGATE_RUNTIME, or install KernelGate from an environment with torch: "
        "docs/install.md)"
    )


def _split_device(device: str) -> tuple[str, Optional[str]]:
    """'cpu', 'cuda' or 'cuda:N' -> the runtime's device and the CUDA_VISIBLE_DEVICES it needs."""
    if device == "cpu" or device == "cuda":
        return device, None
    if device.startswith("cuda:") and device[5:].isdigit():
        return "cuda", device[5:]
    raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', not {device!r}")


def _static_task(task: str, tasks_dir: Optional[str]) -> str:
    """The task as the static gate resolves it: a path stays; a name under a custom tasks_dir becomes its path."""
    if tasks_dir is None or os.path.exists(task):
        return task
    direct = os.path.join(tasks_dir, task)
    if os.path.exists(direct):
        return direct
    for category in sorted(os.listdir(tasks_dir)):
        nested = os.path.join(tasks_dir, category, task)
        if os.path.isdir(nested):
            return nested
    return task


def _finding(f) -> dict:
    return {"rule": f.rule, "severity": f.severity, "message": f.message, "line": f.line, "col": f.col}


def static_result(checked, path: str, task: str) -> VerifyResult:
    """The static gate's answer (a kgate.Result) as a VerifyResult: "pass" (the runtime comes next), or
    "reject"/"unjudged" with the error findings as reasons (stage "static")."""
    findings = [_finding(f) for f in checked.findings]
    result = VerifyResult(verdict="pass", stage="static", path=path, task=task, static_verdict=checked.verdict,
                          static_findings=findings)
    if checked.verdict != "pass":
        result.verdict = "reject" if checked.verdict == "reject" else "unjudged"
        result.reasons = [
            {"id": f["rule"], "message": f["message"], "line": f["line"]} for f in findings if f["severity"] == "error"
        ] or [{"id": checked.verdict, "message": f"the static gate says {checked.verdict}"}]
    return result


class Verifier:
    """A long-lived judge for a stream of candidates, on one device; one candidate at a time.

    device: "cpu", "cuda" or "cuda:N" (the judge and its workers see only GPU N).
    profile: "quick" (RL reward loops) or "full"; verify() may override it per call.
    tasks_dir: where task names resolve (default: the bundled tasks).
    gate: the kgate.Gate of the static stage (default: the default rules).
    prepare: the judge keeps spare sandboxed workers started ahead of the candidates (their interpreter,
      torch import and CUDA set-up are done when a candidate comes), and starts a replacement as soon as
      a candidate takes one. True: the judge's default (3 on cuda, 1 on cpu); an int: that many; False:
      none, each candidate's worker starts when it comes, as kgate run does.
    Thread-safe: calls from several threads take turns (a judge holds its device).
    """

    def __init__(
        self,
        device: str = "cpu",
        profile: str = "quick",
        *,
        tasks_dir: Optional[str] = None,
        cache_dir: Optional[str] = None,
        gate: Optional[_core.Gate] = None,
        sandbox: bool = True,
        timeout_s: float = 60.0,
        warm: bool = True,
        prepare: Union[bool, int] = True,
        runtime: Optional[str] = None,
    ):
        if profile not in ("quick", "full"):
            raise ValueError(f"profile must be 'quick' or 'full', not {profile!r}")
        self.device = device
        self._runtime_device, self._visible = _split_device(device)
        self.profile = profile
        self.tasks_dir = tasks_dir
        self.cache_dir = cache_dir
        self.timeout_s = timeout_s
        self._gate = gate
        self._sandbox = sandbox
        self._warm = warm
        self._prepare = prepare
        self._runtime = runtime or runtime_executable()
        self._lock = threading.Lock()
        self._process: Optional[subprocess.Popen] = None
        self._log = tempfile.TemporaryFile(mode="w+b", prefix="kgate-judge-")
        self._workdir = tempfile.TemporaryDirectory(prefix="kgate-verify-")
        self._count = 0
        self.ready: dict = {}
        self.restarts = 0
        self._start()

    # -- the judge process --------------------------------------------------------------------------
    def _start(self) -> None:
        # The judge's default timeout is ours: its spare workers' limits follow it, so our requests fit them.
        args = [self._runtime, "serve", "--device", self._runtime_device, "--profile", self.profile,
                "--timeout", repr(float(self.timeout_s))]
        if self.tasks_dir:
            args += ["--tasks-dir", self.tasks_dir]
        if self.cache_dir:
            args += ["--cache-dir", self.cache_dir]
        if self._warm:
            args.append("--warm")
        if not self._sandbox:
            args.append("--no-sandbox")
        if self._prepare is False:
            args.append("--no-prepare")
        elif self._prepare is not True:
            args += ["--prepare", str(int(self._prepare))]
        env = dict(os.environ)
        if self._visible is not None:
            env["CUDA_VISIBLE_DEVICES"] = self._visible
        try:
            self._process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, env=env, bufsize=1,
                text=True, encoding="utf-8", errors="replace",
            )
        except OSError as error:
            raise VerifyError(f"cannot start {self._runtime}: {error}") from error
        line = self._process.stdout.readline()
        ready = json.loads(line) if line.strip() else {}
        if not ready.get("ready") or "error" in ready:
            self._stop()
            raise VerifyError(f"the judge did not start: {ready.get('error') or self._log_tail()}")
        self.ready = ready

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()

    def _log_tail(self, n: int = 2000) -> str:
        self._log.seek(0, os.SEEK_END)
        size = self._log.tell()
        self._log.seek(max(0, size - n))
        return self._log.read().decode("utf-8", "replace")

    def _ask(self, request: dict) -> Optional[dict]:
        """One request and its answer, or None when the judge died on it."""
        if self._process is None or self._process.poll() is not None:
            self._stop()
            self._start()
            self.restarts += 1
        try:
            self._process.stdin.write(json.dumps(request) + "\n")
            self._process.stdin.flush()
            line = self._process.stdout.readline()  # blocks without the GIL
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self._stop()
            return None
        return json.loads(line)

    # -- candidates ---------------------------------------------------------------------------------
    def verify(
        self,
        source: str,
        task: str,
        *,
        path: str = "submission.py",
        profile: Optional[str] = None,
        static: bool = True,
        seeds: int = 0,
        timeout_s: Optional[float] = None,
        **options: Any,
    ) -> VerifyResult:
        """Judges one candidate's source text on `task` (a task name, Category/name, task directory,
        task.yaml or KernelBench problem file).

        static=False skips the static gate (the runtime stage alone, as `kgate run`). Further options
        are kgate run's: distributions, public_shapes_only, timed_calls, compare_compile, keep_parameters.
        """
        result = VerifyResult(verdict="pass", stage="static", path=path, task=task)
        if static:
            gate = self._gate or _core
            result = static_result(gate.check(source, path=path, task=_static_task(task, self.tasks_dir)), path, task)
            if result.verdict != "pass":
                return result
        result.stage = "runtime"
        with self._lock:
            self._count += 1
            folder = os.path.join(self._workdir.name, str(self._count))
            os.mkdir(folder)
            file = os.path.join(folder, os.path.basename(path) or "submission.py")
            with open(file, "w", encoding="utf-8") as out:
                out.write(source)
            request = {
                "id": self._count,
                "submission": file,
                "task": task,
                "profile": profile or self.profile,
                "seeds": seeds,
                "timeout_s": timeout_s or self.timeout_s,
                **options,
            }
            try:
                answer = self._ask(request)
                if answer is None:  # the judge died: a harness fault; once more with a fresh judge
                    answer = self._ask(request)
            finally:
                os.remove(file)
                os.rmdir(folder)
        if answer is None:
            result.verdict = "harness-error"
            result.reasons = [
                {"id": "harness-fault", "message": "the judge process died twice on this candidate: "
                 + self._log_tail(600)}
            ]
            return result
        if "report" not in answer:
            raise VerifyError(answer.get("error", "the judge answered without a report"))
        report = answer["report"]
        report["submission"] = path
        result.report = report
        result.verdict = report["verdict"]
        result.reasons = report.get("reasons", [])
        result.seconds = report.get("seconds", 0.0)
        return result

    def close(self) -> None:
        with self._lock:
            self._stop()
        self._log.close()
        self._workdir.cleanup()

    def __enter__(self) -> "Verifier":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self._stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def verify(source: str, task: str, device: str = "cpu", profile: str = "quick", **options: Any) -> VerifyResult:
    """One candidate with a judge of its own (started and stopped here). For many, keep a Verifier."""
    verifier_options = {k: options.pop(k) for k in ("tasks_dir", "cache_dir", "gate", "sandbox") if k in options}
    with Verifier(device=device, profile=profile, warm=False, **verifier_options) as verifier:
        return verifier.verify(source, task, **options)
