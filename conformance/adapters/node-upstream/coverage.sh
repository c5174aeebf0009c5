#!/usr/bin/env bash
# Branch coverage of the published package while it is certified: V8 coverage
# (NODE_V8_COVERAGE) of the adapter processes during the seed-independent parts of the
# certification (features and fixtures; the properties can only add to it), per profile.
# Every block of the contract's code (stryker/regions.mjs) must be reached, or listed in
# coverage-unreached.json with the reason no public call reaches it (stryker/coverage.mjs).
#
# Usage: ./coverage.sh [0.0.1-rc.1|0.1.0-rc.8 ...]   (default: both)
# Needs `npm ci` here and in profiles/0.1.0-rc.8, as .ci/run does.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
root=$(cd ../../.. && pwd)
if [ "$#" -eq 0 ]; then set -- 0.0.1-rc.1 0.1.0-rc.8; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/conformance-runner" ./cmd/conformance-runner)

status=0
for profile in "$@"; do
	flags=()
	[ "$profile" = 0.0.1-rc.1 ] || flags=(--profile "$profile" --require-all)
	mkdir -p "$tmp/$profile"
	NODE_V8_COVERAGE=$tmp/$profile "$tmp/conformance-runner" --progress never --part features,fixtures "${flags[@]}" \
		--adapter "node $here/adapter.js --profile $profile" > "$tmp/$profile.txt" 2>&1 || {
		echo "coverage.sh: the certification of $profile failed" >&2; tail -20 "$tmp/$profile.txt" >&2; status=1; continue
	}
	node stryker/coverage.mjs "$profile" "$tmp/$profile" || status=1
done
exit "$status"
