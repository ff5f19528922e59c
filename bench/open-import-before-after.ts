// Issue 32's file-sized figures, before and after, in one process: a writable open of a large
// store with a `-wal` beside it (live: another connection holds it; orphan: the `-wal` alone),
// and the import of a book-source collection (like for like and mixed), each with the previous
// build's store and this one alternating in shuffled rounds. The import also runs the
// hand-written baseline (JSON.parse + raw upserts) in the same rounds, so import / baseline is
// paired too. better-sqlite3, files where bench/files.ts keeps them (/dev/shm on Linux).
//
//   git worktree add --detach /tmp/prev <commit> && (cd /tmp/prev && npx tsc -p tsconfig.json)
//   cp -r /tmp/prev/dist/src .before   # inside this repository, so its imports resolve here
//   node dist/bench/open-import-before-after.js --before .before [--only open,import] [--rows 1000000] [--wal 100,1000,10000] [--count 100000] [--rounds 7]
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { openStore as OpenStore } from '../src/index.js';
import { importFiles as ImportFiles } from '../src/node/backup-import.js';
import { writeCollection } from '../test/helpers/synth.js';
import { PRAGMAS } from './contenders/raw-engines.js';
import { SOURCE_UPSERT, sourceParams } from './contenders/sql.js';
import { BULK_CHAPTERS_SQL } from './data.js';
import { readText } from './contenders/backup-json.js';
import { importInputs, rawSource } from './import-input.js';
import { flag, load } from './paired.js';
import { bootstrapMedian, median, pairedRatios, prng, shuffle } from './stats.js';
import { benchFiles } from './files.js';

interface Build {
  readonly openStore: typeof OpenStore;
  readonly importFiles: typeof ImportFiles;
}

const MB = 1024 * 1024;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const clear = (path: string) => {
  for (const f of ['', '-wal', '-shm', '-journal']) rmSync(path + f, { force: true });
};
const fmt = (times: number[]) => `${median(times).toFixed(1)} ms`;
const interval = (a: number[], b: number[]) => {
  const ci = bootstrapMedian(pairedRatios(a, b));
  return `${ci.median.toFixed(3)}× [${ci.low.toFixed(3)}–${ci.high.toFixed(3)}]`;
};

/** A store file of `rows` chapters of 20 books (about 450 bytes each with its indexes), made once. */
function bigFile(dir: string, after: Build, rows: number): string {
  const path = join(dir, `chapters-${rows}.db`);
  if (existsSync(path) && !existsSync(`${path}-wal`)) return path;
  clear(path);
  after.openStore(path, { schema: 62 }).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // A `variable` of 300 random hex characters: rows the size of a real TOC's with its JSON.
  const fill = db.prepare(BULK_CHAPTERS_SQL.replace('NULL FROM n', 'hex(randomblob(150)) FROM n'));
  const book = db.prepare('INSERT INTO books (bookUrl, name, author, origin) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    const per = Math.ceil(rows / 20);
    book.run('https://new.example/', 'new', 'a', 'o');
    for (let b = 0; b < 20; b++) book.run(`https://book${b}.example/`, `book ${b}`, 'a', 'o');
    for (let b = 0; b < 20; b++) fill.run(per - 1, `https://book${b}.example/`, `https://book${b}.example/index.html`, `https://book${b}.example/`);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return path;
}

/** The bytes of a `-wal` holding `chapters` new chapters of the book without any on a copy of `base` (committed, not checkpointed). */
function walOf(base: string, scratch: string, chapters: number): Buffer {
  const copy = join(scratch, 'wal-maker.db');
  clear(copy);
  copyFileSync(base, copy);
  const db = new Database(copy);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.prepare(BULK_CHAPTERS_SQL.replace('NULL FROM n', 'hex(randomblob(150)) FROM n')).run(
    chapters - 1,
    'https://new.example/',
    'https://new.example/index.html',
    'https://new.example/',
  );
  const wal = readFileSync(`${copy}-wal`);
  // Closing would checkpoint the -wal into the copy; the bytes are taken already.
  db.close();
  clear(copy);
  return wal;
}

type Beside = 'nothing' | 'live' | 'orphan';

/** One writable open of a fresh copy of `base` with `wal` beside it as `beside` says; its time in ms. */
function openOnce(build: Build, base: string, wal: Buffer, beside: Beside, scratch: string): number {
  const path = join(scratch, 'open.db');
  clear(path);
  copyFileSync(base, path);
  let holder: Database.Database | undefined;
  if (beside !== 'nothing') {
    writeFileSync(`${path}-wal`, wal);
    if (beside === 'live') {
      // Another connection holds the file open (the phone's sync, a server): -wal and -shm live.
      holder = new Database(path);
      holder.prepare('SELECT count(*) FROM books').get();
    }
  }
  const t0 = process.hrtime.bigint();
  const store = build.openStore(path);
  const t = ms(t0);
  store.close();
  holder?.close();
  clear(path);
  return t;
}

function openFigures(builds: Record<string, Build>, dir: string, rounds: number, rowsList: number[], walList: number[], random: () => number): void {
  const scratch = join(dir, 'scratch');
  mkdirSync(scratch, { recursive: true });
  for (const rows of rowsList) {
    const base = bigFile(dir, builds['after']!, rows);
    console.log(`\nfile: ${rows.toLocaleString('en')} chapters, ${(statSync(base).size / MB).toFixed(0)} MB (load ${load()})`);
    // Nothing beside the file first (once a file), then each -wal size live and orphan.
    const cases: [number, Beside][] = [
      [0, 'nothing'],
      ...walList.flatMap((n): [number, Beside][] => [
        [n, 'live'],
        [n, 'orphan'],
      ]),
    ];
    for (const [chapters, beside] of cases) {
      const wal = chapters === 0 ? Buffer.alloc(0) : walOf(base, scratch, chapters);
      const times: Record<string, number[]> = { before: [], after: [] };
      for (let r = 0; r < rounds + 1; r++) {
        for (const k of shuffle(['before', 'after'], random)) {
          const t = openOnce(builds[k]!, base, wal, beside, scratch);
          if (r > 0) times[k]!.push(t);
        }
      }
      const what = beside === 'nothing' ? 'no -wal' : `-wal of ${chapters.toLocaleString('en')} chapters (${(wal.length / 1024).toFixed(0)} KiB), ${beside}`;
      console.log(
        `  ${what.padEnd(44)}: before ${fmt(times['before']!)}, after ${fmt(times['after']!)}; ` +
          `after / before ${interval(times['after']!, times['before']!)} (${rounds} rounds, load ${load()})`,
      );
    }
  }
}

async function importFigures(builds: Record<string, Build>, dir: string, rounds: number, count: number, random: () => number): Promise<void> {
  const db = join(dir, 'import.db');
  const input = join(dir, 'collection.json');
  for (const [label, sources] of importInputs(false)) {
    const bytes = writeCollection(input, count, sources);
    const times: Record<string, number[]> = { before: [], after: [], raw: [] };
    const stored: Record<string, number> = {};
    for (let r = 0; r < rounds + 1; r++) {
      for (const k of shuffle(['before', 'after', 'raw'], random)) {
        clear(db);
        // Every contender starts from the same empty store file, made by this build.
        builds['after']!.openStore(db, { schema: 62 }).close();
        (globalThis as { gc?: () => void }).gc?.();
        const t0 = process.hrtime.bigint();
        if (k === 'raw') {
          const c = new Database(db);
          for (const p of PRAGMAS) c.pragma(p);
          const up = c.prepare(SOURCE_UPSERT);
          const records = JSON.parse(readText(input)) as Record<string, unknown>[];
          stored[k] = c.transaction(() => {
            for (const o of records) up.run(...sourceParams(rawSource(o)));
            return records.length;
          })();
          c.close();
        } else {
          const s = builds[k]!.openStore(db);
          stored[k] = (await builds[k]!.importFiles(s, [input])).totals.stored;
          s.close();
        }
        if (r > 0) times[k]!.push(ms(t0));
      }
    }
    clear(db);
    console.log(
      `\nimport, ${label}: ${count.toLocaleString('en')} sources, ${(bytes / MB).toFixed(1)} MB (stored: before ${stored['before']}, after ${stored['after']}, raw ${stored['raw']})\n` +
        `  before ${fmt(times['before']!)}, after ${fmt(times['after']!)}, JSON.parse + raw upserts ${fmt(times['raw']!)}\n` +
        `  after / before ${interval(times['after']!, times['before']!)}; before / raw ${interval(times['before']!, times['raw']!)}; after / raw ${interval(times['after']!, times['raw']!)} (${rounds} rounds, load ${load()})`,
    );
  }
  rmSync(input, { force: true });
}

async function main(): Promise<void> {
  const beforeDir = flag('before');
  if (!beforeDir) throw new Error("--before <folder of the previous build's dist/src> is required");
  const only = (flag('only') ?? 'open,import').split(',');
  const rounds = Number(flag('rounds', '7'));
  const load0 = load();
  // The previous build's own modules: its entry for openStore, its Node import for importFiles (not on the entry).
  const at = (file: string) => pathToFileURL(join(resolve(beforeDir), file)).href;
  const before: Build = {
    openStore: ((await import(at('index.js'))) as Pick<Build, 'openStore'>).openStore,
    importFiles: ((await import(at('node/backup-import.js'))) as Pick<Build, 'importFiles'>).importFiles,
  };
  const after: Build = { openStore: (await import('../src/index.js')).openStore, importFiles: ImportFiles };
  const builds = { before, after };
  const dir = join(benchFiles(), 'legado-open-import');
  mkdirSync(dir, { recursive: true });
  const random = prng(11);
  console.log(`before: ${resolve(beforeDir)}; node ${process.version}, better-sqlite3, ${os.cpus().length} cores, load ${load0}`);
  if (only.includes('open')) {
    const rowsList = (flag('rows') ?? '100000,1000000').split(',').map(Number);
    const walList = (flag('wal') ?? '100,1000,10000').split(',').map(Number);
    openFigures(builds, dir, rounds, rowsList, walList, random);
  }
  if (only.includes('import')) await importFigures(builds, dir, rounds, Number(flag('count', '100000')), random);
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
