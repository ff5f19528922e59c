#!/usr/bin/env bash
# npm run test:runtimes: the engine tier (node scripts/tests.js engine: the suites whose outcome
# depends on the SQLite engine, CONTRIBUTING.md) on the runtimes users have besides the machine's
# Node, each fetched as a package from the npm registry, each on its own engine:
#   Node 22 and Node 24 (npm package `node`)  -> node:sqlite
#   Bun (npm package `bun`)                    -> bun:sqlite
# (The machine's Node runs them on better-sqlite3 in `npm test`.) First every runtime, the
# machine's Node too, writes store files into one folder; then each runtime's suites, which
# include test/runtimes/cross-runtime.test.js, open all of them. Each runtime also runs the corpus
# suites that go through the engine (corpora, collection-round-trip; they need ../shared beside
# the repository). The command line, servers, formats and the slow tier run once, on the
# machine's Node (npm test, npm run test:slow). Exits non-zero if anything failed.
# RUNTIMES="node@22 node@24 bun@1" chooses which to run (WASM="" leaves out the SQLite WASM run). Node 22.13.0, the oldest node:sqlite
# the store supports (no setReturnArrays, isTransaction or unknown named parameters, which the
# adapter then makes up for), runs the seam's own suites (OLDEST_NODE="" leaves it out).
set -uo pipefail
cd "$(dirname "$0")/../.."

RUNTIMES=${RUNTIMES:-"node@22 node@24 bun@1"}
OLDEST_NODE=${OLDEST_NODE-node@22.13.0}
# On every runtime: the engine tier, the corpus suites that go through the engine (they need
# ../shared) and the check of the files every runtime wrote (runtimes/cross-runtime.test.js).
CROSS="dist/test/cross-engine.test.js dist/test/runtimes/cross-runtime.test.js"
SUITES="$(node scripts/tests.js engine --list | tr '\n' ' ') dist/test/corpus/corpora.test.js dist/test/corpus/collection-round-trip.test.js dist/test/runtimes/cross-runtime.test.js"
# Files side by side on the Node runtimes, as npm test runs them (Bun: a file per process, below).
CONCURRENCY=${TEST_CONCURRENCY:-$(($(node -p 'require("node:os").availableParallelism()') + 1))}
# The platform-free layers with no SQLite in them (the rule grammar, the network policy, the
# fixture site the engine's tests read, the book sources' JavaScript sandbox and the Worker's
# replace rules in it): on every runtime, Bun included. The sandbox's engines compile its WASM
# differently (docs/sandbox.md: stack on V8, a lane renewed on Bun, each test bounded).
PURE="dist/test/sources-rules.test.js dist/test/sources-jsoup.test.js dist/test/sources-http-codec.test.js dist/test/net-policy.test.js dist/test/fixture-site.test.js
  dist/test/sources-sandbox.test.js dist/test/worker-sandbox-rules.test.js"
SEAM_SUITES="dist/test/driver.test.js dist/test/seam.test.js $CROSS dist/test/changes.test.js dist/test/tables.test.js"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/legado-runtimes-XXXXXX")
export LEGADO_STORE_CROSS_DIR="$WORK/cross"
mkdir -p "$LEGADO_STORE_CROSS_DIR"
failed=()

# The command that runs a runtime fetched from the registry (npx keeps it in npm's cache).
runtime_cmd() {
  case $1 in
    node@*) echo "npx -y -p $1 node" ;;
    bun@*) echo "npx -y -p $1 bun" ;;
  esac
}
engine_of() {
  case $1 in
    node@*) echo node:sqlite ;;
    bun@*) echo bun:sqlite ;;
  esac
}

echo "== writing store files with every runtime into $LEGADO_STORE_CROSS_DIR"
node dist/test/helpers/cross-engine.js "$LEGADO_STORE_CROSS_DIR" || failed+=("write on node $(node --version)")
for rt in $RUNTIMES; do
  cmd=$(runtime_cmd "$rt")
  LEGADO_STORE_DRIVER=$(engine_of "$rt") $cmd dist/test/helpers/cross-engine.js "$LEGADO_STORE_CROSS_DIR" 2> >(grep -v '^npm warn' >&2) ||
    failed+=("write on $rt")
done

echo
echo "== the machine's Node ($(node --version)), better-sqlite3: $CROSS"
node --test $CROSS > "$WORK/node-machine.log" 2>&1 || failed+=("cross-engine on node $(node --version)")
grep -E '^# (checked|tests|pass|fail|skipped)' "$WORK/node-machine.log"

for rt in $RUNTIMES; do
  cmd=$(runtime_cmd "$rt")
  engine=$(engine_of "$rt")
  export LEGADO_STORE_DRIVER=$engine
  log="$WORK/$rt.log"
  echo
  case $rt in
    node@*)
      version=$($cmd --version 2> /dev/null)
      echo "== Node $version ($rt from the npm registry), LEGADO_STORE_DRIVER=$engine: node --test $SUITES $PURE"
      if ! $cmd --test --test-concurrency="$CONCURRENCY" --test-reporter=tap $SUITES $PURE > "$log" 2>&1; then failed+=("$rt"); fi
      grep -E '^# (checked|tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)' "$log"
      grep -E -A14 '^ *not ok' "$log" | head -150 || true
      ;;
    bun@*)
      version=$($cmd --version 2> /dev/null)
      # One `bun test` per file: Bun runs all files of one call in one process, where one
      # file's cleanup (after() removing its temporary folder) would reach the next file's
      # shared helpers. A file per process is what node --test does too.
      echo "== Bun $version ($rt from the npm registry), LEGADO_STORE_DRIVER=$engine: bun test <file>, for each of $SUITES $PURE"
      pass=0 fail=0 skip=0 files=0
      : > "$log"
      for f in $SUITES $PURE; do
        files=$((files + 1))
        out=$($cmd test --timeout 600000 "./$f" 2>&1)
        status=$?
        echo "$out" >> "$log"
        p=$(echo "$out" | grep -Eo '^ *[0-9]+ pass' | grep -Eo '[0-9]+' || echo 0)
        x=$(echo "$out" | grep -Eo '^ *[0-9]+ fail' | grep -Eo '[0-9]+' || echo 0)
        s=$(echo "$out" | grep -Eo '^ *[0-9]+ skip' | grep -Eo '[0-9]+' || echo 0)
        pass=$((pass + p)) fail=$((fail + x)) skip=$((skip + s))
        echo "$out" | grep -E '^checked ' | sed 's/^/# /'
        if [ $status -ne 0 ]; then
          failed+=("$rt $f")
          echo "$out" | grep -E '^\(fail\)' | sed "s|^|$f: |"
        fi
      done
      echo "# files $files"
      echo "# tests $((pass + fail + skip))"
      echo "# pass $pass"
      echo "# fail $fail"
      echo "# skipped $skip"
      ;;
  esac
done

if [ -n "$OLDEST_NODE" ]; then
  cmd=$(runtime_cmd "$OLDEST_NODE")
  log="$WORK/$OLDEST_NODE.log"
  export LEGADO_STORE_DRIVER=node:sqlite
  echo
  echo "== Node $($cmd --version 2> /dev/null) ($OLDEST_NODE), LEGADO_STORE_DRIVER=node:sqlite: node --test $SEAM_SUITES"
  if ! $cmd --test --test-concurrency="$CONCURRENCY" --test-reporter=tap $SEAM_SUITES > "$log" 2>&1; then failed+=("$OLDEST_NODE"); fi
  grep -E '^# (checked|tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)' "$log"
  grep -E -A14 '^ *not ok' "$log" | head -150 || true
fi

# SQLite WASM (the browser's engine) on the machine's Node, memory storage. Under Node the WASM
# build has no file system, so the suites about files on disk (-wal/-shm files, read-only
# folders, other processes, migrating a file in place, the CLI) cannot run on it; the browser
# suite (npm run test:browser) covers its persistent storage, OPFS, in a real Chromium.
WASM_SUITES="tables constraints like schema schema-changes schema-versions seam table-fast-paths types-exact change-flags changes-transaction
  domain-books domain-cache domain-chapters domain-cookies domain-read-records domain-replace-rules domain-rss
  domain-rules domain-schema domain-search-keywords domain-sources
  backup-exact backup-export backup-gson backup-import backup-json-split backup-json-stream backup-records
  backup-versions backup-zip webdav-faults webdav-sync webdav-synctime webdav-two-stores
  corpus/corpora corpus/collection-round-trip"
if [ "${WASM-1}" != "" ]; then
  files=$(for s in $WASM_SUITES; do echo "dist/test/$s.test.js"; done)
  log="$WORK/wasm.log"
  echo
  echo "== SQLite WASM ($(node -p "require('./node_modules/@sqlite.org/sqlite-wasm/package.json').version"), memory storage) on the machine's Node, LEGADO_STORE_DRIVER=wasm: node --import dist/test/runtimes/wasm-preload.js --test <$(echo $WASM_SUITES | wc -w) suites>"
  if ! LEGADO_STORE_DRIVER=wasm node --import ./dist/test/runtimes/wasm-preload.js --test --test-concurrency="$CONCURRENCY" --test-reporter=tap $files > "$log" 2>&1; then failed+=("wasm"); fi
  grep -a -E '^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)' "$log"
  grep -a -E -A14 '^ *not ok' "$log" | head -150 || true
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "test:runtimes FAILED: ${failed[*]}"
  echo "(full logs in $WORK; rerun some with RUNTIMES=\"node@22\" npm run test:runtimes)"
  exit 1
fi
rm -rf "$WORK"
echo "test:runtimes passed: $RUNTIMES, and the files each of them and the machine's Node wrote opened on all of them"
