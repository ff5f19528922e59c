// /api/database's file as the Worker builds it (src/worker/database-file.ts on SQLite WASM),
// here under Node on the same WASM module: read out in pieces of any offset and length, the
// pieces are the file a Node SQLite opens (integrity, version, rows); the stream gives the same
// bytes and frees the image at its end or when cancelled.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDatabaseImage } from '../src/engine/drivers/wasm-modules.js';
import { loadSqliteWasm } from '../src/engine/drivers/wasm/load.js';
import { openStore } from '../src/store/open.js';
import { fileStream, storeImage } from '../src/worker/database-file.js';
import { openDb } from './helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'legado-dbimage-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const N = 3000;

async function image() {
  const store = openStore(join(dir, `s${Math.random()}.db`), { schema: 75 });
  store.tables.books.insertMany(
    Array.from({ length: N }, (_, i) => ({ bookUrl: `u${i}`, origin: 'local', name: `书${i}`, author: 'A', intro: '简介'.repeat(100) })),
  );
  const file = buildDatabaseImage(await loadSqliteWasm(), storeImage(store));
  store.close();
  return file;
}

const concat = (pieces: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(pieces));

test('pieces at any offset and length make the file a Node SQLite reads back', async () => {
  const file = await image();
  try {
    assert.equal(file.size % 512, 0);
    // Pieces of an odd length, across page edges.
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < file.size; at += 10_007) pieces.push(file.read(at, 10_007));
    const bytes = concat(pieces);
    assert.equal(bytes.byteLength, file.size);
    assert.equal(Buffer.from(bytes.subarray(0, 16)).toString('latin1'), 'SQLite format 3\0');
    const path = join(dir, 'odd.db');
    writeFileSync(path, bytes);
    const db = openDb(path, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.pragma('user_version', { simple: true }), 75);
      assert.equal(db.prepare('SELECT count(*) FROM books').pluck().get(), N);
      assert.equal(db.prepare("SELECT intro FROM books WHERE bookUrl = 'u2999'").pluck().get(), '简介'.repeat(100));
    } finally {
      db.close();
    }
    // A piece inside one page and the last bytes.
    assert.deepEqual(file.read(100, 7), bytes.subarray(100, 107));
    assert.deepEqual(file.read(file.size - 3, 100), bytes.subarray(file.size - 3));
    // The stream's pieces are the same bytes.
    const streamed: Uint8Array[] = [];
    for await (const piece of fileStream(file, 4096 * 3 + 1)) streamed.push(piece);
    assert.deepEqual(concat(streamed), bytes);
    assert.throws(() => file.read(0, 1), 'the image is freed at the end of the stream');
  } finally {
    file.close();
  }
});

test('a cancelled stream frees the image', async () => {
  const file = await image();
  const reader = fileStream(file).getReader();
  assert.equal((await reader.read()).value?.byteLength, 256 * 1024);
  await reader.cancel();
  assert.throws(() => file.read(0, 1), 'freed when cancelled');
  file.close(); // again: nothing
});
