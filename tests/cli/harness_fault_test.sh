#!/usr/bin/env bash
# A failure of the runtime before the submission is loaded is harness-error (exit 3, reason
# harness-fault), never the candidate's crash. The worker's helpers are swapped for a copy
# (KGATE_RUNTIME_PYTHON_DIR, which the judge and the worker both read) that (1) fails at import, before
# the submission is loaded: harness-error; (2) fails in the worker's own preparation of a call, after
# the submission's code ran: the worker is not trusted then (a candidate could raise the runtime's own
# fault), so it is a crash whose message names the runtime's step. (3) A candidate whose forward raises
# is `crashed`. (4) A package that neither the worker nor the judge finds is harness-error
# (missing-module). (5) The reference running out of memory is harness-error.
# Usage: harness_fault_test.sh KGATE SOURCE_DIR
set -u
kgate="$1"
src="$(cd "$2" && pwd)"
task="$src/corpus/runtime/tasks/negative_part.py"
honest="$src/corpus/runtime/honest/negative_part.py"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail=0

run_case() {  # name helpers_dir candidate expected_exit expected_verdict expected_reason
  local name="$1" helpers="$2" candidate="$3" want_exit="$4" want_verdict="$5" want_reason="$6"
  local out rc got
  out="$(KGATE_RUNTIME_PYTHON_DIR="$helpers" "$kgate" run --device cpu --seeds 1 --format json --cache-dir "$scratch/cache" \
        --task "$task" "$candidate" 2>"$scratch/$name.err")"
  rc=$?
  printf '%s' "$out" > "$scratch/out.json"
  got="$(printf '%s' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
reasons = sorted({c["reason"]["id"] for c in r.get("cases", []) if c.get("reason")} | ({r["reason"]["id"]} if r.get("reason") else set()))
print(r["verdict"], " ".join(reasons))' 2>&1)"
  if [ "$rc" -ne "$want_exit" ] || [ "${got%% *}" != "$want_verdict" ] || ! printf '%s' "$got" | grep -qw -- "$want_reason"; then
    echo "FAIL $name: exit $rc, '$got' (expected exit $want_exit, $want_verdict $want_reason)"
    head -c 2000 "$scratch/$name.err"; printf '%s\n' "$out" | head -c 2000
    fail=1
  else
    echo "ok $name: exit $rc, $got"
  fi
}

# (1) The worker's helper module does not import: the worker never gets to the submission.
mkdir -p "$scratch/broken_import"
cp "$src"/runtime/python/*.py "$scratch/broken_import/"
printf '\nraise RuntimeError("a broken install of the runtime")\n' >> "$scratch/broken_import/kgate_worker.py"
run_case broken_import "$scratch/broken_import" "$honest" 3 harness-error harness-fault

# (2) The worker's own preparation of a call fails after the submission is loaded and built.
mkdir -p "$scratch/broken_prepare"
cp "$src"/runtime/python/*.py "$scratch/broken_prepare/"
cat >> "$scratch/broken_prepare/kgate_worker.py" <<'PY'


def prepare_call(model, inputs):
    return _harness_step("preparing the call's data", lambda: 1 / 0)
PY
run_case broken_prepare "$scratch/broken_prepare" "$honest" 1 crashed crashed
if ! grep -q "failed in the worker's runtime code" "$scratch/out.json"; then
  echo "FAIL broken_prepare: the crash does not say the runtime's own step failed"; fail=1
fi

# (3) With the runtime intact, a forward that raises is the candidate's crash.
cat > "$scratch/raises.py" <<'PY'
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        raise ValueError("the candidate's own bug")
PY
run_case candidate_raises "$src/runtime/python" "$scratch/raises.py" 1 crashed crashed

# (4) The submission imports a package that this environment lacks (a kernel language not installed
# where the runtime runs, as CuTe DSL's `cutlass` was on the GPU machine): the environment's limit. The
# judge checks its own interpreter, so a candidate that claims a module the judge has is missing stays
# crashed.
cat > "$scratch/absent_package.py" <<'PY'
import kgate_absent_dsl_package_for_tests  # noqa: F401
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.clamp(torch.neg(torch.abs(x)), min=0.0)
PY
run_case absent_package "$src/runtime/python" "$scratch/absent_package.py" 3 harness-error missing-module
cat > "$scratch/claims_absent.py" <<'PY'
raise ModuleNotFoundError("No module named 'json'", name="json")
PY
run_case claims_absent "$src/runtime/python" "$scratch/claims_absent.py" 1 crashed crashed

# (5) The reference runs out of memory (as on a GPU shared with other runs): the harness's limit, not a
# verdict on the honest candidate.
cat > "$scratch/reference_oom.py" <<'PY'
import torch
import torch.nn as nn

B = 512
D = 512


class Model(nn.Module):
    def forward(self, x):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 6.00 GiB")


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
PY
task="$scratch/reference_oom.py"
run_case reference_out_of_memory "$src/runtime/python" "$honest" 3 harness-error out-of-memory
exit $fail
