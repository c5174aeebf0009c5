#!/usr/bin/env bash
# Certifies a port with conformance-runner (on the PATH, or RUNNER_BIN): writes the JUnit,
# JSON and HTML reports and, through $GITHUB_STEP_SUMMARY, the Markdown summary. The run's
# exit code goes to $GITHUB_OUTPUT as exit-code, with the reports' paths and a name for
# their artifact that is unique per job (see below); this script itself exits 0, so the
# reports are uploaded before the action fails. Used by action.yml.
#
# Environment: ADAPTER (the adapter command line, as --adapter takes it; empty certifies
# the embedded reference), ARGS (more runner flags, one per line: no shell quoting),
# JUNIT, JSON, HTML (report paths, default conformance-junit.xml, conformance-report.json,
# conformance-report.html; JSON or HTML "none" skips that report), ARTIFACT (the artifact's
# name; default conformance-JOB[-shard-K-of-N]-HASH, HASH naming the job's adapter, flags,
# folder and runner OS, so the jobs of a matrix, a --shard matrix included, never collide).
set -uo pipefail

bin=${RUNNER_BIN:-conformance-runner}
junit=${JUNIT:-conformance-junit.xml}
json=${JSON:-conformance-report.json}
html=${HTML:-conformance-report.html}
# The upload step runs in the workspace, not in this folder: it gets absolute paths.
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
args=(--progress never --junit "$junit")
paths=$(abs "$junit")
if [ "$json" != none ]; then args+=(--json "$json"); paths+=$'\n'$(abs "$json"); fi
if [ "$html" != none ]; then args+=(--html "$html"); paths+=$'\n'$(abs "$html"); fi
if [ -n "${ADAPTER:-}" ]; then
  args+=(--adapter "$ADAPTER")
fi
shard=
next_is_shard=
while IFS= read -r line; do
  if [ -z "$line" ]; then continue; fi
  args+=("$line")
  if [ -n "$next_is_shard" ]; then shard=$line; next_is_shard=; fi
  case $line in
    --shard=*|-shard=*) shard=${line#*=} ;;
    --shard|-shard) next_is_shard=1 ;;
  esac
done <<< "${ARGS:-}"

artifact=${ARTIFACT:-}
if [ -z "$artifact" ]; then
  hash=$(printf '%s\n' "${ADAPTER:-}" "${ARGS:-}" "$PWD" "${RUNNER_OS:-}" | cksum | cut -d' ' -f1)
  artifact="conformance-${GITHUB_JOB:-run}"
  if [ -n "$shard" ]; then artifact+="-shard-${shard%%/*}-of-${shard#*/}"; fi
  artifact+="-$hash"
  # Artifact names may not hold " : < > | * ? \ / or control characters.
  artifact=$(printf '%s' "$artifact" | tr -c 'A-Za-z0-9._-' '-')
fi

"$bin" "${args[@]}"
code=$?
echo "conformance-runner exited $code"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    echo "junit=$junit"
    echo "artifact-name=$artifact"
    echo "paths<<CONFORMANCE_PATHS_EOF"
    echo "$paths"
    echo "CONFORMANCE_PATHS_EOF"
  } >> "$GITHUB_OUTPUT"
fi
exit 0
