#!/usr/bin/env bash
# The kit as a runtime's repository gets it: packed, installed into an empty project, and run there.
# Fails when the tarball holds development files or when `kit run` does not work from the project.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
# better-sqlite3 compiles from source without a prebuilt binary; node-gyp uses the local Node headers.
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tarball="$work/$(npm pack --silent --pack-destination "$work")"
listing="$(tar -tzf "$tarball")"
if grep -E '^package/(selfcheck|bench|adapters|scripts|fixtures/adapters|\.ci)/|\.test\.ts$|-for-tests\.ts$' <<<"$listing"; then
  echo "package-check: the tarball holds the development files listed above" >&2
  exit 1
fi

# Nothing the package runs may import a package it does not depend on: devDependencies are not installed.
tar -xzf "$tarball" -C "$work"
node --input-type=module -e '
  import { readFileSync, readdirSync } from "node:fs";
  import { builtinModules } from "node:module";
  const root = process.argv[1];
  const { dependencies } = JSON.parse(readFileSync(`${root}/package.json`, "utf8"));
  const packageOf = (specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  const strays = readdirSync(root, { recursive: true })
    .filter((file) => /\.(ts|js|mjs)$/.test(file))
    .flatMap((file) =>
      [...readFileSync(`${root}/${file}`, "utf8").matchAll(/(?:\bfrom|\bimport\(?)\s*["\x27]([^"\x27.][^"\x27]*)["\x27]/g)]
        .map((match) => packageOf(match[1]))
        .filter((name) => !name.startsWith("node:") && !builtinModules.includes(name) && !(name in dependencies))
        .map((name) => `  ${file}: ${name}`),
    );
  if (strays.length > 0) {
    console.error(`package-check: the package imports packages it does not depend on:\n${strays.join("\n")}`);
    process.exit(1);
  }
' "$work/package"

# better-sqlite3, compiled for this Node by the project's own install, is handed to the package's install
# as a local prebuild (prebuild-install's own mechanism): its install script still runs, as the scripts
# allowed below let it, without compiling the same binary a second time (minutes on two cores).
sqlite="$root/node_modules/better-sqlite3"
prebuild="$(node -p '`better-sqlite3-v${require(process.argv[1]).version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`' "$sqlite/package.json")"
mkdir "$work/prebuilds"
tar -czf "$work/prebuilds/$prebuild" -C "$sqlite" build/Release/better_sqlite3.node

mkdir "$work/project"
cd "$work/project"
# The install scripts the kit needs, allowed as the kit's own package.json allows them.
echo '{ "name": "runtime-under-test", "private": true, "allowScripts": { "better-sqlite3": true, "esbuild": true } }' >package.json
# prebuild-install finds its settings in an rc file in any folder above the package it installs.
echo "local-prebuilds=$work/prebuilds" >.prebuild-installrc
npm install --no-audit --no-fund --prefer-offline --foreground-scripts "$tarball" | tee "$work/install.log"
! grep -q '^gyp info' "$work/install.log" || echo "package-check: better-sqlite3 was compiled again: no local prebuild matched" >&2
npx kit run --rule INB-07
npx kit run --adapter node_modules/.bin/kit-reference-adapter --rule INB-07 --junit reports/junit.xml --markdown reports/summary.md
test -s reports/junit.xml && test -s reports/summary.md

# The composite action's run step, with the installed kit as the action's checkout.
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { parse } from "yaml";
  const action = parse(readFileSync(process.argv[1], "utf8"));
  process.stdout.write(action.runs.steps.find((step) => step.name === "Run the conformance suite").run);
' "$root/action.yml" >"$work/action-run.sh"
echo 'known-failures: {}' >known-failures.yaml
GITHUB_ACTION_PATH="$PWD/node_modules/session-runtime-kit" GITHUB_STEP_SUMMARY="$work/step-summary.md" \
  KIT_ADAPTER=node_modules/.bin/kit-reference-adapter KIT_BASELINE=known-failures.yaml KIT_ARGS='--rule INB-07' KIT_REPORTS=reports/action \
  bash "$work/action-run.sh"
grep -q '^## Conformance: ✅ passed' "$work/step-summary.md"
grep -q '"file": "known-failures.yaml"' reports/action/results.json
test -s reports/action/junit.xml && test -s reports/action/report.html && test -s reports/action/results.json
echo "package-check: $(wc -l <<<"$listing") files, $(($(stat -c %s "$tarball") / 1024)) KiB packed"
