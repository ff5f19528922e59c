// A local book's file is read only inside the books folder the server keeps, over real HTTP on
// 127.0.0.1. /saveBook refuses a bookUrl naming any other file of the machine, in every spelling
// (absolute, `..`, percent-encoded `..`, file:, Windows paths, a symlink in the folder pointing
// out), and stores nothing; a row that names one anyway (as an import could write it) is never
// read outside the folder by /refreshToc, /getChapterList or /getBookContent, symlinks resolved.
// A phone's bookUrl (content://, /storage/...) still finds its file in the folder by name.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { served, type Served } from './helpers/serve.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const SECRET = 'SECRET-7f3a-不该被读到';
const SECRET_TXT = `第1章 秘密\n${SECRET}\n${'密'.repeat(1200)}\n第2章 又一个\n${SECRET}\n`;
const PASSWD_MARK = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!.slice(0, 12); // "root:x:0:0:r"
const LOCAL_TXT = 256 | 8; // the app's local and text bits

interface Place {
  readonly s: Served;
  readonly books: string;
  readonly secret: string;
}

async function place(): Promise<Place> {
  // One enabled TXT TOC rule, as a store imported from the app has them.
  const s = await served({}, (st) => st.tables.txtTocRules.insert({ id: -1, name: '目录', rule: '^第\\d+章.{0,30}$', serialNumber: 0, enable: true }));
  const books = join(dirname(s.path), 'books');
  mkdirSync(books, { recursive: true });
  const secret = join(dirname(s.path), 'outside', 'secret.txt');
  mkdirSync(dirname(secret), { recursive: true });
  writeFileSync(secret, SECRET_TXT);
  return { s, books, secret };
}

/** Every answer about the book: refreshToc, the chapter list, chapters 0 and 1. */
async function answersFor(s: Served, bookUrl: string): Promise<string[]> {
  const u = encodeURIComponent(bookUrl);
  return [
    (await s.get(`/refreshToc?url=${u}`)).text,
    (await s.get(`/getChapterList?url=${u}`)).text,
    (await s.get(`/getBookContent?url=${u}&index=0`)).text,
    (await s.get(`/getBookContent?url=${u}&index=1`)).text,
  ];
}

const leaks = (texts: readonly string[]): boolean => texts.some((t) => t.includes(SECRET) || t.includes('秘密') || t.includes(PASSWD_MARK));

const saveLocal = (s: Served, bookUrl: string, originName: string) =>
  s.post('/saveBook', JSON.stringify({ bookUrl, name: `书${originName}`, author: '某', origin: 'loc_book', originName, type: LOCAL_TXT }));

test('saveBook refuses a local bookUrl outside the books folder, in every spelling; nothing is stored or read', async () => {
  const { s, books, secret } = await place();
  symlinkSync(secret, join(books, 'link.txt'));
  symlinkSync(dirname(secret), join(books, 'dir'));
  const spellings: [string, string][] = [
    ['/etc/passwd', 'passwd.txt'],
    [secret, 'secret.txt'],
    ['../../etc/passwd', 'passwd.txt'],
    [`${books}/../outside/secret.txt`, 'secret.txt'],
    ['%2e%2e/%2e%2e/etc/passwd', 'passwd.txt'],
    ['%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', 'passwd.txt'],
    ['file:///etc/passwd', 'passwd.txt'],
    [`file://${secret}`, 'secret.txt'],
    [join(books, 'link.txt'), 'link.txt'], // a symlink in the folder pointing out
    [join(books, 'dir', 'secret.txt'), 'secret.txt'], // through a symlinked folder
    ['C:\\Windows\\win.ini', 'win.txt'],
    ['\\\\server\\share\\secret.txt', 'secret.txt'],
    ['..\\..\\outside\\secret.txt', 'secret.txt'],
    ['outside/secret.txt', 'secret.txt'], // relative to wherever the server runs
  ];
  for (const [bookUrl, originName] of spellings) {
    const saved = (await saveLocal(s, bookUrl, originName)).json() as { isSuccess: boolean; errorMsg: string };
    assert.equal(saved.isSuccess, false, bookUrl);
    assert.match(saved.errorMsg, /^书籍地址不可用 .*: ".*" is (a path|a file: URL|a Windows path)/, bookUrl);
    assert.equal(s.sql('SELECT count(*) FROM books WHERE bookUrl = ?', bookUrl), 0, bookUrl);
    assert.ok(!leaks(await answersFor(s, bookUrl)), bookUrl);
  }
  assert.equal(s.sql('SELECT count(*) FROM books'), 0);
  assert.equal(s.sql('SELECT count(*) FROM chapters'), 0);
});

test('saveBook keeps working for books in the folder, web books, a phone store and the rows the store has', async () => {
  const { s, books } = await place();
  const kept = join(books, '山水记.txt');
  writeFileSync(kept, `第1章 开端\n${'山'.repeat(1500)}\n第2章 相遇\n${'水'.repeat(1500)}\n`);
  s.store.books.save({
    bookUrl: '/storage/emulated/0/Books/旧书.txt',
    name: '旧书',
    author: '某',
    origin: 'loc_book',
    originName: '旧书.txt',
    type: LOCAL_TXT,
  });
  for (const bookUrl of [
    kept,
    'https://books.example.com/b/1',
    'content://com.android.externalstorage.documents/document/primary%3ABooks%2F新书.txt',
    '/storage/emulated/0/Books/旧书.txt',
  ]) {
    const saved = (await saveLocal(s, bookUrl, bookUrl.slice(bookUrl.lastIndexOf('/') + 1))).json() as { isSuccess: boolean };
    assert.equal(saved.isSuccess, true, bookUrl);
    assert.equal(s.sql('SELECT count(*) FROM books WHERE bookUrl = ?', bookUrl), 1, bookUrl);
  }
  const toc = (await s.get(`/refreshToc?url=${encodeURIComponent(kept)}`)).json() as { isSuccess: boolean; data: unknown[] };
  assert.equal(toc.isSuccess, true);
  assert.equal(toc.data.length, 2);
});

test('a row naming a file outside the folder (as an import writes it) is never read there; a symlink swapped in is not followed', async () => {
  const { s, books, secret } = await place();
  const rows: [string, string][] = [
    ['/etc/passwd', 'passwd.txt'],
    [secret, 'secret.txt'],
    ['../outside/secret.txt', 'secret.txt'],
    [`${books}/../outside/secret.txt`, 'secret.txt'],
    [`${books}/x.txt`, '../outside/secret.txt'], // the name fallback is a name, never a path
  ];
  for (const [bookUrl, originName] of rows) {
    s.store.books.save({ bookUrl, name: `书${bookUrl}`, author: '某', origin: 'loc_book', originName, type: LOCAL_TXT });
    s.store.chapters.replaceToc(bookUrl, [{ url: 'c0', title: '一', index: 0, isVolume: false, baseUrl: '', isVip: false, isPay: false }]);
    const texts = await answersFor(s, bookUrl);
    assert.ok(!leaks(texts), `${bookUrl}: ${texts.join('\n')}`);
    assert.match(texts[0]!, /"isSuccess": false/, bookUrl);
  }

  // A book added properly, then its kept file replaced by a link out of the folder.
  const form = new FormData();
  form.append('fileData', new Blob([`第1章 开端\n${'山'.repeat(1500)}\n`]), '山.txt');
  await fetch(`${s.server.url}addLocalBook?fileName=${encodeURIComponent('山.txt')}`, { method: 'POST', body: form });
  const bookUrl = String(s.sql("SELECT bookUrl FROM books WHERE originName = '山.txt'"));
  assert.equal(dirname(bookUrl), books);
  assert.match((await s.get(`/getBookContent?url=${encodeURIComponent(bookUrl)}&index=0`)).text, /山山山/);
  rmSync(bookUrl);
  symlinkSync(secret, bookUrl);
  assert.ok(!leaks(await answersFor(s, bookUrl)));
});

test("a phone store's local book (content://, /storage/...) is read from the books folder by its file name", async () => {
  const { s, books } = await place();
  writeFileSync(join(books, '山水记.txt'), `第1章 开端\n${'山'.repeat(1500)}\n第2章 相遇\n${'水'.repeat(1500)}\n`);
  for (const bookUrl of ['content://com.android.externalstorage.documents/document/primary%3ABooks%2F山水记.txt', '/storage/emulated/0/Books/山水记.txt']) {
    s.store.books.save({ bookUrl, name: `山水记${bookUrl.length}`, author: '某', origin: 'loc_book', originName: '山水记.txt', type: LOCAL_TXT });
    const toc = (await s.get(`/refreshToc?url=${encodeURIComponent(bookUrl)}`)).json() as { isSuccess: boolean; data: { title: string }[] };
    assert.equal(toc.isSuccess, true, bookUrl);
    assert.deepEqual(
      toc.data.map((c) => c.title),
      ['第1章 开端', '第2章 相遇'],
    );
    assert.match((await s.get(`/getBookContent?url=${encodeURIComponent(bookUrl)}&index=1`)).text, /水水水/);
  }
});

test('/cover serves only files of the covers folder: paths out, encoded or through a link, get the default cover', async () => {
  const { s, books, secret } = await place();
  const covers = join(books, 'covers');
  mkdirSync(covers, { recursive: true });
  symlinkSync(secret, join(covers, 'link.png'));
  for (const path of [
    secret,
    '/etc/passwd',
    `${covers}/../../outside/secret.txt`,
    `${covers}/%2e%2e/%2e%2e/outside/secret.txt`,
    `file://${secret}`,
    join(covers, 'link.png'),
    '../outside/secret.txt',
  ]) {
    const res = await s.get(`/cover?path=${encodeURIComponent(path)}`);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml', path);
    assert.ok(!leaks([res.text]), path);
  }
});
