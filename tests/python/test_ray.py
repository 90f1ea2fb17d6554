"""kgate.ray on a local Ray cluster that the test starts itself (ray.init in this process): the CPU
runtime on corpus candidates equals sequential `kgate run`, a killed actor loses no result, the static
gate runs in CPU tasks, and `python -m kgate.ray serve` speaks kgate-runtime serve's protocol.
Registered as python.verifier where the runtime is built."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from runtime_candidates import EXPECTED, NAMES, candidate, kgate_run

import ray  # pinned in tools/requirements.txt: a missing ray fails here, never skips


@pytest.fixture(scope="module")
def cluster(kgate):
    # Ray's workers import kgate as any node's would: from their environment (here, the build's package).
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.path.dirname(os.path.dirname(kgate.__file__))
    # Three CPU slots: the pool's two actors and the serve test's one (an actor holds its slot while it lives).
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
    if saved is None:
        os.environ.pop("PYTHONPATH")
    else:
        os.environ["PYTHONPATH"] = saved


@pytest.fixture(scope="module")
def pool(cluster):
    import kgate.ray
    p = kgate.ray.VerifierPool("cpu", "quick", actors=2)
    yield p
    p.shutdown()


def summary(result):
    return result["verdict"], [r["id"] for r in result["reasons"]]


def test_batch_equals_sequential_kgate_run(pool, cli, source_dir):
    items = [candidate(source_dir, name) for name in NAMES]
    results = list(pool.verify_batch(items, static=False))
    assert sorted(r["key"] for r in results) == sorted(NAMES)  # one result per candidate
    for result in results:
        item = next(i for i in items if i["key"] == result["key"])
        assert summary(result) == EXPECTED[result["key"]] == kgate_run(cli, item), result["key"]
    assert len({r["actor_pid"] for r in results}) == 2  # both actors worked


def test_killed_actor_loses_no_result(pool, source_dir):
    items = [dict(candidate(source_dir, name), key=f"{n}:{name}") for n in range(2) for name in NAMES[:3]]
    pids = ray.get([actor.pid.remote() for actor in pool.actors])
    results = []
    for result in pool.verify_batch(items, static=False):
        results.append(result)
        if len(results) == 1:  # the other actor is mid-candidate now, or takes one next
            time.sleep(0.3)
            os.kill(pids[0], signal.SIGKILL)
    assert sorted(r["key"] for r in results) == sorted(i["key"] for i in items)
    for result in results:
        assert summary(result) == EXPECTED[result["key"].split(":", 1)[1]], result
    assert ray.get([actor.pid.remote() for actor in pool.actors])[0] != pids[0]  # Ray restarted it


def test_a_bad_request_is_an_error_result_and_the_batch_goes_on(pool, source_dir):
    good = candidate(source_dir, "honest/scale_add.py")
    bad = dict(good, key="bad", task="no_such_task")
    for static in (False, True):  # the runtime's VerifyError, and the static gate's ValueError
        results = {r["key"]: r for r in pool.verify_batch([bad, good], static=static)}
        assert sorted(results) == sorted(["bad", good["key"]])
        assert results["bad"]["verdict"] == "error" and results["bad"]["reasons"][0]["id"] == "request-error"
        assert "no_such_task" in results["bad"]["reasons"][0]["message"]
        # The good one: judged at runtime; statically, a pure-PyTorch CPU candidate is rejected.
        assert summary(results[good["key"]]) == EXPECTED[good["key"]] if not static else \
            results[good["key"]]["verdict"] == "reject"


def test_static_gate_runs_first(pool, source_dir):
    items = [candidate(source_dir, name) for name in NAMES]
    results = list(pool.verify_batch(items))
    assert sorted(r["key"] for r in results) == sorted(NAMES)
    for result in results:  # pure-torch CPU candidates: the static gate rejects every one, none runs
        assert (result["verdict"], result["stage"], result["report"]) == ("reject", "static", None), result
        assert "forward-reaches-no-kernel" in [r["id"] for r in result["reasons"]]


def test_serve_protocol(cluster, kgate, source_dir):
    items = [candidate(source_dir, name) for name in NAMES[:2] + NAMES[2:3]]
    address = ray.get_runtime_context().gcs_address
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(os.path.dirname(os.path.dirname(kgate.__file__))),
                                                       os.path.dirname(__file__)]))
    process = subprocess.Popen([sys.executable, "-m", "kgate.ray", "serve", "--address", address, "--device", "cpu",
                                "--actors", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=env)
    ready = json.loads(process.stdout.readline())
    assert ready["ready"] and ready["actors"] == 1
    for n, item in enumerate(items):
        process.stdin.write(json.dumps({"id": n, "submission": item["file"], "task": item["task"]}) + "\n")
    process.stdin.write("not json\n")
    process.stdin.close()
    answers = [json.loads(line) for line in process.stdout]
    assert process.wait(timeout=60) == 0
    assert {"id": None, "exit": 2, "error": "a request is one JSON object per line"} in answers
    by_id = {a["id"]: a for a in answers if a["id"] is not None}
    assert sorted(by_id) == [0, 1, 2]
    for n, item in enumerate(items):
        report = by_id[n]["report"]
        assert (report["verdict"], [r["id"] for r in report["reasons"]]) == EXPECTED[item["key"]]
        assert by_id[n]["exit"] == (0 if report["verdict"] == "pass" else 1)
        assert report["submission"] == item["file"]


def test_reward_loop_example(cluster, source_dir, capsys):
    # docs/examples/reward_loop.py, as its docstring runs it on a CPU: a pass earns the correctness
    # reward, a wrong answer none.
    import importlib.util
    spec = importlib.util.spec_from_file_location("reward_loop", source_dir / "docs" / "examples" / "reward_loop.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    honest = candidate(source_dir, "honest/negative_part.py")
    cheat = candidate(source_dir, "cheats/M12_wrong_under_outliers.py")
    assert example.main(["--device", "cpu", "--runtime-only", "--task", cheat["task"], cheat["file"]]) == 0
    assert example.main(["--device", "cpu", "--runtime-only", "--task", honest["task"], honest["file"]]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(cheat["file"]) and "\treward 0.000\tfail\t" in lines[0], lines
    assert "\treward 0.300\tpass\t" in lines[1], lines
