"""kgate.Verifier and kgate.verify: the static gate, then the runtime stage in a long-lived judge
(kgate-runtime serve), on the CPU. Registered as python.verifier where the runtime is built."""
import os
import signal
import threading
import time

import pytest

from runtime_candidates import EXPECTED, NAMES, candidate, kgate_run


@pytest.fixture(scope="module")
def verifier(kgate):
    with kgate.Verifier(device="cpu", profile="quick") as v:
        yield v


def test_runtime_verdicts_equal_kgate_run(verifier, cli, source_dir):
    for name in NAMES:
        item = candidate(source_dir, name)
        result = verifier.verify(item["source"], item["task"], path=item["path"], static=False)
        got = (result.verdict, [r["id"] for r in result.reasons])
        assert got == EXPECTED[name], (name, got)
        assert got == kgate_run(cli, item), name
        assert result.stage == "runtime" and result.report["profile"] == "quick"
        assert result.report["submission"] == item["path"]  # the caller's name, not the judge's temporary copy


def test_static_rejection_never_reaches_the_runtime(verifier, source_dir):
    item = candidate(source_dir, "cheats/M1_unwritten_output.py")
    asked = verifier._count
    result = verifier.verify(item["source"], item["task"], path=item["path"])
    assert (result.verdict, result.stage, result.report) == ("reject", "static", None)
    assert "returns-unwritten-allocation" in [r["id"] for r in result.reasons]
    assert result.static_verdict == "reject" and result.static_findings
    assert verifier._count == asked


def test_judge_killed_between_candidates_is_restarted(kgate, source_dir):
    item = candidate(source_dir, "honest/scale_add.py")
    with kgate.Verifier(device="cpu", warm=False) as v:
        os.kill(v._process.pid, signal.SIGKILL)
        v._process.wait()
        result = v.verify(item["source"], item["task"], path=item["path"], static=False)
        assert result.verdict == "pass" and v.restarts == 1


def test_judge_killed_mid_candidate_is_a_harness_fault_retried_once(kgate, source_dir):
    item = candidate(source_dir, "cheats/M12_wrong_under_outliers.py")
    with kgate.Verifier(device="cpu", warm=False) as v:
        first = v._process.pid
        threading.Timer(0.3, os.kill, (first, signal.SIGKILL)).start()
        result = v.verify(item["source"], item["task"], path=item["path"], static=False)
        # The candidate is judged again by a fresh judge, and its own verdict comes back.
        assert v._process.pid != first
        assert (result.verdict, [r["id"] for r in result.reasons]) == ("fail", ["mismatch"])


def test_reference_output_on_stdout_does_not_break_the_protocol(kgate, tmp_path):
    task = tmp_path / "noisy_task.py"
    task.write_text(
        "import torch\nimport torch.nn as nn\nprint('reference module loaded')\n"
        "class Model(nn.Module):\n"
        "    def forward(self, x):\n        print('reference forward')\n        return x * 2.0\n"
        "def get_inputs():\n    return [torch.randn(64)]\n"
        "def get_init_inputs():\n    return []\n")
    candidate_source = ("import torch\nimport torch.nn as nn\n"
                        "class ModelNew(nn.Module):\n    def forward(self, x):\n        return x + x\n")
    with kgate.Verifier(device="cpu") as v:
        for _ in range(2):
            result = v.verify(candidate_source, str(task), static=False)
            assert result.verdict == "pass", result.reasons


def test_unknown_task_is_an_error_not_a_verdict(kgate, verifier):
    with pytest.raises(kgate.VerifyError, match="no_such_task"):
        verifier.verify("x = 1\n", "no_such_task", static=False)


def test_verify_once(kgate, source_dir):
    item = candidate(source_dir, "honest/negative_part.py")
    start = time.monotonic()
    result = kgate.verify(item["source"], item["task"], device="cpu", static=False)
    assert result.verdict == "pass" and result.seconds > 0
    assert time.monotonic() - start < 120
    assert kgate.VerifyResult.from_dict(result.to_dict()) == result


def test_bad_device_and_profile(kgate):
    with pytest.raises(ValueError):
        kgate.Verifier(device="tpu")
    with pytest.raises(ValueError):
        kgate.Verifier(profile="fast")


def phase(report, name):
    return sum(p["seconds"] for p in report["worker_startup"] if p["phase"] == name)


def worker_children(pid):
    children = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            children += [int(c) for c in f.read().split()]
    return [c for c in children if open(f"/proc/{c}/comm").read().strip().startswith("kgate-worker")]


def test_worker_is_started_ahead_and_a_dead_one_replaced(kgate, source_dir):
    item = candidate(source_dir, "honest/scale_add.py")
    with kgate.Verifier(device="cpu") as v:
        # The judge starts the first candidate's worker while it waits. The worker's start (torch's
        # import) takes 2-3 s on a loaded 2-core machine: wait long enough that it then idles > 1 s.
        time.sleep(6)
        ahead = worker_children(v._process.pid)
        assert len(ahead) == 1
        result = v.verify(item["source"], item["task"], path=item["path"], static=False)
        assert result.verdict == "pass"
        assert result.report["worker_ahead"] == "used"
        assert phase(result.report, "waiting for the judge") > 1.0  # it was ready before the candidate came
        time.sleep(1)
        replaced = worker_children(v._process.pid)
        assert len(replaced) == 1 and replaced != ahead  # a fresh one for the next candidate
        os.kill(replaced[0], signal.SIGKILL)  # dies while it waits: the run starts its own
        time.sleep(0.5)
        result = v.verify(item["source"], item["task"], path=item["path"], static=False)
        assert result.verdict == "pass", result.reasons
        assert result.report["worker_ahead"] == "had ended"
        assert phase(result.report, "waiting for the judge") < 1.0
    with kgate.Verifier(device="cpu", prepare=False) as v:
        time.sleep(2)
        assert worker_children(v._process.pid) == []
        assert v.verify(item["source"], item["task"], path=item["path"], static=False).verdict == "pass"
    # Two spares: a candidate takes the older one, whose replacement starts at once; the other spare was
    # ready before the candidate came, and both spares are there again for the next one. The spares' CPU
    # limit follows the timeout, which the Verifier hands the judge: a timeout of its own still fits them.
    with kgate.Verifier(device="cpu", prepare=2, timeout_s=45) as v:
        assert v.ready["spare_workers"] == 2
        time.sleep(8)
        ahead = worker_children(v._process.pid)
        assert len(ahead) == 2
        result = v.verify(item["source"], item["task"], path=item["path"], static=False)
        assert result.verdict == "pass", result.reasons
        assert result.report["worker_ahead"] == "used"
        assert phase(result.report, "waiting for the judge") > 1.0
        time.sleep(1)
        after = worker_children(v._process.pid)
        assert len(after) == 2 and len(set(after) & set(ahead)) == 1  # the unused spare, and a new one
        # A request with a shorter timeout uses a spare whose CPU limit the judge lowers to the run's own
        # (120 s of start-up and 16 calls of 40 s: 760 s); the candidate fails where the limit is another.
        result = v.verify(CPU_LIMIT_CHECK.format(limit=120 + 16 * 40), item["task"], path="cpu_limit.py",
                          static=False, timeout_s=40)
        assert result.verdict == "pass", result.reasons
        assert result.report["worker_ahead"] == "used"
        # A longer one cannot (a hard limit is not raised), and the report says so.
        result = v.verify(item["source"], item["task"], path=item["path"], static=False, timeout_s=50)
        assert result.verdict == "pass" and result.report["worker_ahead"] == "did not fit the run's options"


# scale_add's candidate, which first checks the CPU-time limit it runs under.
CPU_LIMIT_CHECK = '''
import resource
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        limit = resource.getrlimit(resource.RLIMIT_CPU)
        if limit != ({limit}, {limit}):
            raise RuntimeError(f"the worker's CPU limit is {{limit}}")

    def forward(self, x, y):
        return torch.add(y, x, alpha=2.0)
'''


# A C++ extension built by load_inline for the CPU: the compile cache's path without a GPU.
CPU_EXTENSION = '''
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>
torch::Tensor scale_add(torch::Tensor x, torch::Tensor y) {
  auto xc = x.contiguous();
  auto yc = y.contiguous();
  auto out = torch::empty_like(xc);
  const float* xp = xc.data_ptr<float>();
  const float* yp = yc.data_ptr<float>();
  float* op = out.data_ptr<float>();
  for (int64_t i = 0; i < xc.numel(); ++i) op[i] = 2.0f * xp[i] + yp[i];
  return out;
}
"""
ext = load_inline(name="kgate_test_scale_add", cpp_sources=source, functions=["scale_add"])


class ModelNew(nn.Module):
    def forward(self, x, y):
        return ext.scale_add(x, y)
'''


def test_a_build_killed_midway_does_not_block_the_next(kgate, source_dir, tmp_path):
    task = str(source_dir / "corpus" / "runtime" / "tasks" / "scale_add.py")
    with kgate.Verifier(device="cpu", cache_dir=str(tmp_path)) as v:
        first = v.verify(CPU_EXTENSION, task, static=False, timeout_s=300)
        assert first.verdict == "pass", first.reasons
        [key_dir] = [d for d in tmp_path.iterdir() if (d / "kgate_test_scale_add.so").exists()]
        # What a build killed midway leaves: no completion mark, and torch's baton file, which made
        # every later build of this source wait for ever.
        (key_dir / "complete").unlink()
        (key_dir / "lock").write_text("")
        second = v.verify(CPU_EXTENSION, task, static=False, timeout_s=300)
        assert second.verdict == "pass", second.reasons
        assert [c["hit"] for c in second.report["compile_cache"]] == [False]
        assert not (key_dir / "lock").exists()
        third = v.verify(CPU_EXTENSION, task, static=False, timeout_s=300)
        assert [c["hit"] for c in third.report["compile_cache"]] == [True]
