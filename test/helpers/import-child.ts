// Run by the kill test in a child process: imports one collection into a store, printing
// "progress <records>" while it runs (inside the import's transaction) and "done" at the end.
import './engine.js'; // Node's engines, as the package's entry installs them
import { importFiles } from '../../src/node/backup-import.js';
import { openStore } from '../../src/store/open.js';

//   import-child.js <store> <input> [holdAt]
// With holdAt, once that many records are read it says so and stops there, inside the
// transaction, until it is killed: the parent's kill then lands at exactly that point, however
// slowly the output reaches it. (Written with writeSync: a runtime may buffer process.stdout.)
import { writeSync } from 'node:fs';

const [storePath, input, holdAt] = process.argv.slice(2);
const hold = holdAt === undefined ? Infinity : Number(holdAt);
const store = openStore(storePath!);
const result = await importFiles(store, [input!], {
  onProgress: (p) => {
    writeSync(1, `progress ${p.records}\n`);
    if (p.records >= hold) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
store.close();
process.stdout.write(`done ${result.totals.stored}\n`);
