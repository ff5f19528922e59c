// Where the source-file import's time goes, the store against raw (JSON.parse of the whole file
// and a statement per source): the harness's import workload run `--rounds` times per contender,
// alternating, a full collection before each, under V8's sampling profiler (node:inspector,
// started and stopped around each import, so nothing else is sampled). Each sample is charged
// to the first frame on its stack that belongs to a phase (by the file of its code), so the
// engine's native work lands on the driver call that asked for it and JSON.parse on its caller.
// Prints milliseconds per import by phase, side by side; "SQLite" is every native call of the
// engine: the open's checks, the writes, the commit, the close's checkpoint. Node only (Bun has
// no Profiler domain; WASM's engine is JavaScript glue that these phases cannot tell apart).
//
//   node dist/bench/import-profile.js [--driver better-sqlite3|node:sqlite] [--count 1000] [--rounds 100] [--interval 100]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { join } from 'node:path';
import { openStore, type DriverName } from '../src/index.js';
import { SOURCE_JSON, writeJson } from './contenders/backup-json.js';
import { legadoStore } from './contenders/legado-store.js';
import { raw } from './contenders/raw.js';
import * as data from './data.js';
import { useEngine } from './engine.js';
import { gc } from './harness.js';
import { flag } from './paired.js';
import { benchFiles } from './files.js';

const WRITE_JS = 'write: statements and bindings (JS)';
const SQLITE = 'SQLite (native calls, through the driver)';
const OPEN = 'open, checks, close (JS)';

/** Phases by where the code lives; the first that matches a frame's file wins. */
const PHASES: readonly (readonly [phase: string, parts: readonly string[]])[] = [
  ['read and parse', ['/backup/json-stream', '/backup/byte-source', '/backup/json-array-splitter', '/fs/', 'readJson', 'node:fs', 'encoding']],
  [
    'build: checks, coercion, defaults, rule text',
    ['/backup/record', '/backup/coerce', '/backup/gson', '/backup/legacy-', '/backup/app-defaults', '/backup/json-columns', 'fromJson', 'sourceParams'],
  ],
  ['merge and report', ['/backup/merge', '/backup/import', '/backup/report', '/backup/keep']],
  [WRITE_JS, ['/src/table/']],
  [SQLITE, ['/src/engine/', 'raw-naive', 'raw-engines']],
  [OPEN, ['/src/store/', '/src/schema/', '/src/inspect/', '/src/migrate/', '/src/node/']],
];

function phaseOf(node: Profiler.ProfileNode): string | undefined {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  const where = `${url} ${functionName}`;
  for (const [phase, parts] of PHASES) if (parts.some((p) => where.includes(p))) return phase;
  return undefined;
}

/**
 * Milliseconds per phase in one profile, each sample charged to its nearest phased frame; one
 * with none below the contender's importBackup is 'other', one outside it (the profiler's own
 * calls) is not counted.
 */
function phases(profile: Profiler.Profile, into: Map<string, number>): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const charged = new Map<number, string | undefined>();
  const chargeOf = (id: number): string | undefined => {
    if (charged.has(id)) return charged.get(id);
    let found: string | undefined;
    for (let at: number | undefined = id; at !== undefined && found === undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      found = phaseOf(node) ?? (node.callFrame.functionName === 'importBackup' ? 'other' : undefined);
    }
    // A native method called from the store's tables or its open and close is the engine's
    // (better-sqlite3's statements are called there directly; node:sqlite's through its adapter).
    if (byId.get(id)!.callFrame.url === '' && (found === WRITE_JS || found === OPEN)) found = SQLITE;
    charged.set(id, found);
    return found;
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const phase = chargeOf(samples[i]!);
    if (phase === undefined) continue;
    into.set(phase, (into.get(phase) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
}

const post = <T>(s: Session, method: string, params?: object): Promise<T> =>
  new Promise((resolve, reject) => s.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r as T))));

async function main(): Promise<void> {
  const eng = await useEngine(flag('driver') as DriverName | undefined);
  if (eng.name === 'wasm') throw new Error('import-profile: the native engines only');
  const count = Number(flag('count', '1000'));
  const rounds = Number(flag('rounds', '100'));
  const dir = mkdtempSync(join(benchFiles(), 'import-profile-'));
  const input = join(dir, 'in');
  mkdirSync(input);
  writeJson(join(input, 'bookSource.json'), data.sources(count, 90).rows as unknown as Record<string, unknown>[], SOURCE_JSON);
  const template = join(dir, 'template.db');
  openStore(template, { driver: eng.driver, schema: 62 }).close();
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: Number(flag('interval', '100')) });
  const contenders = { store: legadoStore, raw };
  const totals = { store: new Map<string, number>(), raw: new Map<string, number>() };
  const wall = { store: 0, raw: 0 };
  for (let round = 0; round < rounds + 1; round++) {
    for (const name of round % 2 ? (['raw', 'store'] as const) : (['store', 'raw'] as const)) {
      const path = join(dir, `${name}.db`);
      eng.remove(path);
      eng.copy(template, path);
      gc();
      await post(session, 'Profiler.start');
      const t0 = performance.now();
      await contenders[name].importBackup!(path, input);
      const ms = performance.now() - t0;
      const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
      if (round === 0) continue; // the first import of each compiles its code
      wall[name] += ms;
      phases(profile, totals[name]);
    }
  }
  session.disconnect();
  rmSync(dir, { recursive: true, force: true });
  const names = [...new Set([...totals.store.keys(), ...totals.raw.keys()])].sort((a, b) => (totals.store.get(b) ?? 0) - (totals.store.get(a) ?? 0));
  const cell = (name: 'store' | 'raw', phase: string) => ((totals[name].get(phase) ?? 0) / rounds).toFixed(2).padStart(8);
  console.log(`import of ${count} sources, ${eng.name}, ${process.version}, ${rounds} imports each (ms per import, sampled)`);
  console.log(`${'phase'.padEnd(48)}   store      raw`);
  for (const p of names) console.log(`${p.padEnd(48)}${cell('store', p)} ${cell('raw', p)}`);
  const sum = (name: 'store' | 'raw') => ([...totals[name].values()].reduce((a, b) => a + b, 0) / rounds).toFixed(2).padStart(8);
  console.log(`${'sampled in all'.padEnd(48)}${sum('store')} ${sum('raw')}`);
  console.log(`${'wall time (mean, profiler on)'.padEnd(48)}${(wall.store / rounds).toFixed(2).padStart(8)} ${(wall.raw / rounds).toFixed(2).padStart(8)}`);
}

await main();
