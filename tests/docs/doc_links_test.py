#!/usr/bin/env python3
"""Every path a doc names must exist: the README and docs/**/*.md are checked for
  - Markdown links to relative targets: [text](docs/cli.md), [x](../rules/schema.json#anchor);
  - paths in backticks that start with a top-level folder of the repository (`tools/setup.sh`,
    `analyzers/core/data_dir.h`), unless they hold a placeholder (<, >, *, {, $, ...) or a space.
Links resolve against the doc's folder, backticked paths against the repository root, as the docs
write them. Usage: doc_links_test.py REPO_ROOT. Prints every dead reference; exits 1 if any."""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
TOP = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not d.startswith(".")
       and d not in ("build", "out")} | {".ci", ".pre-commit-hooks.yaml", ".kgate.yaml"}
PLACEHOLDER = re.compile(r"[<>*{}$|\[\] ]|\.\.\.|…")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^\s*```")

docs = [os.path.join(root, "README.md")]
for dirpath, _, names in os.walk(os.path.join(root, "docs")):
    docs += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".md")]

dead = []
checked = 0
for doc in docs:
    rel_doc = os.path.relpath(doc, root)
    in_fence = False
    for number, line in enumerate(open(doc, encoding="utf-8"), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # a URL or an anchor in the same page
            path = target.split("#", 1)[0]
            checked += 1
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(doc), path))):
                dead.append(f"{rel_doc}:{number}: link to {target}")
        for code in CODE.findall(line):
            first = code.split("/", 1)[0]
            if "/" not in code or first not in TOP or PLACEHOLDER.search(code):
                continue
            path = code.split(":", 1)[0].rstrip(".,;")  # `file.cpp:42` names a line of a file
            checked += 1
            if not os.path.exists(os.path.join(root, path)):
                dead.append(f"{rel_doc}:{number}: path `{code}`")

for d in dead:
    print("dead:", d)
print(f"{len(docs)} docs, {checked} references, {len(dead)} dead")
sys.exit(1 if dead else 0)
