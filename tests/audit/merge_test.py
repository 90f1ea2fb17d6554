"""kgate audit merge end to end: the corpus audited as three shards and merged equals the corpus
audited in one run (records compared without their timing), and the merged report is written."""
import json
import pathlib
import shutil
import subprocess
import sys


def load(path: pathlib.Path) -> dict:
    records = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        record.pop("elapsed_ms", None)
        records[record["path"]] = record
    return records


def main() -> int:
    kgate, corpus, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    run = lambda *args: subprocess.run([kgate, *args], check=True, capture_output=True, text=True)
    for k in (1, 2, 3):
        run("audit", corpus, "--shard", f"{k}/3", "--out", str(work / f"s{k}"), "-j", "2")
    run("audit", corpus, "--out", str(work / "all"), "-j", "2")
    merged = run("audit", "merge", *(str(work / f"s{k}") for k in (1, 2, 3)), "--out", str(work / "merged"))
    whole, parts = load(work / "all" / "results.jsonl"), load(work / "merged" / "results.jsonl")
    if whole != parts:
        only = sorted(set(whole) ^ set(parts))
        differ = sorted(p for p in set(whole) & set(parts) if whole[p] != parts[p])
        print(f"FAIL: merged log differs: only in one {only[:5]}, different {differ[:5]}")
        return 1
    if not (work / "merged" / "report.html").stat().st_size:
        print("FAIL: no merged report")
        return 1
    # Merging shards made under another policy is refused, and names the setting.
    run("audit", corpus, "--shard", "1/3", "--policy", "repository", "--out", str(work / "other"))
    refused = subprocess.run([kgate, "audit", "merge", str(work / "s1"), str(work / "other"), "--out", str(work / "bad")],
                             capture_output=True, text=True)
    if refused.returncode != 2 or "policy" not in refused.stderr:
        print(f"FAIL: mixed settings: rc {refused.returncode}, {refused.stderr.strip()}")
        return 1
    print(f"ok: {len(whole)} records; {merged.stdout.splitlines()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
