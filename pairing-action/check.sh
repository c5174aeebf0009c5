#!/usr/bin/env bash
# Runs verify-translation-pairing (on the PATH, or PAIRING_BIN) with ARGS (one argument a
# line, no shell quoting), writes its exit code to $GITHUB_OUTPUT as exit-code and its
# output to $GITHUB_STEP_SUMMARY, and exits with that code. Used by pairing-action/action.yml.
set -uo pipefail

bin=${PAIRING_BIN:-verify-translation-pairing}
args=()
while IFS= read -r line; do
  if [ -n "$line" ]; then args+=("$line"); fi
done <<< "${ARGS:-}"

out=$("$bin" "${args[@]}" 2>&1)
code=$?
printf '%s\n' "$out"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  { echo "### Translation pairs"; echo; echo '```'; printf '%s\n' "$out"; echo '```'; } >> "$GITHUB_STEP_SUMMARY"
fi
exit "$code"
