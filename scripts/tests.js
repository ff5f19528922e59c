// The test tiers (CONTRIBUTING.md, "How to run each test tier"), over the compiled suites in
// dist/test. Plain JavaScript so that test/runtimes/run.sh can ask for a list before anything
// else runs.
//   node scripts/tests.js unit     every suite in dist/test and its sub-folders but corpus/,
//                                  browser/, runtimes/, worker/ and the slow ones, files run side by side
//   node scripts/tests.js engine   the suites whose outcome depends on the SQLite engine (the seam,
//                                  tables, domain, backup, migrate, ...): run on every runtime
//   node scripts/tests.js slow     the slow suites (pack, kills, scale, real servers and
//                                  processes): run once, one file at a time
//   add --list to print the files instead of running them.
// TEST_CONCURRENCY=N sets how many files run at once (default: CPUs + 1; see CONTRIBUTING.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const base = join(root, 'dist', 'test');

/** Folders with a tier of their own: corpus (npm run test:corpus), browser, runtimes, worker (npm run test:worker). */
const OWN_TIER = new Set(['corpus', 'browser', 'runtimes', 'worker', 'helpers', 'fixtures']);

/** Slow: a packed install, processes killed at every step, large stores, real servers and processes. */
const SLOW = ['pack', 'backup-kill', 'migrate-kill', 'backup-scale', 'bench-smoke', 'cli-query-bounds', 'serve-cli', 'webdav-cli', 'webdav-rclone'];

/**
 * What depends on the engine: everything that goes through the Driver seam to SQLite (types,
 * constraints, transactions, change tracking, the domain, backup import/export, migration, opening
 * and locking files). Suites of the command line, the servers and pure formats are left out: they
 * run once, on the machine's Node. Names ending in `*` are prefixes.
 */
const ENGINE = [
  'driver',
  'seam',
  'cross-engine',
  'changes',
  'changes-transaction',
  'change-flags',
  'tables',
  'table-fast-paths',
  'constraints',
  'like',
  'schema',
  'schema-changes',
  'schema-versions',
  'types-exact',
  'integer-widths',
  'json-row',
  'object-rows',
  'statement-shape',
  'prepare-once',
  'codegen-fallback',
  'domain-*',
  'backup-exact',
  'backup-export',
  'backup-gson',
  'backup-import',
  'backup-json-split',
  'backup-json-stream',
  'backup-merge-batch',
  'backup-records',
  'backup-versions',
  'backup-zip',
  'migrate',
  'migrate-chain',
  'open',
  'locks',
  'wal-check',
];

/** Every compiled suite under dist/test, as paths relative to the repository (`dist/test/x.test.js`). */
function allSuites(dir = base) {
  if (!existsSync(dir)) throw new Error(`${relative(root, dir)} is missing: run npx tsc -p tsconfig.json first`);
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return dir === base && OWN_TIER.has(e.name) ? [] : allSuites(p);
    return e.name.endsWith('.test.js') ? [relative(root, p)] : [];
  });
}

const nameOf = (file) => relative(base, file.slice(0, -'.test.js'.length)).split('\\').join('/');
const matches = (patterns, name) => patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p));

export function tier(name) {
  const all = allSuites();
  if (name === 'unit') return all.filter((f) => !matches(SLOW, nameOf(f)));
  if (name === 'slow') return all.filter((f) => matches(SLOW, nameOf(f)));
  if (name === 'engine') return all.filter((f) => matches(ENGINE, nameOf(f)));
  throw new Error(`no tier ${JSON.stringify(name)}: unit, engine or slow`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name = 'unit', ...rest] = process.argv.slice(2);
  const files = tier(name);
  if (rest.includes('--list')) {
    process.stdout.write(`${files.join('\n')}\n`);
  } else {
    // The slow tier runs a file at a time: its suites time kills and load the machine themselves.
    const n = name === 'slow' ? 1 : Number(process.env.TEST_CONCURRENCY ?? availableParallelism() + 1);
    const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${n}`, ...files], { cwd: root, stdio: 'inherit' });
    process.exitCode = r.status ?? 1;
  }
}
