#!/usr/bin/env bash
# The per-file limits through the whole CLI (issue 8): each limit has a flag, and a hostile generated
# file that hits it gets its input-* finding (exit 1) quickly, while an honest file in the same batch
# is still analysed. Every kgate run is bounded by `timeout`, so a stall fails the test instead of
# hanging it. Usage: limits_test.sh KGATE CORPUS_DIR
set -u
kgate="$1"
corpus="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0
honest="$corpus/honest/elementwise_relu_cuda.py"  # load_inline with a cpp_sources and a cuda_sources string

# expect NAME WANT_EXIT WANT_RULE MAX_SECONDS KGATE_ARGS...: exit code, a finding of WANT_RULE in the
# first file, and a wall time under MAX_SECONDS.
expect() {
  local name="$1" want_exit="$2" want_rule="$3" max_s="$4"
  shift 4
  local out rc start end ms
  start=$(date +%s%N)
  out="$(timeout 60 "$kgate" check --format json "$@" 2>&1)"
  rc=$?
  end=$(date +%s%N)
  ms=$(((end - start) / 1000000))
  if [ "$rc" -ne "$want_exit" ]; then
    echo "FAIL $name: exit $rc, expected $want_exit"; echo "$out" | head -c 600; echo; fail=1; return
  fi
  if ! printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); rules=[f["rule"] for f in d["files"][0]["findings"]]; sys.exit(0 if sys.argv[1] in rules else 1)' "$want_rule"; then
    echo "FAIL $name: no $want_rule finding"; echo "$out" | head -c 600; echo; fail=1; return
  fi
  if [ "$ms" -gt $((max_s * 1000)) ]; then
    echo "FAIL $name: took $ms ms, more than ${max_s} s"; fail=1; return
  fi
  echo "ok   $name: exit $rc, $want_rule, $ms ms"
}

# A finding of RULE must not appear (the limit is not hit at its default on an honest file).
expect_clean() {
  local name="$1"
  shift
  local out rc
  out="$(timeout 60 "$kgate" check --format json "$@" 2>&1)"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL $name: exit $rc, expected 0"; echo "$out" | head -c 600; echo; fail=1; return
  fi
  echo "ok   $name: exit 0"
}

expect_clean honest-under-default-limits "$honest"

# --max-file-bytes and --max-nesting (they existed before the other three; their flags are tested here).
expect max-file-bytes 1 input-too-large 20 --max-file-bytes 100 "$honest"
python3 -c 'import sys; open(sys.argv[1], "w").write("y = " + "(" * 60 + "1" + ")" * 60 + "\n")' "$dir/nest60.py"
expect max-nesting 1 input-too-deep 20 --max-nesting 50 "$dir/nest60.py"

# --max-embedded-sources: the honest file embeds two sources.
expect max-embedded-sources 1 input-too-many-sources 20 --max-embedded-sources 1 "$honest"

# --max-file-ms: three megabytes of statements cannot be parsed and walked in 1 ms.
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("import torch\n")
    for i in range(120000):
        f.write("v%d = torch.relu(x) + %d\n" % (i, i))
' "$dir/slow.py"
expect max-file-ms 1 input-too-slow 20 --max-file-ms 1 "$dir/slow.py"
# The deadline also stops the Clang pass: a raw .cu file of 20,000 functions under a 5 ms deadline.
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    for i in range(20000):
        f.write("__global__ void k%d(float* p) { p[threadIdx.x] = %d.0f; }\n" % (i, i))
' "$dir/slow.cu"
expect max-file-ms-clang 1 input-too-slow 30 --max-file-ms 5 "$dir/slow.cu"

# --max-file-memory: a 256 KiB string doubled 10 times folds to a 256 MiB cpp_sources (1.25 GiB with
# its source map, several GiB built along the way); the default limit refuses it early.
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("import torch\nfrom torch.utils.cpp_extension import load_inline\n")
    f.write("s0 = \"" + "A" * 262144 + "\"\n")
    for i in range(1, 11):
        f.write("s%d = s%d + s%d\n" % (i, i - 1, i - 1))
    f.write("ext = load_inline(name=\"bomb\", cpp_sources=s10, cuda_sources=\"\", functions=[\"f\"])\n")
    f.write("class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return ext.f(x)\n")
' "$dir/bomb.py"
expect max-file-memory-default 1 input-too-much-memory 20 "$dir/bomb.py"
# A small limit catches the parsers' own memory on an honest file (tree-sitter's trees, Clang's AST).
expect max-file-memory-flag 1 input-too-much-memory 20 --max-file-memory 20000 "$honest"

# A batch holding every hostile file still analyses the honest one beside them, with no finding.
cp "$honest" "$dir/fine.py"
# (Under a 3 s deadline the bomb may hit either limit first, depending on the machine's load.)
out="$(timeout 120 "$kgate" check -j 2 --format json --max-file-ms 3000 "$dir" 2>&1)"; rc=$?
if [ "$rc" -ne 1 ] || ! printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
by = {f["path"].rsplit("/", 1)[-1]: f for f in d["files"]}
ok = by["fine.py"]["verdict"] == "pass" and not by["fine.py"]["findings"]
ok = ok and any(x["rule"] in ("input-too-much-memory", "input-too-slow") for x in by["bomb.py"]["findings"])
sys.exit(0 if ok else 1)'; then
  echo "FAIL batch: exit $rc, or fine.py not clean, or bomb.py not refused"; echo "$out" | head -c 800; echo; fail=1
else
  echo "ok   batch: the honest file passes beside the hostile ones"
fi

# Bad values of the flags are usage errors (exit 2), not crashes.
for bad in "--max-file-ms -1" "--max-file-memory x" "--max-embedded-sources 0"; do
  # shellcheck disable=SC2086
  timeout 20 "$kgate" check $bad "$honest" >/dev/null 2>&1; rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL usage '$bad': exit $rc, expected 2"; fail=1; else echo "ok   usage '$bad': exit 2"; fi
done
exit "$fail"
