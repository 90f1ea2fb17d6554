#!/usr/bin/env bash
# Output-argument entries whose outputs are known by position only (docs/harness-profiles.md): with
# --task, the parameters after get_inputs()'s tensors, one per tensor the reference returns, are the
# outputs whatever their names. `solve(x, mean, amax, batch, dim)` writing mean and amax is then no
# input mutation; leaving amax unwritten is output-unwritten; writing x stays input-mutation.
# Usage: output_positions_test.sh KGATE SOURCE_DIR
set -u
kgate="$1"
src="$2"
fixtures="$src/tests/cli/fixtures/output-positions"
task="$src/corpus/runtime/tasks/row_stats.py"  # Model.forward returns (mean, amax) of x
fail=0

# shellcheck source-path=SCRIPTDIR source=error_rules_check.sh
source "$(dirname "$0")/error_rules_check.sh"

# Without a task only the names say what is an output: mean and amax may be outputs, so copying into
# them is a warning that asks for the task, never a rejection on a guess.
check names_only 0 "output-argument: none" "$fixtures/row_stats_copy_out.py"
check_warned names_only_warns 0 "output-argument: input-mutation" "$fixtures/row_stats_copy_out.py"
check task_outputs_by_position 0 "output-argument: none" --task "$task" "$fixtures/row_stats_copy_out.py"
check task_second_output_unwritten 1 "output-argument: output-unwritten" --task "$task" \
  "$fixtures/row_stats_second_unwritten.py"
check task_input_still_mutated 1 "output-argument: input-mutation" --task "$task" "$fixtures/row_stats_writes_input.py"
exit $fail
