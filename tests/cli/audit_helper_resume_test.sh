#!/usr/bin/env bash
# A resumed audit redoes a submission whose helper module changed: the record keeps the hashes of the
# helper files its analysis followed (kernels.py, imported by solution.py), and a changed helper makes
# the record stale. Before this, the edit went unseen and the old `pass` stood.
# Usage: audit_helper_resume_test.sh KGATE
set -u
kgate="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/sub"
cat > "$work/sub/kernels.py" <<'PY'
import torch
import triton
import triton.language as tl


@triton.jit
def _relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


def relu(x):
    y = torch.empty_like(x)
    _relu[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y
PY
cat > "$work/sub/solution.py" <<'PY'
import torch.nn as nn

import kernels


class ModelNew(nn.Module):
    def forward(self, x):
        return kernels.relu(x)
PY
verdict() {
  python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["path"].endswith("solution.py"): print(r["verdict"])' "$work/out/results.jsonl"
}
"$kgate" audit "$work/sub" --out "$work/out" > /dev/null 2>&1
first="$(verdict)"
# The helper now computes with PyTorch; solution.py itself is unchanged.
sed -i 's/^    return y$/    return torch.relu(x)/' "$work/sub/kernels.py"
summary="$("$kgate" audit "$work/sub" --out "$work/out" 2>&1 | grep 'files (')"
second="$(verdict)"
if [ "$first" != "pass" ] || [ "$second" != "reject" ] || ! printf '%s' "$summary" | grep -q "2 analysed"; then
  echo "FAIL: first run '$first', after the helper edit '$second' ($summary); expected pass, then reject with both files redone"
  exit 1
fi
echo "ok: pass, then reject after the helper edit ($summary)"
