// A current real collection (../shared/corpora) round-trips through a 75 store: nothing dropped
// or unknown on import, every field of every source in the export, text kept letter for letter.
import '../helpers/engine.js'; // Node's engines, as the package's entry installs them
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportBackup } from '../../src/node/backup-export.js';
import { importFiles } from '../../src/node/backup-import.js';
import { schemas } from '../../src/schema/index.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../helpers/files.js';
import { corpora } from './shared.js';

type Json = Record<string, unknown>;
const CORPORA = corpora();
const dir = tempDir();
let n = 0;
const readJson = (path: string): Json[] => JSON.parse(readFileSync(path, 'utf8'));

test('a current collection round-trips through a 75 store with every field of every source', async () => {
  for (const file of ['booksources-checked-shidahuilang/good.json', 'booksources-checked-shidahuilang/error.json']) {
    const input = readJson(join(CORPORA, file));
    const store = openStore(join(dir, `s${n++}.db`), { schema: 75 });
    const r = await importFiles(store, [join(CORPORA, file)]);
    assert.deepEqual(r.kinds.bookSource!.droppedFields, {}, file);
    assert.deepEqual(r.kinds.bookSource!.unknownFields, {}, file);
    const out = join(dir, `out${n++}`);
    await exportBackup(store, out);
    store.close();
    const exported = new Map(readJson(join(out, 'bookSource.json')).map((s) => [s.bookSourceUrl, s]));
    // The last record of a url wins, as in the app.
    const last = new Map(input.map((s) => [s.bookSourceUrl, s]));
    assert.equal(exported.size, last.size);
    let fields = 0;
    for (const [url, src] of last) {
      const got = exported.get(url)!;
      for (const [k, v] of Object.entries(src)) {
        // null is "no value"; a rule that is not an object (ruleExplore: []) is no rule in the app too.
        if (v === null || (k.startsWith('rule') && (typeof v !== 'object' || Array.isArray(v)))) continue;
        assert.ok(k in got, `${file}: ${String(url)}: ${k} is missing`);
        if (typeof v === 'string' && schemas[75].table('book_sources')!.column(k)?.affinity === 'TEXT' && !k.startsWith('rule')) {
          assert.equal(got[k], v, `${String(url)}.${k}`);
        }
        fields++;
      }
    }
    assert.ok(fields > 10000, `${file}: ${fields} fields compared`);
    assert.ok([...exported.values()].some((s) => 'jsLib' in s) && [...exported.values()].some((s) => 'exploreScreen' in s));
  }
});
