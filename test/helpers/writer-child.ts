// One of several processes writing the same store at once: for the given milliseconds, each
// transaction reads a counter and writes it back plus one (a read-then-write, the case SQLite
// cannot retry by itself), and adds a row of its own. Prints `ready` once open, then its count.
//   node writer-child.js <file> <ms> <name>
import { openStore } from 'legado-store';

const [path, ms, name] = process.argv.slice(2);
const store = openStore(path!, { busyTimeout: 30_000 });
const caches = store.tables.caches;
process.stdout.write('ready\n');
const end = Date.now() + Number(ms);
let done = 0;
while (Date.now() < end) {
  store.transaction(() => {
    const n = Number(caches.get('counter')?.value ?? '0');
    caches.upsert({ key: 'counter', value: String(n + 1), deadline: 0 });
    caches.insert({ key: `${name}-${done}`, value: String(n), deadline: 0 });
  });
  done++;
}
store.close();
process.stdout.write(`done ${done}\n`);
