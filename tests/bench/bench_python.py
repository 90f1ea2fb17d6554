"""Calls per second of the kgate Python module on the corpus, against the CLI's per-file cost in the same run.

Usage: [KGATE_BUILD_DIR=build] [KGATE_CPP_ENGINE=tree-sitter|auto|none] .venv/bin/python tests/bench/bench_python.py [ROUNDS]
(ROUNDS default 5; KGATE_CPP_ENGINE default tree-sitter; auto means Clang in a build that has it)

For each round, interleaved so that machine noise hits all alike:
  module   kgate.check(source, path) on every corpus file, one thread, sources already in memory
           (an RL loop has the text in hand; reading files is not the gate's work);
  cli-all  one `kgate check -j1 --format json FILES...` process over all files: start-up, rule
           loading, reading, analysis and the JSON report, divided by the file count;
  cli-one  one process per file (`kgate check -j1 --format json FILE`), what a per-sample subprocess
           reward costs.
The CLI's marginal per-file cost is cli-all minus the cost of a process that checks one empty file
(start-up and rule loading), divided by the file count: the work a process does per file once started.
The medians over the rounds are printed. Both sides use the same C++ engine (--cpp-engine/cpp_engine).
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

root = pathlib.Path(__file__).resolve().parents[2]
build = pathlib.Path(os.environ.get("KGATE_BUILD_DIR", root / "build"))
if not build.is_absolute():
    build = root / build
sys.path.insert(0, str(build / "python"))
import kgate  # noqa: E402

cli = str(build / "tools" / "kgate")
engine = os.environ.get("KGATE_CPP_ENGINE", "tree-sitter")
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5

files = sorted(p for p in (root / "corpus").rglob("*") if p.suffix in (".py", ".cu") and p.is_file())
relative = [str(p.relative_to(root)) for p in files]
sources = [(p.read_text(encoding="utf-8"), rel) for p, rel in zip(files, relative)]
n = len(files)


def run_cli(paths):
    start = time.perf_counter()
    proc = subprocess.run([cli, "check", "-j", "1", "--format", "json", "--cpp-engine", engine, *paths], cwd=root,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"bench_python: kgate check failed ({proc.returncode}): {proc.stderr.decode()}")
    return elapsed


def module_pass():
    start = time.perf_counter()
    for text, rel in sources:
        kgate.check(text, path=rel, cpp_engine=engine)
    return time.perf_counter() - start


with tempfile.TemporaryDirectory() as tmp:
    empty = pathlib.Path(tmp) / "empty.py"
    empty.write_text("x = 1\n")
    kgate.check("x = 1\n")  # rules load once, outside the timing: the module's start-up
    module, cli_all, cli_start, cli_one = [], [], [], []
    for _ in range(rounds):
        module.append(module_pass() / n)
        cli_all.append(run_cli(relative) / n)
        cli_start.append(run_cli([str(empty)]))
        cli_one.append(sum(run_cli([rel]) for rel in relative[:: max(1, n // 20)]) / len(relative[:: max(1, n // 20)]))

m, a, s, o = (statistics.median(x) for x in (module, cli_all, cli_start, cli_one))
marginal = max(a - s / n, 1e-9)
print(f"kgate {kgate.__version__}, {n} corpus files (.py and .cu), cpp engine {engine}, {rounds} rounds, medians, one thread")
print(f"  module   kgate.check             {m * 1e6:9.1f} us/file  {1 / m:8.0f} calls/s")
print(f"  cli-all  one process, all files  {a * 1e6:9.1f} us/file  {1 / a:8.0f} files/s  (start-up + rules: {s * 1e3:.1f} ms/process)")
print(f"  cli      marginal per file       {marginal * 1e6:9.1f} us/file  {1 / marginal:8.0f} files/s")
print(f"  cli-one  one process per file    {o * 1e6:9.1f} us/file  {1 / o:8.0f} files/s")
print(f"module / cli marginal = {m / marginal:.2f} (goal: <= 1.20); module / cli-all = {m / a:.2f}; cli-one / module = {o / m:.0f}x")
