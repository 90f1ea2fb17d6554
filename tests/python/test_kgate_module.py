"""The `kgate` Python module: check() in process, its Result/Finding objects, errors, threads, and
agreement with `kgate check --format json` on every corpus file."""
import concurrent.futures
import json
import subprocess
import sys

import pytest

from conftest import corpus_files

CHEAT = '''
import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)
'''


def read(path):
    return path.read_text(encoding="utf-8")


def test_module_does_not_import_torch(kgate):
    # The reward gate must not pay for torch: importing kgate leaves it unloaded.
    code = "import sys, kgate; kgate.check('x = 1\\n'); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(__import__("pathlib").Path(kgate.__file__).parent.parent)})
    assert out.stdout.strip() == "False"


def test_honest_submission_passes(kgate, source_dir):
    path = source_dir / "corpus/honest/matmul_tiled_cuda.py"
    result = kgate.check(read(path), path="matmul_tiled_cuda.py")
    assert result.verdict == "pass"
    assert result.passed
    if kgate.clang_engine:
        # Its kernel is above the complexity threshold (a warning from rules/metrics, annotated in the corpus).
        assert [(f.rule, f.severity, f.line) for f in result.findings] == [("function-complexity-high", "warning", 27)]
    else:
        # tree-sitter-cuda on embedded C++ (a build without Clang): the pipeline says so with an
        # engine-fallback warning per source, and nothing else may fire on an honest file.
        assert {f.rule for f in result.findings} == {"engine-fallback"}
        assert {f.severity for f in result.findings} == {"warning"}
    assert result.path == "matmul_tiled_cuda.py"
    assert result.format == "kernelbench-cuda"
    assert isinstance(result.metrics, dict) and result.metrics


def test_cheat_is_rejected_with_its_finding(kgate):
    result = kgate.check(CHEAT)
    assert result.verdict == "reject"
    assert not result.passed
    rules = [f.rule for f in result.findings]
    assert "torch-function-in-forward" in rules
    finding = result.findings[rules.index("torch-function-in-forward")]
    assert finding.severity == "error"
    assert (finding.line, finding.col) == (7, 16)
    assert finding.end_line == 7 and finding.end_col > finding.col
    assert "torch.matmul" in finding.message
    assert len(finding.fingerprint) == 16
    assert "torch-function-in-forward" in repr(finding)
    assert "reject" in repr(result)


def test_path_picks_the_file_kind(kgate, source_dir):
    cu = source_dir / "corpus/cpp/cheats/T6/T6_plain_dlsym_mprotect.cu"
    as_cuda = kgate.check(read(cu), path="timer.cu")
    assert as_cuda.verdict == "reject"
    assert "cpp-timer-hijack" in {f.rule for f in as_cuda.findings}
    assert as_cuda.format != kgate.check(CHEAT).format


def test_policy_and_task_change_the_verdict(kgate, source_dir):
    # The same source under two policies: kernelbench rejects torch.matmul in forward; the cli
    # fixture rules' demo task is not needed here, so the policy names come from rules/policies/.
    policies = sorted(p.stem for p in (source_dir / "rules/policies").glob("*.yaml"))
    assert "kernelbench" in policies
    assert kgate.check(CHEAT, policy="kernelbench").verdict == "reject"
    with pytest.raises(ValueError, match="no-such-policy"):
        kgate.check(CHEAT, policy="no-such-policy")
    with pytest.raises(ValueError, match="no_such_task"):
        kgate.check(CHEAT, task="no_such_task")
    with pytest.raises(ValueError, match="not both"):
        kgate.check(CHEAT, task="t", policy="kernelbench")


def test_bad_input_is_a_finding_not_a_crash(kgate):
    assert kgate.check("").findings[0].rule == "input-empty"
    broken = kgate.check("def forward(:\n", path="broken.py")
    assert "input-parse-error" in {f.rule for f in broken.findings}
    binary = kgate.check("\x00\x01\x02 binary", path="blob.py")
    assert binary.verdict == "reject"
    with pytest.raises(ValueError, match="cpp_engine"):
        kgate.check(CHEAT, cpp_engine="gcc")
    with pytest.raises(TypeError):
        kgate.check(42)


def test_gate_with_rules_dir(kgate, source_dir):
    gate = kgate.Gate(str(source_dir / "tests/cli/rules"))
    assert gate.rules_dir.endswith("tests/cli/rules")
    assert len(gate.rule_ids) < len(kgate.Gate().rule_ids)
    with pytest.raises(ValueError, match="problem"):
        kgate.Gate(str(source_dir / "tests/cli/bad-rules"))


def test_threads_share_one_gate_and_agree_with_sequential_calls(kgate, source_dir):
    files = corpus_files(source_dir)
    sources = [(read(p), p.name) for p in files]
    sequential = [[(f.rule, f.line, f.col, f.fingerprint) for f in kgate.check(s, path=n).findings] for s, n in sources]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(3):
            parallel = list(pool.map(lambda item: [(f.rule, f.line, f.col, f.fingerprint)
                                                   for f in kgate.check(item[0], path=item[1]).findings], sources))
            assert parallel == sequential


def cli_report(cli, paths, cwd):
    proc = subprocess.run([cli, "check", "--format", "json", "--cpp-engine", "tree-sitter", *paths], cwd=cwd,
                          capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    return {f["path"]: f for f in json.loads(proc.stdout)["files"]}


def test_agrees_with_the_cli_on_every_corpus_file(kgate, cli, source_dir, monkeypatch):
    # Relative paths resolve sibling sources (multi-file submissions) from the working directory, as
    # the CLI's do: run both from the source tree.
    monkeypatch.chdir(source_dir)
    files = corpus_files(source_dir)
    assert len(files) > 50
    relative = [str(p.relative_to(source_dir)) for p in files]
    report = cli_report(cli, relative, source_dir)
    keys = ("rule", "severity", "message", "line", "col", "end_line", "end_col", "fingerprint", "engine")
    mismatches = []
    for path, rel in zip(files, relative):
        expected = report[rel]
        # The module reads no .kgate.yaml unless named; the CLI reads the nearest one.
        config = path.parent / ".kgate.yaml"
        got = kgate.check(read(path), path=rel, cpp_engine="tree-sitter",
                          config=str(config) if config.exists() else None)
        got_findings = [{k: getattr(f, k) for k in keys} for f in got.findings]
        want_findings = [{k: f[k] for k in keys} for f in expected["findings"]]
        if (got.verdict, got.format, got_findings, got.metrics) != (
                expected["verdict"], expected["format"], want_findings, expected["metrics"]):
            mismatches.append(rel)
    assert mismatches == []


def test_options_judge_as_the_cli_flags_of_the_same_name(kgate, cli, source_dir, tmp_path, monkeypatch):
    # One resolver serves both: the dtype contract (from the reference beside the path, --contract or
    # a config), the harness profile and the task give the same verdict and findings either way.
    monkeypatch.chdir(source_dir)
    cheat = "corpus/cheats/M14/contract_fp32_reference/solution.py"
    config = tmp_path / "kgate.yaml"
    config.write_text("contract: bf16\n")
    cases = [({}, []), ({"contract": "bf16"}, ["--contract", "bf16"]), ({"harness": "gpumode"}, ["--harness", "gpumode"]),
             ({"config": str(config)}, ["--config", str(config)]), ({"task": "rmsnorm"}, ["--task", "rmsnorm"])]
    verdicts = set()
    for kwargs, flags in cases:
        proc = subprocess.run([cli, "check", "--format", "json", "--cpp-engine", "tree-sitter", *flags, cheat],
                              capture_output=True, text=True, check=False)
        assert proc.returncode in (0, 1), proc.stderr
        want = json.loads(proc.stdout)["files"][0]
        got = kgate.check(read(source_dir / cheat), path=cheat, cpp_engine="tree-sitter", **kwargs)
        assert (got.verdict, [(f.rule, f.severity, f.line) for f in got.findings]) == (
            want["verdict"], [(f["rule"], f["severity"], f["line"]) for f in want["findings"]]), kwargs
        verdicts.add((got.verdict, tuple(sorted({f.rule for f in got.findings}))))
    assert len(verdicts) >= 3  # the options do change the answer
    with pytest.raises(ValueError, match="unknown harness profile 'nope'"):
        kgate.check(CHEAT, harness="nope")
    with pytest.raises(ValueError, match="unknown dtype 'fp17'"):
        kgate.check(CHEAT, contract="fp17")
