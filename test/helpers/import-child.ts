// Run by the kill test in a child process: imports one collection into a store, printing
// "progress <records>" while it runs (inside the import's transaction) and "done" at the end.
import { importFiles } from '../../src/backup/import-node.js';
import { openStore } from '../../src/store/open.js';

const [storePath, input] = process.argv.slice(2);
const store = openStore(storePath!);
const result = await importFiles(store, [input!], {
  onProgress: (p) => process.stdout.write(`progress ${p.records}\n`),
});
store.close();
process.stdout.write(`done ${result.totals.stored}\n`);
