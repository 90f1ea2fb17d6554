#!/usr/bin/env bash
# The main job: installs and builds KernelGate (tools/setup.sh), runs the static gate over corpus/,
# and checks the outcome per corpus folder: every honest/ file must pass and every cheats/<technique>/
# file must be rejected, and every directory under submissions/ must get the verdict its EXPECT file
# names when checked as one submission. Exit 0 when that holds, 1 when it does not (or kgate itself failed).
# Usage: tools/run-corpus.sh [CORPUS_DIR]   (env: KGATE_BUILD_DIR, default build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

corpus="${1:-corpus}"
build="${KGATE_BUILD_DIR:-build}"

tools/setup.sh

kgate="$build/tools/kgate"
[ -x "$kgate" ] || kgate="$build/kgate"
if [ ! -x "$kgate" ]; then
  echo "run-corpus: no kgate binary under $build/ after tools/setup.sh" >&2
  exit 1
fi

# 1. The text report as a user sees it. corpus/ holds cheats on purpose, so exit 1 is expected here;
#    exit 2 (usage, config or internal error) is not.
echo "== $kgate check -j $(nproc) $corpus/"
set +e
"$kgate" check -j "$(nproc)" "$corpus/"
text_rc=$?
set -e
if [ "$text_rc" -ge 2 ]; then
  echo "run-corpus: kgate check failed with exit code $text_rc" >&2
  exit 1
fi

# 2. The verdicts, machine-read, against the folder each file sits in.
json="$(mktemp)"
trap 'rm -f "$json"' EXIT
set +e
"$kgate" check -j "$(nproc)" --format json "$corpus/" >"$json"
json_rc=$?
set -e
if [ "$json_rc" -ge 2 ]; then
  echo "run-corpus: kgate check --format json failed with exit code $json_rc" >&2
  exit 1
fi

echo
echo "== expected outcome per corpus folder"
python3 - "$json" "$corpus" <<'PY'
import json
import os
import sys

report_path, corpus = sys.argv[1], sys.argv[2]
with open(report_path, encoding="utf-8") as f:
    report = json.load(f)
corpus_abs = os.path.abspath(corpus)

# A file's group is the path up to its `honest` folder (honest/, cpp/honest/) or up to its technique
# folder under `cheats` (cheats/T1/, cpp/cheats/T1/); anything else is unlabelled, which fails the run.
# A cheat must never pass: it is rejected, or unjudged when the gate finds no harness entry in it.
# not-a-submission/ holds kernel modules with no harness entry (operator libraries).
NOT_PASS = ("reject", "unjudged")

def group_of(parts):
    # A workspace's reference.py (beside a solution, giving its dtype contract) is the harness's file.
    if parts[-1] == "reference.py":
        return "references", "not-a-submission"
    for i, part in enumerate(parts[:-1]):
        if part == "honest":
            return "/".join(parts[: i + 1]), "pass"
        if part == "not-a-submission":
            return "/".join(parts[: i + 1]), "not-a-submission"
        if part == "cheats" and i + 2 < len(parts):
            return "/".join(parts[: i + 2]), "reject"
    return "unlabelled", None

groups = {}  # group -> {want, files, ok, bad: [(path, verdict, rules)]}
for entry in report.get("files", []):
    rel = os.path.relpath(os.path.abspath(entry["path"]), corpus_abs)
    # runtime/ holds runtime cheats (judged by `kgate run`); the static gate may or may not flag them.
    # submissions/ holds directories judged as one submission each (step 3).
    if rel.split(os.sep)[0] in ("runtime", "submissions"):
        continue
    group, want = group_of(rel.split(os.sep))
    row = groups.setdefault(group, {"want": want, "files": 0, "ok": 0, "bad": []})
    row["files"] += 1
    verdict = entry.get("verdict")
    if want is not None and (verdict == want or (want == "reject" and verdict in NOT_PASS)):
        row["ok"] += 1
    else:
        row["bad"].append((rel, entry.get("verdict"), sorted({f["rule"] for f in entry.get("findings", [])})))

def order(group):
    # Per prefix ("" then cpp/ ...): honest first, then techniques in id order (F, M, T; numerically).
    if group == "unlabelled":
        return (1, "", 2, "", 0)
    parts = group.split("/")
    if parts[-1] == "honest":
        return (0, "/".join(parts[:-1]), 0, "", 0)
    if parts[-1] == "not-a-submission":
        return (0, "/".join(parts[:-1]), 0, "~", 0)
    tech = parts[-1]
    digits = "".join(c for c in tech if c.isdigit())
    return (0, "/".join(parts[:-2]), 1, tech.rstrip("0123456789"), int(digits) if digits else 0)

headers = ("folder", "expected", "files", "as expected", "status")
rows = []
for group in sorted(groups, key=order):
    row = groups[group]
    want = row["want"] or "(none)"
    label = {"pass": "passed", "reject": "rejected or unjudged", "not-a-submission": "not a submission"}.get(row["want"], "-")
    status = "ok" if not row["bad"] else "FAIL"
    rows.append((group, want, str(row["files"]), f"{row['ok']} {label}", status))
total_files = sum(r["files"] for r in groups.values())
total_ok = sum(r["ok"] for r in groups.values())
failed = [g for g, r in groups.items() if r["bad"]]
rows.append(("total", "", str(total_files), f"{total_ok} as labelled", "ok" if not failed and total_files else "FAIL"))

widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
def line(cells):  # the files column is right-aligned, the others left
    return "  ".join(c.rjust(w) if i == 2 else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
print(line(headers))
print("  ".join("-" * w for w in widths))
for r in rows[:-1]:
    print(line(r))
print("  ".join("-" * w for w in widths))
print(line(rows[-1]))

if failed:
    print()
    for group in sorted(failed, key=order):
        for rel, verdict, rules in groups[group]["bad"]:
            why = "rules: " + ", ".join(rules) if rules else "no findings"
            print(f"unexpected: {rel}: verdict {verdict} (expected {groups[group]['want'] or 'a labelled folder'}; {why})")
if total_files == 0:
    print("run-corpus: kgate analysed no files", file=sys.stderr)
ok = not failed and total_files > 0
print()
print("run-corpus: " + ("every honest file passed, every cheat was rejected or unjudged, and every kernel module was not-a-submission"
                        if ok else "the corpus did NOT come out as labelled"))
sys.exit(0 if ok else 1)
PY

# 3. Directories judged as one submission each (kgate check --submission), against their EXPECT files.
echo
echo "== submissions: $kgate check --submission $corpus/submissions/*/*/"
bash tests/cli/submission_test.sh "$kgate" "$corpus"
