// The chapter-text cache: the app's folder and file names (Book.getFolderNameNoCache,
// BookChapter.getFileName, MD5Utils.md5Encode16), files beside the store written whole, and the
// store's own file untouched by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from 'legado-store';
import { bookFolderName, chapterFileName, md5_16, MemoryChapterCache } from '../src/sources/shelf/index.js';
import { cacheDirOf, FileChapterCache } from '../src/node/chapter-cache.js';
import { snapshot, tempDir } from './helpers/files.js';

const md5hex = (s: string): string => createHash('md5').update(Buffer.from(s, 'utf8')).digest('hex');
const dir = tempDir();

test("names: md5_16 is the middle of MD5's hex, folders and files as the app names them", () => {
  assert.equal(md5_16(''), 'd41d8cd98f00b204e9800998ecf8427e'.slice(8, 24));
  assert.equal(md5_16('第1章 开始'), md5hex('第1章 开始').slice(8, 24));
  // \ / : * ? " < > | and . dropped, then the first 9 UTF-16 units, then md5_16(bookUrl).
  assert.equal(bookFolderName({ name: 'a/b.c:三体?第一部地球往事', bookUrl: 'https://x/1' }), 'abc三体第一部地' + md5hex('https://x/1').slice(8, 24));
  assert.equal(bookFolderName({ name: '短', bookUrl: 'u' }), '短' + md5hex('u').slice(8, 24));
  assert.equal(chapterFileName({ index: 7, title: 'T' }), `00007-${md5hex('T').slice(8, 24)}.nb`);
  assert.equal(chapterFileName({ index: 123456, title: 'T' }), `123456-${md5hex('T').slice(8, 24)}.nb`);
});

test('files beside the store: put then get, whole files, no temporary left, the store file unchanged', async () => {
  const path = join(dir, 'a.db');
  const s = openStore(path, { create: true } as never);
  s.close();
  const before = snapshot(path);
  const tables = (): unknown => {
    const t = openStore(path, { readonly: true } as never);
    try {
      return t.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    } finally {
      t.close();
    }
  };
  const tablesBefore = tables();
  const cache = new FileChapterCache(cacheDirOf(path));
  const b = { name: '三体', bookUrl: 'https://x/1' };
  const c = { index: 3, title: '第4章' };
  assert.equal(await cache.get(b, c), undefined);
  await cache.put(b, c, '　　正文\n　　第二段');
  await cache.put(b, c, '　　正文\n　　第二段 (again)');
  await cache.put(b, { index: 4, title: 'empty' }, '');
  assert.equal(await cache.get(b, c), '　　正文\n　　第二段 (again)');
  const folder = join(`${path}.cache`, 'book_cache', '三体' + md5hex('https://x/1').slice(8, 24));
  assert.deepEqual(readdirSync(folder), [`00003-${md5hex('第4章').slice(8, 24)}.nb`]);
  assert.equal(readFileSync(join(folder, readdirSync(folder)[0]!), 'utf8'), '　　正文\n　　第二段 (again)');
  assert.equal(existsSync(join(dir, 'a.db.cache', 'book_cache')), true);
  assert.deepEqual(snapshot(path), before);
  assert.deepEqual(tables(), tablesBefore);
});

test('the memory cache keys by the same names and keeps no empty text', async () => {
  const m = new MemoryChapterCache();
  await m.put({ name: 'n', bookUrl: 'u' }, { index: 0, title: 't' }, 'text');
  await m.put({ name: 'n', bookUrl: 'u' }, { index: 1, title: 't' }, '');
  assert.deepEqual([...m.texts.keys()], [`n${md5hex('u').slice(8, 24)}/00000-${md5hex('t').slice(8, 24)}.nb`]);
  assert.equal(await m.get({ name: 'n', bookUrl: 'u' }, { index: 0, title: 't' }), 'text');
});
