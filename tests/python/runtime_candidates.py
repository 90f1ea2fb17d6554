"""Corpus candidates of the CPU runtime suite (corpus/runtime), with the task each names, and what
`kgate run` says of them: the baseline the Verifier and Ray tests compare with."""
import json
import pathlib
import subprocess

# Two honest, two cheats that get past nothing but the runtime (each fails for a reason of its own).
NAMES = [
    "honest/negative_part.py",
    "honest/scale_add.py",
    "cheats/M12_wrong_under_outliers.py",
    "cheats/M1_unwritten_output.py",
]
EXPECTED = {
    "honest/negative_part.py": ("pass", []),
    "honest/scale_add.py": ("pass", []),
    "cheats/M12_wrong_under_outliers.py": ("fail", ["mismatch"]),
    "cheats/M1_unwritten_output.py": ("fail", ["poison-read"]),
}


def candidate(source_dir: pathlib.Path, name: str) -> dict:
    path = source_dir / "corpus" / "runtime" / name
    source = path.read_text(encoding="utf-8")
    task = next(line.split(":", 1)[1].strip() for line in source.splitlines() if line.startswith("# runtime-task:"))
    return {"key": name, "source": source, "task": str(source_dir / task), "path": path.name, "file": str(path)}


def kgate_run(cli: str, item: dict) -> tuple:
    """`kgate run --quick --format json` as a process: (verdict, reason ids)."""
    out = subprocess.run([cli, "run", "--quick", "--format", "json", "--task", item["task"], item["file"]],
                         capture_output=True, text=True, timeout=300)
    report = json.loads(out.stdout)
    return report["verdict"], [r["id"] for r in report["reasons"]]
