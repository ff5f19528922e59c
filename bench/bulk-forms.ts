// Forms of the bulk insert on raw better-sqlite3, against the C floor: 128-row `INSERT … VALUES`
// statements (raw's form), the rows as one JSON text per 1,000 that SQLite takes apart itself
// (`INSERT … SELECT value->>0, … FROM json_each(?)`: one value bound instead of 15 a row), and
// the recursive CTE that makes the rows in SQLite. Each round inserts the same chapters of one
// book into a fresh copy of a store file holding only the book (the store's schema and pragmas), in paired,
// shuffled rounds.
//
//   node dist/bench/bulk-forms.js [--chapters 10000] [--rounds 40]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../src/index.js';
import { PRAGMAS } from './contenders/raw-engines.js';
import { BULK_CHAPTERS_SQL, bulkChapters } from './data.js';
import { flag, load, pairedBlocks, ratio } from './paired.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

const COLUMNS = [
  'url',
  'title',
  'isVolume',
  'baseUrl',
  'bookUrl',
  'index',
  'isVip',
  'isPay',
  'resourceUrl',
  'tag',
  'start',
  'end',
  'startFragmentId',
  'endFragmentId',
  'variable',
] as const;
const BOOK = 'https://book.example/';
const n = Number(flag('chapters', '10000'));
const rounds = Number(flag('rounds', '40'));
const dir = mkdtempSync(join(benchFiles(), 'bulk-forms-'));
const empty = join(dir, 'empty.db');
const store = openStore(empty, { schema: 62 });
store.books.save({ bookUrl: BOOK, name: 'book', author: 'a' });
store.close();

const rows = bulkChapters(BOOK, n).map((c) =>
  COLUMNS.map((k) => {
    const v = (c as unknown as Record<string, unknown>)[k];
    return typeof v === 'boolean' ? Number(v) : (v ?? null);
  }),
);
const columns = COLUMNS.map((c) => `\`${c}\``).join(', ');
const row = `(${COLUMNS.map(() => '?').join(', ')})`;

const forms: Record<string, (db: Database.Database) => void> = {
  values128(db) {
    const many = db.prepare(`INSERT INTO chapters (${columns}) VALUES ${Array(128).fill(row).join(', ')}`);
    const one = db.prepare(`INSERT INTO chapters (${columns}) VALUES ${row}`);
    const flat: unknown[] = new Array(128 * COLUMNS.length);
    db.transaction(() => {
      let i = 0;
      for (; i + 128 <= n; i += 128) {
        let k = 0;
        for (let r = i; r < i + 128; r++) for (const v of rows[r]!) flat[k++] = v;
        many.run(flat);
      }
      for (; i < n; i++) one.run(rows[i]!);
    })();
  },
  json(db) {
    const s = db.prepare(`INSERT INTO chapters (${columns}) SELECT ${COLUMNS.map((_, c) => `value->>${c}`).join(', ')} FROM json_each(?)`);
    db.transaction(() => {
      for (let i = 0; i < n; i += 1000) s.run(JSON.stringify(rows.slice(i, i + 1000)));
    })();
  },
  floor(db) {
    db.prepare(BULK_CHAPTERS_SQL).run(n - 1, BOOK, `${BOOK}index.html`, BOOK);
  },
};

const blocks = Object.fromEntries(
  Object.entries(forms).map(([name, insert]) => [
    name,
    () => {
      const path = join(dir, `${name}.db`);
      for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
      copyFileSync(empty, path);
      const db = new Database(path);
      for (const p of PRAGMAS) db.pragma(p);
      const t0 = process.hrtime.bigint();
      insert(db);
      const t = Number(process.hrtime.bigint() - t0) / 1000;
      if (db.prepare('SELECT count(*) FROM chapters').pluck().get() !== n) throw new Error(`${name}: not ${n} rows`);
      db.close();
      return t;
    },
  ]),
);
const before = load();
const t = pairedBlocks(blocks, rounds);
console.log(`${n.toLocaleString('en')} chapters, ${rounds} rounds, better-sqlite3, load ${before} → ${load()}`);
for (const name of Object.keys(forms)) console.log(`  ${name.padEnd(10)} ${(median(t[name]!) / 1000).toFixed(1)} ms, / floor ${ratio(t, name, 'floor')}`);
rmSync(dir, { recursive: true, force: true });
