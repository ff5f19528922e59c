// A second process that takes a store's write lock (BEGIN IMMEDIATE), says "locked" on stdout,
// holds the lock for the given milliseconds, then commits and exits.
//   node lock-holder.js <file> <ms>
import { openDb } from './engine.js';

const [path, ms] = process.argv.slice(2);
const db = openDb(path!);
db.exec('BEGIN IMMEDIATE');
db.prepare('INSERT OR REPLACE INTO caches (key, value, deadline) VALUES (?, ?, 0)').run('held-by', String(process.pid));
process.stdout.write('locked\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
db.exec('COMMIT');
db.close();
