// What a change trigger costs one progress save, by the form of the trigger: raw code on one
// engine's own connection (better-sqlite3 or node:sqlite), paired blocks in one process, each
// form against the same save on a table without triggers (store/changes.ts, bench/README.md).
//
//   node dist/bench/trigger-cost.js [--driver better-sqlite3|node:sqlite] [--rounds 300] [--calls 100] [--transaction]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PRAGMAS } from './contenders/raw-engines.js';
import { flag, load, pairedBlocks, ratio } from './paired.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

interface Conn {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...p: unknown[]): unknown };
  function(name: string, options: { deterministic: boolean }, fn: () => unknown): unknown;
}

const require = createRequire(import.meta.url);
const driver = flag('driver', 'better-sqlite3')!;
const dir = mkdtempSync(join(benchFiles(), 'trigger-cost-'));
let files = 0;

function connect(): Conn {
  const path = join(dir, `${files++}.db`);
  let db: Conn;
  if (driver === 'node:sqlite') {
    const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (p: string) => Conn };
    db = new DatabaseSync(path);
  } else {
    const Database = require('better-sqlite3') as new (p: string) => Conn;
    db = new Database(path);
  }
  for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
  db.exec('CREATE TABLE books (bookUrl TEXT PRIMARY KEY, name TEXT, a INTEGER, b INTEGER, c INTEGER, d TEXT, e TEXT, f INTEGER)');
  db.exec("INSERT INTO books VALUES ('u', 'n', 0, 0, 0, 'x', 'y', 1)");
  return db;
}

const COUNTER =
  "CREATE TEMP TABLE log (tbl TEXT PRIMARY KEY NOT NULL, n INTEGER NOT NULL) WITHOUT ROWID; INSERT INTO log VALUES ('a', 0), ('books', 0), ('z', 0)";
const STORE_BODY = "UPDATE log SET n = n + 1 WHERE tbl = 'books'";

/** A connection with triggers on books (AFTER INSERT, UPDATE, DELETE) of this body and WHEN clause. */
function withTriggers(setup: string, body: string, when = '', fn?: () => unknown): Conn {
  const db = connect();
  if (fn) db.function('flag', { deterministic: false }, fn);
  if (setup) db.exec(setup);
  for (const op of ['INSERT', 'UPDATE', 'DELETE']) db.exec(`CREATE TEMP TRIGGER t_${op} AFTER ${op} ON books ${when} BEGIN ${body}; END`);
  return db;
}

const forms: Record<string, Conn> = {
  none: connect(),
  'the store’s counter': withTriggers(COUNTER, STORE_BODY),
  'counter by rowid': withTriggers(
    'CREATE TEMP TABLE log (n INTEGER NOT NULL); INSERT INTO log VALUES (0), (0), (0)',
    'UPDATE log SET n = n + 1 WHERE rowid = 2',
  ),
  'WHEN 0': withTriggers(COUNTER, STORE_BODY, 'WHEN 0'),
  'WHEN flag() = 0': withTriggers(COUNTER, STORE_BODY, 'WHEN flag()', () => 0),
  'WHEN flag() = 1': withTriggers(COUNTER, STORE_BODY, 'WHEN flag()', () => 1),
  'SELECT bump()': withTriggers('', 'SELECT flag()', '', () => null),
};

const rounds = Number(flag('rounds', '300'));
const calls = Number(flag('calls', '100'));
const inTransaction = process.argv.includes('--transaction');
const blocks = Object.fromEntries(
  Object.entries(forms).map(([name, db]) => {
    const update = db.prepare('UPDATE books SET a = ?, b = ?, c = ? WHERE bookUrl = ?');
    const begin = db.prepare('BEGIN IMMEDIATE');
    const commit = db.prepare('COMMIT');
    return [
      name,
      (round: number) => {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < calls; i++) {
          if (inTransaction) begin.run();
          update.run(1, round * calls + i, i, 'u');
          if (inTransaction) commit.run();
        }
        return Number(process.hrtime.bigint() - t0) / 1000 / calls;
      },
    ];
  }),
);
const before = load();
const t = pairedBlocks(blocks, rounds, 5);
console.log(
  `${driver} (${process.version}), one UPDATE${inTransaction ? ' in BEGIN IMMEDIATE … COMMIT' : ''}: ${rounds} rounds × ${calls}, load ${before} → ${load()}`,
);
for (const name of Object.keys(forms)) console.log(`  ${name.padEnd(22)} ${median(t[name]!).toFixed(2)} µs  / none ${ratio(t, name, 'none')}`);
rmSync(dir, { recursive: true, force: true });
