// A real backup whose books carry group bits no group has (backup-tzc110112-read: a
// bookshelf.json with a book in group 1 and no bookGroup.json): the import stores it as the app
// does and says so, and the deep check passes the store with the same warning.
import '../helpers/engine.js'; // Node's engines, as the package's entry installs them
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { importFiles } from '../../src/node/backup-import.js';
import { inspectFile, openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { corpora } from './shared.js';

const dir = mkdtempSync(join(tmpdir(), 'legado-group-bits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('backup-tzc110112-read: the import warns of the book in group 1, which no group has; verify --deep passes it with that warning', async () => {
  const path = join(dir, 'store.db');
  const store = openStore(path) as Store<75>;
  const result = await importFiles(store, [join(corpora(), 'backup-tzc110112-read', 'bookshelf.json')]);
  const stray = store.db.prepare('SELECT bookUrl FROM books WHERE ("group" & 1) != 0').pluck().all() as string[];
  store.close();
  assert.equal(stray.length, 1, 'the corpus has one book in group 1');
  assert.deepEqual(
    (result.warnings ?? []).map((w) => [w.key, /group 1 has bits no group has \(1\)/.test(w.message)]),
    [[`bookUrl=${JSON.stringify(stray[0])}`, true]],
  );
  const report = inspectFile(path, { check: 'deep' });
  assert.equal(report.ok, true, JSON.stringify(report.damage));
  assert.deepEqual(
    report.warnings.map((w) => w.key),
    [`bookUrl=${JSON.stringify(stray[0])}`],
  );
});
