#!/usr/bin/env python3
"""The folders of analyzers/ form layers: a file includes headers of its own folder and of folders
before it in LAYERS, never after (docs/architecture.md). Fails with every include that breaks that,
and when a folder is missing from LAYERS.

Usage: layers_test.py SOURCE_DIR"""
import pathlib
import re
import sys

LAYERS = ["core", "tasks", "treesitter", "ingest", "harness", "python", "metrics", "cuda", "ptx", "rules", "pipeline",
          "report", "audit"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"analyzers/([^/"]+)/', re.M)


def main(source_dir: str) -> int:
    root = pathlib.Path(source_dir) / "analyzers"
    rank = {name: i for i, name in enumerate(LAYERS)}
    problems = []
    folders = sorted(p.name for p in root.iterdir() if p.is_dir())
    problems += [f"analyzers/{name}/ is not in LAYERS" for name in folders if name not in rank]
    files = [p for p in root.rglob("*") if p.suffix in (".h", ".cpp")]
    for path in files:
        own = path.relative_to(root).parts[0]
        if own not in rank:
            continue
        for match in INCLUDE.finditer(path.read_text(encoding="utf-8")):
            other = match.group(1)
            if other != own and rank.get(other, len(LAYERS)) > rank[own]:
                line = path.read_text(encoding="utf-8").count("\n", 0, match.start()) + 1
                problems.append(f"{path.relative_to(root.parent)}:{line}: analyzers/{own} includes analyzers/{other}")
    for problem in problems:
        print(problem)
    print(f"{len(files)} files, {len(folders)} folders, {len(problems)} problem(s)")
    return 1 if problems or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
