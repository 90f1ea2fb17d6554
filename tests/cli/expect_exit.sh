#!/usr/bin/env bash
# Runs a command and passes when its exit status is the expected one: expect_exit.sh CODE CMD [ARGS...]
expected="$1"
shift
output="$("$@" 2>&1)"
status=$?
if [[ "$status" != "$expected" ]]; then
  echo "expected exit status $expected, got $status from: $*"
  echo "$output"
  exit 1
fi
echo "ok: exit $status from: $*"
