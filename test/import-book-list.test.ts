// The app's book-list export (bookshelf menu: BookshelfViewModel.exportBookshelf writes a JSON
// array of { name, author, intro }, no bookUrl; the app imports it by searching its enabled
// sources for each name and author). The import names it and its count instead of skipping
// every record for a missing bookUrl: the store cannot search sources yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';

const dir = tempDir();
const LIST = [
  { author: '甲', intro: '　　一本书。\n　　第二段。', name: '第一本' },
  { author: '乙', intro: '', name: '第二本' },
  { author: '丙', intro: '　　简介', name: '第三本' },
];

for (const fileName of ['bookshelf.json', 'books.json']) {
  test(`a book-list export saved as ${fileName}: named with its count, nothing stored, no per-record skips`, async () => {
    const db = join(dir, `${fileName}.db`);
    assert.equal((await cli('init', db)).code, 0);
    const file = join(dir, fileName);
    writeFileSync(file, JSON.stringify(LIST, null, 2));
    let r = await cli('import', db, file);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout, /skipped:|no bookUrl\b.*\[0\]/);
    assert.match(r.stdout, new RegExp(`not imported: .*${fileName.replace('.', '\\.')} \\(the app's book-list export: 3 books by name, author and intro`));
    assert.match(r.stdout, /searching its enabled book sources .* cannot search sources yet/);
    assert.match(r.stderr, /^legado-store: IMPORT_REJECTED: nothing was stored: .* is the app's book-list export: 3 books/);
    r = await cli('import', db, file, '--json');
    const report = JSON.parse(r.stdout) as { files: { kind: string; status: string; read: number }[]; skipped: unknown[] };
    assert.deepEqual(
      report.files.map((f) => [f.kind, f.status, f.read]),
      [['bookList', 'not-imported', 3]],
    );
    assert.deepEqual(report.skipped, []);
    const raw = openDb(db, { readonly: true });
    assert.deepEqual(raw.prepare('SELECT count(*) FROM books').raw().get(), [0]);
    raw.close();
  });
}

test("a backup's bookshelf.json (books with their bookUrl) is still books", async () => {
  const db = join(dir, 'backup.db');
  assert.equal((await cli('init', db)).code, 0);
  const file = join(dir, 'b', 'bookshelf.json');
  mkdirSync(join(dir, 'b'));
  writeFileSync(file, JSON.stringify([{ bookUrl: 'https://example.invalid/1', name: '第一本', author: '甲', intro: '', origin: 'x', originName: 'x' }]));
  const r = await cli('import', db, file);
  assert.equal(r.code, 0, r.stderr);
  const raw = openDb(db, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT bookUrl, name FROM books').raw().all(), [['https://example.invalid/1', '第一本']]);
  raw.close();
});
