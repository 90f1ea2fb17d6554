#!/usr/bin/env bash
# Hostile and broken input through the whole CLI: each case must end with a diagnostic and the exit
# code of the contract (1 for an error finding, 0 for a warning), never a crash or a hang (ctest's
# TIMEOUT bounds the run). Usage: bad_input_test.sh KGATE
set -u
kgate="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

# expect CASE FILE EXIT RULE: exit code and the rule of the first finding.
expect() {
  local name="$1" file="$2" want_exit="$3" want_rule="$4"
  local out rc
  out="$("$kgate" check --format json "$file" 2>&1)"
  rc=$?
  if [ "$rc" -ne "$want_exit" ]; then
    echo "FAIL $name: exit $rc, expected $want_exit"; echo "$out" | head -5; fail=1; return
  fi
  if ! printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); rules=[f["rule"] for f in d["files"][0]["findings"]]; sys.exit(0 if sys.argv[1] in rules else 1)' "$want_rule"; then
    echo "FAIL $name: no $want_rule finding"; echo "$out" | head -5; fail=1; return
  fi
  echo "ok   $name: exit $rc, $want_rule"
}

printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00' > "$dir/binary.py"
head -c 4096 /dev/urandom >> "$dir/binary.py"
expect binary "$dir/binary.py" 1 input-binary

printf 'x = "caf\xe9"\nclass ModelNew: pass\n' > "$dir/latin1.py"
expect invalid-utf8 "$dir/latin1.py" 1 input-invalid-utf8

printf 'import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x)\n        return x +\n' > "$dir/syntax.py"
expect syntax-error "$dir/syntax.py" 1 input-parse-error

: > "$dir/empty.py"
expect empty "$dir/empty.py" 0 input-empty

python3 -c 'import sys; open(sys.argv[1], "w").write("x = 1\n" * (10 * 1024 * 1024 // 6 + 1))' "$dir/huge.py"
expect ten-megabytes "$dir/huge.py" 1 input-too-large

python3 -c 'import sys; open(sys.argv[1], "w").write("y = " + "(" * 10000 + "1" + ")" * 10000 + "\n")' "$dir/deep.py"
expect nesting-10000 "$dir/deep.py" 1 input-too-deep

python3 -c 'import sys; open(sys.argv[1], "w").write("y = " + "[" * 10000 + "]" * 10000 + "\n")' "$dir/deep_list.py"
expect nesting-10000-lists "$dir/deep_list.py" 1 input-too-deep

printf 'hello\n' > "$dir/notes.txt"
expect unknown-format "$dir/notes.txt" 1 input-unknown-format

# A template kernel whose parameter list is broken, launched with explicit template arguments: NVRTC 13.0
# segfaults on it (the fuzzer found it in a mutated extension source). The PTX witness runs NVRTC in its
# helper process, so the crash is a note and kgate goes on (a fresh cache directory: NVRTC really runs).
cat > "$dir/nvrtc_crash.cu" <<'CU'
template <typename T>
__global__ void copy_kernel(co,st T* src, T* dst) { dst[0] = src[0]; }
void launch(const float* s, float* d) { copy_kernel<float><<<1, 1>>>(s, d); }
CU
KGATE_CACHE_DIR="$dir/cache" expect nvrtc-crash "$dir/nvrtc_crash.cu" 0 ptx-witness-not-run

printf '__global__ void k(float* p) { p[threadIdx.x] = 0; ' > "$dir/broken.cu"
python3 -c 'import sys; open(sys.argv[1], "a").write("{" * 10000)' "$dir/broken.cu"
# Raw C++ that no engine can make sense of is reported (the weaker engine's warning says why), not fatal.
out="$("$kgate" check "$dir/broken.cu" 2>&1)"; rc=$?
if [ "$rc" -gt 1 ] || ! printf '%s' "$out" | grep -q 'engine-fallback\|input-parse-error'; then
  echo "FAIL broken-cu: exit $rc"; echo "$out" | tail -3; fail=1
else
  echo "ok   broken-cu: exit $rc, reported"
fi

# A batch with all of them still analyses the honest file next to them.
cat > "$dir/fine.py" <<'PY'
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
PY
out="$("$kgate" check -j 2 --format json "$dir" 2>&1)"; rc=$?
if [ "$rc" -ne 1 ] || ! printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); f=[x for x in d["files"] if x["path"].endswith("fine.py")][0]; sys.exit(0 if f["verdict"]=="pass" and not f["findings"] else 1)'; then
  echo "FAIL batch: exit $rc or fine.py not clean"; fail=1
else
  echo "ok   batch: the clean file passes beside the broken ones"
fi
exit "$fail"
