#!/usr/bin/env bash
# Output-argument entries whose task declares each parameter (docs/harness-profiles.md): a LeetGPU
# style task file's get_solve_signature() says "in", "out" or "inout" per parameter name. With
# --task, those names decide what the entry may write and must leave alone, in Python and in C++:
# `y.zero_()` on the declared output and `data.copy_(...)` on an "inout" buffer are no input mutation,
# and a cudaMemset into an "in" pointer whose const was dropped is cpp-input-mutation. Without the
# task only the profile's output names and the C++ signature's const count.
# Usage: solve_signature_test.sh KGATE SOURCE_DIR
set -u
kgate="$1"
fixtures="$2/tests/cli/fixtures/solve-signature"
fail=0

# shellcheck source-path=SCRIPTDIR source=error_rules_check.sh
source "$(dirname "$0")/error_rules_check.sh"

scale="$fixtures/scale_challenge.py"
reverse="$fixtures/reverse_challenge.py"
check py_names_only 0 "output-argument: none" "$fixtures/scale_zero_first_triton.py"
check_warned py_names_only_warns 0 "output-argument: input-mutation" "$fixtures/scale_zero_first_triton.py"
check py_declared_output 0 "output-argument: none" --task "$scale" "$fixtures/scale_zero_first_triton.py"
check py_inplace_names_only 0 "output-argument: none" "$fixtures/reverse_copy_back_triton.py"
check_warned py_inplace_names_only_warns 0 "output-argument: input-mutation" "$fixtures/reverse_copy_back_triton.py"
check py_declared_inout 0 "output-argument: none" --task "$reverse" "$fixtures/reverse_copy_back_triton.py"
check cu_memset_output 0 "output-argument: none" "$fixtures/scale_memset_output.cu"
check cu_memset_declared_output 0 "output-argument: none" --task "$scale" "$fixtures/scale_memset_output.cu"
# Without the task a writable x is neither judged as input nor as output (a known gap: README).
check cu_writable_input_names_only 0 "output-argument: none" "$fixtures/scale_clears_writable_input.cu"
check cu_declared_input_cleared 1 "output-argument: cpp-input-mutation" --task "$scale" \
  "$fixtures/scale_clears_writable_input.cu"
check cu_declared_input_cleared_tree_sitter 1 "output-argument: cpp-input-mutation" --cpp-engine tree-sitter \
  --task "$scale" "$fixtures/scale_clears_writable_input.cu"
exit $fail
