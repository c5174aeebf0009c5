#!/usr/bin/env bash
# Installs a released conformance-runner (or, with TOOL=verify-translation-pairing, the
# pairing tool): downloads the archive for this runner's OS and architecture, checks it
# against the release's checksums.txt, unpacks it and puts it on the PATH. Used by
# action.yml and pairing-action/action.yml; runs anywhere with bash and curl.
#
# Environment: VERSION (e.g. 0.1.0, required), TOOL (default conformance-runner), BASE_URL (default the project's GitHub
# releases; a file:// URL works too), RUNNER_OS and RUNNER_ARCH (as GitHub sets them; the
# machine's own when unset), RUNNER_TEMP, GITHUB_PATH (optional).
set -euo pipefail

: "${VERSION:?VERSION is required, e.g. 0.1.0}"
VERSION=${VERSION#v}
BASE_URL=${BASE_URL:-https://github.com/sessionref-kit/sessionref-kit/releases/download}

os=${RUNNER_OS:-$(uname -s)}
case "$os" in
  Linux|linux) os=linux ;;
  macOS|Darwin|darwin) os=darwin ;;
  Windows|windows|MINGW*|MSYS*|CYGWIN*) os=windows ;;
  *) echo "install: unsupported OS $os" >&2; exit 1 ;;
esac
arch=${RUNNER_ARCH:-$(uname -m)}
case "$arch" in
  X64|x86_64|amd64) arch=amd64 ;;
  ARM64|aarch64|arm64) arch=arm64 ;;
  *) echo "install: unsupported architecture $arch" >&2; exit 1 ;;
esac
tool=${TOOL:-conformance-runner}
ext=tar.gz
if [ "$os" = windows ]; then ext=zip; fi
case "$tool" in
  conformance-runner) versionarg=version; name="conformance-runner_${VERSION}_${os}_${arch}.${ext}" ;;
  verify-translation-pairing) versionarg=--version; name="verify-translation-pairing_${VERSION}_${os}_${arch}.${ext}" ;;
  *) echo "install: unknown TOOL $tool" >&2; exit 1 ;;
esac
exe=$tool
if [ "$os" = windows ]; then exe=$tool.exe; fi

dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/${tool}-${VERSION}"
mkdir -p "$dir"
cd "$dir"
curl -fsSL --retry 3 -o "$name" "$BASE_URL/v$VERSION/$name"
curl -fsSL --retry 3 -o checksums.txt "$BASE_URL/v$VERSION/checksums.txt"
line=$(grep "  $name\$" checksums.txt) || { echo "install: $name is not in checksums.txt" >&2; exit 1; }
if command -v sha256sum >/dev/null; then
  echo "$line" | sha256sum -c -
else
  echo "$line" | shasum -a 256 -c -
fi
if [ "$ext" = zip ]; then
  unzip -o -q "$name" "$exe"
else
  tar -xzf "$name" "$exe"
fi
chmod +x "$exe"
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dir" >> "$GITHUB_PATH"
fi
"./$exe" "$versionarg"
echo "installed: $dir/$exe"
