#!/usr/bin/env bash
# StrykerJS over the published package, with the kit as Stryker's command test runner.
#
# Mutates the published lib/index.js of each profile and the collaborator functions the
# contract runs through (TextRetainer, isCompactCheckpointSource, createUserMessage), and
# kills mutants with the certification's seed-independent parts (features and fixtures) run
# by a prebuilt conformance-runner against this adapter. Writes Stryker's HTML and JSON
# reports under stryker/out/PROFILE/reports/ and a summary stryker/out/PROFILE-summary.json
# (git-ignored), and prints the score of non-equivalent mutants.
#
# Usage: ./stryker.sh [--profile 0.0.1-rc.1|0.1.0-rc.8|all] [--concurrency N] [--only REGIONS]
#   --only REGIONS   mutate only these regions of stryker/regions.mjs (comma-separated): a
#                    sampled pass (CI), or the regions in which a profile differs
#   --rerun          mutate only what the last run of the profile left undetected (fast
#                    iteration on survivors)
#   --update-summary copy the summary to stryker-summary/PROFILE.json (committed; read by
#                    stryker_test.go)
#
# Exit 1 when a mutant survives that stryker-equivalent.json does not list, or a listed one is
# killed (stryker/check.mjs). Needs `npm ci` here and in profiles/0.1.0-rc.8 (as .ci/run
# does); installs Stryker and Node 22 (Stryker 10 needs it) into stryker/node_modules.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
root=$(cd ../../.. && pwd)

profiles=(0.0.1-rc.1 0.1.0-rc.8)
concurrency=2
only=
rerun=
update=
while [ $# -gt 0 ]; do
	case "$1" in
	--profile) [ "$2" = all ] || profiles=("$2"); shift 2 ;;
	--concurrency) concurrency=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--rerun) rerun=1; shift ;;
	--update-summary) update=1; shift ;;
	-h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "stryker.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

# Reinstall when the lockfile changed since the last install (a copy of it is the stamp).
if ! cmp -s stryker/package-lock.json stryker/node_modules/.installed-lock.json 2>/dev/null; then
	(cd stryker && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.installed-lock.json)
fi
node22=$here/stryker/node_modules/.bin/node
"$node22" --version | grep -q '^v22\.' || { echo "stryker.sh: $node22 is not Node 22" >&2; exit 3; }

out=$here/stryker/out
mkdir -p "$out/bin"
(cd "$root" && go build -o "$out/bin/conformance-runner" ./cmd/conformance-runner)

status=0
for profile in "${profiles[@]}"; do
	project=$out/$profile
	args=()
	[ -z "$only" ] || args=(--only "$only")
	if [ -n "$rerun" ]; then
		# Only the mutants the last full run left undetected, as check.mjs recorded them.
		cp "$project/reports/undetected-ranges.json" "$out/$profile-rerun.json"
		args=(--ranges "$out/$profile-rerun.json")
	fi
	node stryker/prepare.mjs "$profile" "$project" "$out/bin/conformance-runner" "${args[@]}"
	start=$(date +%s)
	(cd "$project" && "$node22" "$here/stryker/node_modules/@stryker-mutator/core/bin/stryker.js" run \
		--concurrency "$concurrency" --logLevel warn) > "$out/$profile.log" 2>&1 || {
		echo "stryker.sh: Stryker failed for $profile (log: $out/$profile.log)" >&2
		tail -20 "$out/$profile.log" >&2
		status=1
		continue
	}
	echo "stryker $profile: $(( $(date +%s) - start ))s at concurrency $concurrency; reports: $project/reports/mutation.html"
	summary=$out/$profile-summary.json
	check=(--regions "${only:-all}")
	if [ -n "$only$rerun" ]; then check+=(--sampled); fi
	node stryker/check.mjs "$profile" "$project/reports/mutation.json" "$summary" "${check[@]}" || status=1
	if [ -n "$update" ]; then mkdir -p stryker-summary && cp "$summary" "stryker-summary/$profile.json"; fi
done
exit "$status"
