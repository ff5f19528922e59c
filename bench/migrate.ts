// Benchmark of the whole chain 49 -> the newest version: `npm run bench:migrate`. Builds schema-49 files with
// the test fixture (2,000 books with ~300-character intros, all 19 tables filled), then times
// migrate() on fresh copies (median of RUNS): whole call, and the steps inside it. The chain
// rebuilds books (twice), rssSources, readRecord, book_groups, book_sources and dictRules,
// only ALTERs chapters (73: wordCount), and never reads them, so its cost should follow the
// books and not the chapters: the same 2,000 books with no chapters, 30,000 and 300,000, and
// the ratio 300,000 / none, which the issue wants within 1.5.
import { closeSync, copyFileSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../test/helpers/engine.js';
import { migrate } from '../src/migrate/migrate.js';
import { NEWEST_VERSION } from '../src/schema/index.js';
import { createV49, type FixtureSize } from '../test/helpers/v49-fixture.js';
import { benchFiles } from './files.js';

const RUNS = 7;
const TO = NEWEST_VERSION;
const NONE: FixtureSize = { books: 2000, chaptersPerBook: 0, bigBookChapters: 0, introLength: 300 };
const MANY: FixtureSize = { books: 2000, chaptersPerBook: 150, bigBookChapters: 150, introLength: 300 };
const CASES: readonly FixtureSize[] = [
  NONE,
  { ...NONE, chaptersPerBook: 15, bigBookChapters: 15 },
  MANY,
  { books: 4000, chaptersPerBook: 8, introLength: 300 },
];
/** The bound on (upgrade with 300,000 chapters) / (upgrade with none). */
const BOUND = 1.5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => x.toFixed(1).padStart(7);

interface Timing {
  total: number;
  /** CPU milliseconds of this process (user + system) during the call: less swayed by other load. */
  cpu: number;
  /** Milliseconds from one step's start to the next, by step. */
  steps: Map<string, number>;
}

function timeOne(source: string, target: string): Timing {
  copyFileSync(source, target);
  // On disk before the clock starts: else the checkpoint's fsync would pay for writing the copy.
  const fd = openSync(target, 'r+');
  fsyncSync(fd);
  closeSync(fd);
  const marks: [string, number][] = [];
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  migrate(target, { to: TO, onStep: (s) => marks.push([s, performance.now()]) });
  const end = performance.now();
  const cpu = process.cpuUsage(cpu0);
  marks.push(['(close)', end]);
  const steps = new Map<string, number>();
  marks.slice(0, -1).forEach(([s, t], i) => steps.set(s, marks[i + 1]![1] - t));
  steps.set('(inspect, open)', marks[0]![1] - start);
  for (const suffix of ['', '-wal', '-shm']) rmSync(target + suffix, { force: true });
  return { total: end - start, cpu: (cpu.user + cpu.system) / 1000, steps };
}

/** Rows of books and chapters, and what a full PRAGMA foreign_key_check would add (it reads every chapter and search result). */
function describe(path: string): { label: string; fullCheck: number } {
  const db = openDb(path, { readonly: true });
  try {
    const count = (t: string): string => (db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number).toLocaleString('en');
    const label = `${count('books')} books, ${count('chapters')} chapters`;
    const t = performance.now();
    db.prepare('PRAGMA foreign_key_check').all();
    return { label, fullCheck: performance.now() - t };
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(benchFiles(), 'legado-bench-migrate-'));
try {
  console.log(`migrate 49 -> ${TO}, median of ${RUNS} runs on fresh copies, the files taken in turn (node ${process.version}, ${process.platform})\n`);
  const sources = CASES.map((size, i) => {
    const source = join(dir, `source${i}.db`);
    createV49(source, size);
    return { size, source, ...describe(source), runs: [] as Timing[] };
  });
  // Round robin, so that load from outside falls on every file alike.
  for (let r = 0; r < RUNS; r++) for (const c of sources) c.runs.push(timeOne(c.source, join(dir, 'run.db')));
  console.log(
    `${'file'.padEnd(32)} ${'size MB'.padStart(8)} ${'upgrade'.padStart(10)} ${'CPU'.padStart(10)} ${'books'.padStart(10)} ${'54_55'.padStart(10)} ${'chapters'.padStart(10)} ${'commit'.padStart(10)} ${'full FK chk'.padStart(12)}`,
  );
  for (const c of sources) {
    const step = (name: string): number => median(c.runs.map((r) => r.steps.get(name) ?? 0));
    console.log(
      `${c.label.padEnd(32)} ${(statSync(c.source).size / 1e6).toFixed(1).padStart(8)}` +
        ` ${ms(median(c.runs.map((r) => r.total)))} ms ${ms(median(c.runs.map((r) => r.cpu)))} ms` +
        ` ${ms(step('54: rebuild books') + step('55: rebuild books'))} ms ${ms(step('Migration_54_55'))} ms` +
        ` ${ms(step('73: add chapters.wordCount'))} ms ${ms(step('commit') + step('(close)'))} ms ${ms(c.fullCheck)} ms`,
    );
  }
  const none = sources.find((c) => c.size === NONE)!;
  const many = sources.find((c) => c.size === MANY)!;
  const ratio = (f: (t: Timing) => number): number => median(many.runs.map(f)) / median(none.runs.map(f));
  const wall = ratio((t) => t.total);
  const cpu = ratio((t) => t.cpu);
  console.log(
    `\n300,000 chapters / no chapters: ${wall.toFixed(2)}x wall time, ${cpu.toFixed(2)}x CPU time (bound ${BOUND}x: ${Math.max(wall, cpu) <= BOUND ? 'met' : 'NOT met'})`,
  );
  console.log(
    '\nupgrade: the whole migrate() call (read-only inspection, open, transaction, close and checkpoint);' +
      "\nCPU: this process's CPU time in it; books: copying books into _new_books, twice (54 and 55);" +
      "\n54_55: the app's five UPDATEs of books.type; chapters: 73's ALTER TABLE chapters ADD COLUMN wordCount;" +
      '\ncommit: COMMIT, closing and checkpointing; full FK chk: what a database-wide PRAGMA foreign_key_check' +
      '\nwould cost on top (migrate checks only the tables it rewrote).',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
