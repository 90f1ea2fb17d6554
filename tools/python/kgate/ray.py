"""KernelGate on a Ray cluster: one Verifier actor per GPU (or per CPU slot), the static gate in CPU tasks.

    import ray, kgate.ray
    ray.init()                                    # or ray.init(address="auto")
    for result in kgate.ray.verify_batch(candidates, device="cuda", profile="quick"):
        ...                                       # dicts, as they finish

A candidate is {"key": ..., "source": str, "task": str, "path": "submission.py"}; its result is
kgate.VerifyResult's fields plus "key". A candidate whose request cannot be judged (an unknown task)
comes back with verdict "error" (no verdict on it) and the batch goes on. Ray places the actors (``num_gpus=1`` each on cuda) and restarts
one that dies, anywhere in the cluster, retrying the candidate it held (``max_restarts``,
``max_task_retries``); a candidate whose actor died on every try comes back ``harness-error``, never
lost and never blamed on the candidate. Sources and task files travel with the requests, so nodes need
no shared file system.

``python -m kgate.ray serve`` speaks ``kgate-runtime serve``'s protocol over a cluster: `kgate audit
--ray` runs its runtime stage through it (answers come back as they finish, matched by id).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import sys
import tempfile
import threading
import time
from typing import Any, Iterable, Iterator, Optional

import ray

from kgate import _core
from kgate.verifier import Verifier, VerifyResult, static_result

# A task's files travel with the request up to this size (a task directory is a manifest, a reference
# and perhaps a few helper modules).
_TASK_PACK_LIMIT = 4 << 20
_STATIC_IN_FLIGHT = 4
_ACTOR_DIED = (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError, ray.exceptions.WorkerCrashedError)


def _task_files(root: str) -> Iterator[str]:
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".yaml", ".yml", ".json", ".txt", ".cu", ".cuh", ".cpp", ".h")):
                yield os.path.join(folder, name)


def pack_task(task: str) -> dict:
    """A task path as {"name", "entry", "files": {relative path: text}, "digest"}; a name stays a name.

    A task directory travels whole; a task.yaml or a bare problem file takes its folder along (a GPU
    MODE problem's task.py and utils.py sit beside it), or alone when that folder is large (a folder of
    many KernelBench problems)."""
    if not os.path.exists(task):
        return {"name": task}
    task = os.path.abspath(task)
    root = task if os.path.isdir(task) else os.path.dirname(task)
    entry = "" if os.path.isdir(task) else os.path.basename(task)
    paths = list(_task_files(root))
    if sum(os.path.getsize(p) for p in paths) > _TASK_PACK_LIMIT:
        if not entry:
            raise ValueError(f"task {task} is over {_TASK_PACK_LIMIT >> 20} MiB")
        paths = [task]
    files = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            files[os.path.relpath(path, root)] = f.read()
    digest = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    return {"name": os.path.basename(root), "entry": entry, "files": files, "digest": digest}


def unpack_task(pack: dict, into: str) -> str:
    """Writes a packed task under `into` (once per digest) and returns the path the judge takes."""
    if "files" not in pack:
        return pack["name"]
    root = os.path.join(into, pack["digest"], pack["name"])
    if not os.path.isdir(root):
        staging = tempfile.mkdtemp(dir=into)
        for relative, text in pack["files"].items():
            path = os.path.join(staging, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        os.makedirs(os.path.dirname(root), exist_ok=True)
        try:
            os.rename(staging, root)
        except OSError:  # another call of this actor got there first
            pass
    return os.path.join(root, pack["entry"]) if pack["entry"] else root


@ray.remote
class VerifierActor:
    """One kgate.Verifier (one judge process) on the device Ray gave this actor."""

    def __init__(self, device: str, profile: str, options: dict):
        self._tasks = tempfile.mkdtemp(prefix="kgate-ray-tasks-")
        self._verifier = Verifier(device=device, profile=profile, **options)

    def verify(self, item: dict) -> dict:
        task = unpack_task(item["task"], self._tasks)
        result = self._verifier.verify(
            item["source"], task, path=item.get("path", "submission.py"), static=False, **item.get("options", {})
        )
        out = result.to_dict()
        out["key"] = item["key"]
        out["actor_pid"] = os.getpid()
        return out

    def pid(self) -> int:
        return os.getpid()


_static_tasks: Optional[str] = None  # where a Ray worker process unpacks the tasks of its static checks


# No CPU reserved: Verifier actors may hold every CPU of a CPU-only cluster, and a chunk is a few
# milliseconds of work per file; verify_batch keeps at most _STATIC_IN_FLIGHT chunks running.
@ray.remote(num_cpus=0)
def _static_chunk(items: list) -> list:
    """The static gate on a chunk of candidates: (key, static fields, None) for a pass, else the
    rejection's result dict in place of None."""
    out = []
    global _static_tasks
    if _static_tasks is None:
        _static_tasks = tempfile.mkdtemp(prefix="kgate-ray-static-tasks-")
    for item in items:
        try:  # the task as this node has it (its files travel with the item)
            checked = _core.check(item["source"], path=item.get("path", "submission.py"),
                                  task=unpack_task(item["task"], _static_tasks))
        except ValueError as error:  # an unknown task: the request's fault, no verdict
            out.append((item["key"], {}, _request_error(item, error, "static")))
            continue
        result = static_result(checked, item.get("path", "submission.py"), item.get("task_spec", ""))
        static = {"static_verdict": result.static_verdict, "static_findings": result.static_findings}
        out.append((item["key"], static, None if result.verdict == "pass" else result.to_dict()))
    return out


def _no_verdict(item: dict, verdict: str, reason: str, message: str, stage: str = "runtime") -> dict:
    """A candidate that got no verdict of its own: "harness-error" (the harness failed it) or "error"
    (its request could not be judged: an unknown task, a bad option), and the batch goes on."""
    result = VerifyResult(verdict=verdict, stage=stage, path=item.get("path", "submission.py"),
                          task=item.get("task_spec", ""), reasons=[{"id": reason, "message": message}])
    out = result.to_dict()
    out["key"] = item["key"]
    return out


def _harness_error(item: dict, message: str) -> dict:
    return _no_verdict(item, "harness-error", "harness-fault", message)


def _request_error(item: dict, error: Exception, stage: str = "runtime") -> dict:
    cause = getattr(error, "cause", None) or error
    return _no_verdict(item, "error", "request-error", str(cause).strip().splitlines()[-1][:2000], stage)


class VerifierPool:
    """Verifier actors on a Ray cluster (connect with ray.init() first, or give `address`).

    actors: how many (default: the cluster's GPUs on cuda; on cpu, half its CPUs, at least one).
    options: kgate.Verifier's keyword options (timeout_s, sandbox, cache_dir, tasks_dir...).
    start_timeout_s: how long the actors may take to be placed and start their judges.
    """

    def __init__(self, device: str = "cuda", profile: str = "quick", *, actors: Optional[int] = None,
                 address: Optional[str] = None, max_task_retries: int = 2, start_timeout_s: float = 600.0,
                 **options: Any):
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
        resources = ray.cluster_resources()
        if actors is None:
            actors = int(resources.get("GPU", 0)) if device != "cpu" else max(1, int(resources.get("CPU", 1)) // 2)
        if actors < 1:
            raise ValueError(f"no actors to run on {device}: the cluster has {resources}")
        self.device, self.profile, self.retries = device, profile, max_task_retries
        # One GPU per actor: Ray sets CUDA_VISIBLE_DEVICES, so the judge's "cuda" is the actor's GPU.
        runtime_device = "cpu" if device == "cpu" else "cuda"
        actor_class = VerifierActor.options(
            num_gpus=0 if device == "cpu" else 1, num_cpus=1, max_restarts=-1, max_task_retries=max_task_retries
        )
        self.actors = [actor_class.remote(runtime_device, profile, options) for _ in range(actors)]
        # Every actor placed and its judge ready, or a clear error (a cluster without room waits forever).
        started = [actor.pid.remote() for actor in self.actors]
        placed, missing = ray.wait(started, num_returns=len(started), timeout=start_timeout_s)
        if missing:
            self.shutdown()
            raise RuntimeError(f"{len(missing)} of {actors} verifier actors were not placed within {start_timeout_s:g} s: "
                               f"the cluster has {resources}, and each needs 1 CPU"
                               + ("" if device == "cpu" else " and 1 GPU"))
        ray.get(placed)  # a judge that could not start raises its VerifyError here

    def verify_batch(self, candidates: Iterable[dict], *, static: bool = True, chunk: int = 32,
                     options: Optional[dict] = None) -> Iterator[dict]:
        """Yields one result dict per candidate, in the order they finish (each has its "key")."""
        items = []
        for n, candidate in enumerate(candidates):
            item = dict(candidate)
            item.setdefault("key", n)
            item["task_spec"] = item["task"]
            item["task"] = pack_task(item["task"])
            if options:
                item["options"] = options
            items.append(item)
        by_key = {item["key"]: item for item in items}
        if len(by_key) != len(items):
            raise ValueError("candidates' keys must be unique")
        ready: "queue.SimpleQueue[dict]" = queue.SimpleQueue()
        static_refs = {}
        chunks = [items[start:start + chunk] for start in range(0, len(items), chunk)] if static else []
        if not static:
            for item in items:
                ready.put(item)
        statics: dict = {}
        idle = list(self.actors)
        running: dict = {}  # ref -> (actor, item)
        while chunks or static_refs or running or not ready.empty():
            while chunks and len(static_refs) < _STATIC_IN_FLIGHT:
                static_refs[_static_chunk.remote(chunks.pop(0))] = None
            while idle and not ready.empty():
                item = ready.get()
                actor = idle.pop()
                running[actor.verify.remote(item)] = (actor, item)
            waiting = list(static_refs) + list(running)
            done, _ = ray.wait(waiting, num_returns=1)
            ref = done[0]
            if ref in static_refs:
                del static_refs[ref]
                for key, info, rejected in ray.get(ref):
                    statics[key] = info
                    if rejected is not None:
                        rejected["key"] = key
                        yield rejected
                    else:
                        ready.put(by_key[key])
                continue
            actor, item = running.pop(ref)
            idle.append(actor)
            try:
                result = ray.get(ref)
            except _ACTOR_DIED as error:  # Ray restarted it and retried; every try died
                result = _harness_error(item, f"the verifier actor died on every one of {self.retries + 1} tries: "
                                              f"{type(error).__name__}")
            except ray.exceptions.RayTaskError as error:  # the request's fault (a VerifyError): no verdict
                result = _request_error(item, error)
            result.update(statics.get(item["key"], {}))
            result["task"] = item["task_spec"]
            yield result

    def shutdown(self) -> None:
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []


def verify_batch(candidates: Iterable[dict], *, device: str = "cuda", profile: str = "quick",
                 actors: Optional[int] = None, address: Optional[str] = None, static: bool = True,
                 **options: Any) -> Iterator[dict]:
    """Verifies candidates over the cluster with a pool of its own; yields results as they finish."""
    pool = VerifierPool(device, profile, actors=actors, address=address, **options)
    try:
        yield from pool.verify_batch(candidates, static=static)
    finally:
        pool.shutdown()


# -- `python -m kgate.ray serve`: kgate-runtime serve's protocol over a cluster -----------------------

def _serve(args: argparse.Namespace) -> int:
    options = {"timeout_s": args.timeout_s}
    if args.no_sandbox:
        options["sandbox"] = False
    pool = VerifierPool(args.device, args.profile, actors=args.actors, address=args.address, **options)
    out = sys.stdout
    sys.stdout = sys.stderr  # the protocol owns the real stdout
    lock = threading.Lock()

    def send(answer: dict) -> None:
        with lock:
            out.write(json.dumps(answer) + "\n")
            out.flush()

    send({"ready": True, "version": _core.__version__, "device": args.device, "actors": len(pool.actors),
          "cluster": ray.cluster_resources()})
    requests: "queue.SimpleQueue[Optional[dict]]" = queue.SimpleQueue()

    def read() -> None:
        for line in sys.stdin:
            if line.strip():
                try:
                    requests.put(json.loads(line))
                except json.JSONDecodeError:
                    send({"id": None, "exit": 2, "error": "a request is one JSON object per line"})
        requests.put(None)

    threading.Thread(target=read, daemon=True).start()
    run_options = ("seeds", "distributions", "public_shapes_only", "timed_calls", "compare_compile",
                   "keep_parameters", "profile", "timeout_s")
    idle = list(pool.actors)
    running: dict = {}
    backlog: list = []
    open_input = True
    while open_input or running or backlog:
        # Take every request that has come (without blocking while work runs).
        while open_input:
            try:
                request = requests.get(timeout=None if not (running or backlog) else 0)
            except queue.Empty:
                break
            if request is None:
                open_input = False
                break
            try:
                with open(request["submission"], encoding="utf-8", errors="replace") as f:
                    source = f.read()
                item = {"key": request.get("id"), "source": source, "path": os.path.basename(request["submission"]),
                        "task": pack_task(request["task"]), "task_spec": request["task"],
                        "options": {k: request[k] for k in run_options if k in request}}
            except (KeyError, OSError, ValueError) as error:
                send({"id": request.get("id"), "exit": 2, "error": f"bad request: {error}"})
                continue
            backlog.append((request, item))
        while idle and backlog:
            request, item = backlog.pop(0)
            actor = idle.pop()
            running[actor.verify.remote(item)] = (actor, request, item)
        if not running:
            continue
        done, _ = ray.wait(list(running), num_returns=1, timeout=0.2)
        for ref in done:
            actor, request, item = running.pop(ref)
            idle.append(actor)
            try:
                result = ray.get(ref)
            except _ACTOR_DIED as error:
                result = _harness_error(item, f"the verifier actor died on every try: {type(error).__name__}")
            except Exception as error:  # noqa: BLE001 - a VerifyError: the request's, exit 2 as kgate run
                send({"id": request.get("id"), "exit": 2, "error": str(error)})
                continue
            report = result.get("report") or {"verdict": result["verdict"], "reasons": result["reasons"]}
            report["submission"] = request["submission"]
            code = 0 if result["verdict"] == "pass" else 3 if result["verdict"] == "harness-error" else 1
            send({"id": request.get("id"), "exit": code, "report": report, "actor_pid": result.get("actor_pid")})
    pool.shutdown()
    return 0


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kgate.ray", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="kgate-runtime serve's protocol, answered by Verifier actors on a cluster")
    serve.add_argument("--address", default=None, help="the Ray cluster (default: start a local one)")
    serve.add_argument("--device", default="cuda", choices=["cpu", "cuda"])
    serve.add_argument("--profile", default="quick", choices=["quick", "full"])
    serve.add_argument("--actors", type=int, default=None, help="default: one per GPU (cpu: half the CPUs)")
    serve.add_argument("--timeout-s", type=float, default=60.0)
    serve.add_argument("--no-sandbox", action="store_true")
    args = parser.parse_args(argv)
    start = time.monotonic()
    code = _serve(args)
    print(f"kgate.ray: served for {time.monotonic() - start:.1f} s", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
