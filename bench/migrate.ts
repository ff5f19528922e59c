// Benchmark of the 49 -> 62 upgrade: `npm run bench:migrate`. Builds schema-49 files with the
// test fixture (2,000 books with ~300-character intros, all 19 tables filled), then times
// migrate() on fresh copies (median of RUNS): whole call, and the steps inside it. The
// upgrade rebuilds books, rssSources and readRecord and never reads chapters, so its cost
// should follow the books and not the chapters: compare the rows with 30,000 and 300,000.
import { closeSync, copyFileSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../src/migrate/migrate.js';
import { createV49, type FixtureSize } from '../test/helpers/v49-fixture.js';

const RUNS = 5;
const CASES: readonly FixtureSize[] = [
  { books: 2000, chaptersPerBook: 15, introLength: 300 },
  { books: 2000, chaptersPerBook: 150, introLength: 300 },
  { books: 4000, chaptersPerBook: 8, introLength: 300 },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => x.toFixed(1).padStart(7);

interface Timing {
  total: number;
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
  const start = performance.now();
  migrate(target, { onStep: (s) => marks.push([s, performance.now()]) });
  const end = performance.now();
  marks.push(['(close)', end]);
  const steps = new Map<string, number>();
  marks.slice(0, -1).forEach(([s, t], i) => steps.set(s, marks[i + 1]![1] - t));
  steps.set('(inspect, open)', marks[0]![1] - start);
  for (const suffix of ['', '-wal', '-shm']) rmSync(target + suffix, { force: true });
  return { total: end - start, steps };
}

/** Rows of books and chapters, and what a full PRAGMA foreign_key_check would add (it reads every chapter and search result). */
function describe(path: string): { label: string; fullCheck: number } {
  const db = new Database(path, { readonly: true });
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

const dir = mkdtempSync(join(tmpdir(), 'legado-bench-migrate-'));
try {
  console.log(`migrate 49 -> 62, median of ${RUNS} runs on fresh copies (node ${process.version}, ${process.platform})\n`);
  console.log(`${'file'.padEnd(32)} ${'size MB'.padStart(8)} ${'upgrade'.padStart(9)} ${'books'.padStart(9)} ${'54_55'.padStart(9)} ${'commit'.padStart(9)} ${'full FK chk'.padStart(12)}`);
  for (const size of CASES) {
    const source = join(dir, 'source.db');
    rmSync(source, { force: true });
    createV49(source, size);
    const { label, fullCheck } = describe(source);
    const runs = Array.from({ length: RUNS }, (_, i) => timeOne(source, join(dir, `run${i}.db`)));
    const step = (name: string): number => median(runs.map((r) => r.steps.get(name) ?? 0));
    console.log(
      `${label.padEnd(32)} ${(statSync(source).size / 1e6).toFixed(1).padStart(8)}` +
        ` ${ms(median(runs.map((r) => r.total)))} ms ${ms(step('rebuild books'))} ms ${ms(step('Migration_54_55'))} ms` +
        ` ${ms(step('commit') + step('(close)'))} ms ${ms(fullCheck)} ms`,
    );
  }
  console.log(
    '\nupgrade: the whole migrate() call (read-only inspection, open, transaction, close and checkpoint);' +
      '\nbooks: copying books into _new_books; 54_55: the app\'s five UPDATEs of books.type;' +
      '\ncommit: COMMIT, closing and checkpointing; full FK chk: what a database-wide' +
      '\nPRAGMA foreign_key_check would cost on top (migrate checks only the tables it rewrote).',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
