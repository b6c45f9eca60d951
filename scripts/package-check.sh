#!/usr/bin/env bash
# The kit as a runtime's repository gets it: packed, installed into an empty project, and run there.
# Fails when the tarball holds development files or when `kit run` does not work from the project.
set -euo pipefail
cd "$(dirname "$0")/.."
# better-sqlite3 compiles from source without a prebuilt binary; node-gyp uses the local Node headers.
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tarball="$work/$(npm pack --silent --pack-destination "$work")"
listing="$(tar -tzf "$tarball")"
if grep -E '^package/(selfcheck|bench|adapters|scripts|\.ci)/|\.test\.ts$|/kit-for-tests\.ts$' <<<"$listing"; then
  echo "package-check: the tarball holds the development files listed above" >&2
  exit 1
fi

mkdir "$work/project"
cd "$work/project"
echo '{ "name": "runtime-under-test", "private": true }' >package.json
npm install --no-audit --no-fund --prefer-offline "$tarball"
npx kit run --rule INB-07
npx kit run --adapter node_modules/.bin/kit-reference-adapter --rule INB-07 --junit reports/junit.xml --markdown reports/summary.md
test -s reports/junit.xml && test -s reports/summary.md
echo "package-check: $(wc -l <<<"$listing") files, $(($(stat -c %s "$tarball") / 1024)) KiB packed"
