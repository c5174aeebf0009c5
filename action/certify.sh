#!/usr/bin/env bash
# Certifies a port with conformance-runner (on the PATH, or RUNNER_BIN): writes a JUnit
# report and, through $GITHUB_STEP_SUMMARY, the Markdown summary. The run's exit code goes
# to $GITHUB_OUTPUT as exit-code; this script itself exits 0, so the report is uploaded
# before the action fails. Used by action.yml.
#
# Environment: ADAPTER (the adapter command line, as --adapter takes it; empty certifies
# the embedded reference), ARGS (more runner flags, one per line: no shell quoting),
# JUNIT (report path, default conformance-junit.xml).
set -uo pipefail

bin=${RUNNER_BIN:-conformance-runner}
junit=${JUNIT:-conformance-junit.xml}
args=(--progress never --junit "$junit")
if [ -n "${ADAPTER:-}" ]; then
  args+=(--adapter "$ADAPTER")
fi
while IFS= read -r line; do
  if [ -n "$line" ]; then args+=("$line"); fi
done <<< "${ARGS:-}"

"$bin" "${args[@]}"
code=$?
echo "conformance-runner exited $code"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
  echo "junit=$junit" >> "$GITHUB_OUTPUT"
fi
exit 0
