#!/usr/bin/env bash
# `kgate check -p DIR` parses a raw .cu file with the flags of its compile_commands.json entry.
# k.cu means two different things depending on -DUSE_LIB, which only compile_commands.json defines
# (in an nvcc command, so the nvcc flag rewriting is exercised): without -p the honest kernel launch
# is analysed (no cpp-library-call); with -p the at::matmul branch is (cpp-library-call).
# Usage: compile_commands_test.sh KGATE [SHIM_DIR]
set -u
kgate="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"  # the test cd's into its temp dir
shims="${2:-$(cd "$(dirname "$0")/../../analyzers/cuda/shims" && pwd)}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

cat > "$dir/k.cu" <<'CU'
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void scale_kernel(const float* x, float* y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

#ifdef USE_LIB
torch::Tensor forward(torch::Tensor a, torch::Tensor b) {
  return at::matmul(a, b);
}
#else
torch::Tensor forward(torch::Tensor a, torch::Tensor b) {
  auto out = torch::empty_like(a);
  const int64_t n = a.numel();
  scale_kernel<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), out.data_ptr<float>(), n);
  return out;
}
#endif
CU

python3 - "$dir" "$shims" <<'PY'
import json, sys
d, shims = sys.argv[1], sys.argv[2]
cmd = f"/usr/local/cuda/bin/nvcc -DUSE_LIB -I{shims} -arch=sm_90 -O3 --use_fast_math -Xcompiler -fPIC -c k.cu -o k.o"
json.dump([{"directory": d, "command": cmd, "file": f"{d}/k.cu"}], open(f"{d}/compile_commands.json", "w"), indent=2)
PY

# rules_of OUT: the rules of the findings, one line, sorted.
rules_of() {
  printf '%s' "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(sorted({f["rule"] for f in d["files"][0]["findings"]})))'
}

out_plain="$(cd "$dir" && "$kgate" check --format json k.cu 2>"$dir/err_plain")"
rc_plain=$?
rules_plain="$(rules_of "$out_plain")" || { echo "FAIL: no JSON from kgate check k.cu (exit $rc_plain)"; cat "$dir/err_plain"; exit 1; }
echo "without -p: exit $rc_plain, rules: ${rules_plain:-<none>}"
case " $rules_plain " in
  *" cpp-library-call "*) echo "FAIL: cpp-library-call reported without -p (USE_LIB is not defined there)"; fail=1 ;;
  *) echo "ok   without -p: no cpp-library-call" ;;
esac

out_p="$(cd "$dir" && "$kgate" check --format json -p "$dir" k.cu 2>"$dir/err_p")"
rc_p=$?
rules_p="$(rules_of "$out_p")" || { echo "FAIL: no JSON from kgate check -p (exit $rc_p)"; cat "$dir/err_p"; exit 1; }
echo "with -p:    exit $rc_p, rules: ${rules_p:-<none>}"
case " $rules_p " in
  *" cpp-library-call "*) echo "ok   with -p: cpp-library-call" ;;
  *) echo "FAIL: with -p $dir, cpp-library-call not reported (-DUSE_LIB from compile_commands.json not applied)"
     printf '%s\n' "$out_p" | head -40; fail=1 ;;
esac
exit $fail
