#!/usr/bin/env bash
# `kgate audit --ray`: the runtime stage on a local Ray cluster (python -m kgate.ray serve, started by
# the audit) gives every file the record a local `--runtime cpu` audit gives it; a runtime server that
# dies holding a file is started again and the file is judged, not lost; a resumed audit reuses every
# record. Usage: audit_ray_test.sh KGATE REPO_ROOT WORK_DIR PYTHON PACKAGE_PARENT
set -euo pipefail
kgate=$1 root=$2 work=$3 python=$4 package=$5
rm -rf "$work" && mkdir -p "$work/in"
cd "$root"  # the candidates' `# runtime-task:` lines are relative to the repository root
cp corpus/runtime/honest/negative_part.py corpus/runtime/honest/scale_add.py \
   corpus/runtime/cheats/M12_wrong_under_outliers.py corpus/runtime/cheats/M1_unwritten_output.py "$work/in/"
printf 'rules:\n  disable: [forward-reaches-no-kernel, torch-function-in-forward, tensor-method-in-forward]\n' > "$work/in/.kgate.yaml"
fail() { echo "FAIL: $*"; exit 1; }
export PYTHONPATH="$package${PYTHONPATH:+:$PYTHONPATH}"

"$kgate" audit --out "$work/local" --runtime cpu --runtime-seeds 1 -j 2 "$work/in" > "$work/local.txt" || fail "local audit exited $?"
"$kgate" audit --out "$work/ray" --runtime cpu --runtime-seeds 1 --ray -j 4 "$work/in" > "$work/ray.txt" || fail "ray audit exited $?"
cat "$work/ray.txt"
grep -q '^audit: runtime on cpu: 1 fail, 2 pass, 0 without a report, 1 skipped$' "$work/ray.txt" || fail "ray summary line"

# broken_server NAME BODY: an audit whose runtime server (KGATE_RAY_PYTHON stands in for the Python)
# runs the shell BODY the first time, then the real one; the file a broken server held is judged again,
# never lost.
broken_server() {
  local name=$1 body=$2
  printf '#!/usr/bin/env bash\nif [ ! -e "%s" ]; then\n  touch "%s"\n%s\nfi\nexec "%s" "$@"\n' \
    "$work/$name" "$work/$name" "$body" "$python" > "$work/$name-python"
  chmod +x "$work/$name-python"
  KGATE_RAY_PYTHON="$work/$name-python" "$kgate" audit --out "$work/$name-out" --runtime cpu --runtime-seeds 1 \
    --ray -j 2 "$work/in" > "$work/$name.txt" || fail "audit with a $name server exited $?"
  [ -e "$work/$name" ] || fail "the $name server never ran"
  grep -q '^audit: runtime on cpu: 1 fail, 2 pass, 0 without a report, 1 skipped$' "$work/$name.txt" ||
    fail "$name-server summary line: $(cat "$work/$name.txt")"
}

# A server that dies holding its first request.
broken_server dying '  echo '\''{"ready": true, "actors": 1}'\''
  read -r request
  exit 1'

# A server that closes its input at once but holds its output open a while (a process dying slowly):
# every request's write fails before the end of its output is seen, and the retry must start another
# server, not write to this one again.
broken_server deaf '  exec 0<&-
  echo '\''{"ready": true, "actors": 1}'\''
  sleep 5
  exit 1'

"$python" - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def records(name):
    return {r["path"].rsplit("/", 1)[1]: r for r in map(json.loads, open(f"{work}/{name}/results.jsonl"))}
def runtime(record):
    rt = record["runtime"]
    return rt.get("skipped") or (rt["verdict"], [r["id"] for r in rt["reasons"]], rt["task"], rt["profile"])
local = records("local")
for name in ("ray", "dying-out", "deaf-out"):
    other = records(name)
    if sorted(other) != sorted(local):
        sys.exit(f"FAIL: {name} has records {sorted(other)}, local {sorted(local)}")
    for path, record in local.items():
        if runtime(record) != runtime(other[path]) or record["verdict"] != other[path]["verdict"]:
            sys.exit(f"FAIL: {name} {path}: {runtime(other[path])} != local {runtime(record)}")
PY

"$kgate" audit --out "$work/ray" --runtime cpu --runtime-seeds 1 --ray "$work/in" > "$work/resume.txt" || fail "resume exited $?"
grep -q '0 analysed, 4 already done' "$work/resume.txt" || fail "resume re-ran files: $(cat "$work/resume.txt")"
echo "audit --ray: ok"
