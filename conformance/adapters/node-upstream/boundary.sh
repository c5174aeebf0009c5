#!/usr/bin/env bash
# The boundary mutation pass over the published package: the mutants StrykerJS does not make
# (boundary/mutate.mjs: ±1 on numeric literals, bounds, indexes, slice and Math arguments and
# numeric initializers; Math.floor/ceil/round and max/min swapped; findIndex <-> findLastIndex;
# members of the closed unions projection does not name), each run against the kit's fixed
# checks (features and fixtures) through this adapter on the mutated copy (boundary/run.mjs).
#
# Usage: ./boundary.sh [--profile 0.0.1-rc.1|0.1.0-rc.8|all] [--sample N] [--concurrency N]
#                      [--update-summary]
#   --sample N        N mutants per profile, the same ones every run (CI's sampled pass)
#   --update-summary  copy each profile's summary to boundary-summary/PROFILE.json (committed;
#                     read by boundary_test.go); only for a full pass
#
# Exit 1 when a mutant survives that boundary-equivalent.json does not list, or a listed one is
# killed. Needs `npm ci` here and in profiles/0.1.0-rc.8, and Go to build the runner. Summaries
# and the mutated copies go to boundary/out/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
profiles=(0.0.1-rc.1 0.1.0-rc.8)
sample=()
concurrency=2
update=
while [ $# -gt 0 ]; do
	case "$1" in
	--profile) [ "$2" = all ] || profiles=("$2"); shift 2 ;;
	--sample) sample=(--sample "$2"); shift 2 ;;
	--concurrency) concurrency=$2; shift 2 ;;
	--update-summary) update=1; shift ;;
	-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "boundary.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
if [ -n "$update" ] && [ ${#sample[@]} -gt 0 ]; then
	echo "boundary.sh: --update-summary records a full pass; drop --sample" >&2
	exit 2
fi
out=$PWD/boundary/out
mkdir -p "$out/bin"
(cd "$root" && go build -o "$out/bin/conformance-runner" ./cmd/conformance-runner)
status=0
for profile in "${profiles[@]}"; do
	node boundary/run.mjs "$profile" "$out/bin/conformance-runner" "$out" --concurrency "$concurrency" "${sample[@]}" || status=1
	if [ -n "$update" ]; then mkdir -p boundary-summary && cp "$out/$profile-summary.json" "boundary-summary/$profile.json"; fi
done
exit "$status"
