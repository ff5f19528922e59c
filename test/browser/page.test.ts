// The page and legado-store/browser in a real browser: Debian's headless Chromium driven by
// playwright-core (no browser download). Run by `npm run test:browser` (which builds first).
// The page imports a backup the Node store exported, shows the shelf and the sources, exports a
// zip and a database file that the Node store reads back, keeps its store in OPFS across a
// reload, and takes a database file made on Node.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { exportBackup, importBackup, inspectFile, openStore } from 'legado-store';
import { fillSample } from '../../src/sample/sample.js';
import { serve } from '../../web/serve.js';
import { openDb } from '../helpers/engine.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const ARTIFACTS = join(DIST, 'browser-test');
const CORPORA = join(ROOT, '..', 'shared', 'corpora');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const work = mkdtempSync(join(tmpdir(), 'legado-browser-'));
let context: BrowserContext;
let page: Page;
let stop: () => void;
/** Answers of 400 and up the page got (the favicon it asks for by itself was a 403). */
const refused: string[] = [];

/** A backup made by the Node store: the sample profile plus a disabled source in no group. */
const ORIGIN = join(work, 'origin.db');
const BACKUP = join(work, 'backup.zip');

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  assert.ok(existsSync(join(DIST, 'browser', 'legado-store.js')), 'the browser build is missing: npm run build:browser');
  const store = openStore(ORIGIN, { schema: 62 });
  fillSample(store);
  store.tables.book_sources.insert({
    bookSourceUrl: 'https://off.example.org',
    bookSourceName: '停用书源',
    bookSourceGroup: null,
    bookSourceType: 0,
    customOrder: 1,
    enabled: false,
    enabledExplore: false,
    lastUpdateTime: 0,
    respondTime: 180000,
    weight: 0,
  });
  await exportBackup(store, BACKUP);
  store.close();

  const server = await serve(DIST);
  stop = () => server.server.close();
  mkdirSync(ARTIFACTS, { recursive: true });
  context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // A phone-sized screen: the page has to work there.
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    acceptDownloads: true,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  page.on('response', (r) => void (r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`)));
  await page.goto(server.url);
  await statusIs('Library ready.');
});

after(async () => {
  await context?.close();
  stop?.();
  rmSync(work, { recursive: true, force: true });
});

async function statusIs(text: string | RegExp): Promise<string> {
  const status = page.locator('#status');
  await status.filter({ hasText: text }).waitFor({ timeout: 60_000 });
  return (await status.textContent()) ?? '';
}

/** The table counts as the page shows them. */
async function pageCounts(): Promise<Record<string, number>> {
  const rows = await page.locator('#counts tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
  return Object.fromEntries(rows.map(([t, n]) => [t!, Number(n)]));
}

async function download(button: string, to: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  await file.saveAs(to);
  return readFileSync(to);
}

/** What the Node store holds after importing the same file into a new store. */
async function nodeImport(file: string, name: string): Promise<Record<string, number>> {
  const store = openStore(join(work, name));
  try {
    await importBackup(store, file);
    return store.counts();
  } finally {
    store.close();
  }
}

/** The schema a file declares (sqlite_master) and its user_version, read through the Node engine. */
function declared(path: string): unknown {
  const db = openDb(path, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }),
      master: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all(),
      identity: db.prepare('SELECT identity_hash FROM room_master_table').pluck().all(),
    };
  } finally {
    db.close();
  }
}

test('the page imports a backup zip made by the Node store, with the same counts as a Node import', async () => {
  await page.setInputFiles('#file', BACKUP);
  const text = await statusIs(/records stored/);
  assert.match(text, /backup\.zip: \d+ records stored/);
  assert.deepEqual(await pageCounts(), await nodeImport(BACKUP, 'node-import.db'));
});

test('the shelf shows the books by group with reading progress; the sources with groups and enabled state', async () => {
  const tabs = await page.locator('#tabs button').allTextContents();
  assert.ok(
    tabs.some((t) => t.startsWith('全部 (3)')),
    tabs.join(' | '),
  );
  assert.ok(
    tabs.some((t) => t.startsWith('武侠 (1)')),
    tabs.join(' | '),
  );
  await page.locator('#tabs button', { hasText: '全部' }).click();
  const books = await page.locator('#shelf .book').allTextContents();
  assert.equal(books.length, 3);
  // Last read first, as the app's 全部 tab; chapter 3 of 12 is 25%.
  assert.match(books[0]!, /^青山剑客林远 · 3 \/ 12 · 第3章$/);
  assert.equal(await page.locator('#shelf .book .bar').first().getAttribute('title'), '25%');
  await page.locator('#tabs button', { hasText: '科幻' }).click();
  assert.deepEqual(await page.locator('#shelf .book .title').allTextContents(), ['星海尽头']);

  const groups = await page.locator('#sources summary').allTextContents();
  assert.ok(groups.includes('示例 — 1 of 1 enabled'), groups.join(' | '));
  assert.ok(groups.includes('No group — 0 of 1 enabled'), groups.join(' | '));
  assert.equal(await page.locator('#sources .source.off').first().textContent(), '○ 停用书源');
  await page.screenshot({ path: join(ARTIFACTS, 'phone.png'), fullPage: true });
});

test('the backup zip the page exports imports on Node to the same rows', async () => {
  const zip = await download('#backup', join(work, 'from-page.zip'));
  assert.equal(zip.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
  assert.deepEqual(await nodeImport(join(work, 'from-page.zip'), 'round-trip.db'), await pageCounts());
});

test('the database file the page exports passes the structure check of a Node-made file, with the same schema', async () => {
  const path = join(work, 'from-page.db');
  await download('#database', path);
  const report = inspectFile(path);
  assert.equal(report.ok, true, JSON.stringify(report.differences));
  // The page's library was new: created at the newest schema, as a Node store is.
  assert.equal(report.version, 75);
  assert.deepEqual(report.extraTables, []);
  assert.deepEqual(report.rows, await pageCounts());
  const nodeMade = join(work, 'node-import.db');
  assert.equal(inspectFile(nodeMade).ok, true);
  assert.deepEqual(declared(path), declared(nodeMade));
  const store = openStore(path);
  assert.deepEqual(
    store.books.shelf(-1).map((b) => b.name),
    ['青山剑客', '星海尽头', '旧日笔记'],
  );
  store.close();
});

test('the library is kept in OPFS: after a reload the page shows the same store', async () => {
  const before = await pageCounts();
  await page.reload();
  await statusIs('Library ready.');
  assert.deepEqual(await pageCounts(), before);
  assert.ok((await page.locator('#tabs button').allTextContents()).some((t) => t.startsWith('全部 (3)')));
});

test('a database file made on Node replaces the library after the page asks', async () => {
  const path = join(work, 'node-made.db');
  const store = openStore(path, { schema: 62 });
  fillSample(store);
  store.books.save({ bookUrl: 'https://books.example.org/book/9', name: '只在节点', author: '某', origin: 'https://books.example.org', type: 8 });
  store.close();
  const asked: string[] = [];
  page.once('dialog', (d) => (asked.push(d.message()), void d.accept()));
  await page.setInputFiles('#file', path);
  await statusIs(/opened as the library/);
  assert.equal(asked.length, 1);
  await page.locator('#tabs button', { hasText: '全部' }).click();
  assert.ok((await page.locator('#shelf .book .title').allTextContents()).includes('只在节点'));
  assert.equal((await pageCounts())['books'], 4);
});

test('a rule collection from the corpora imports as book sources', async () => {
  const file = join(CORPORA, 'booksources-xiu2', 'shuyuan_2026-01-30_modern.json');
  assert.ok(existsSync(file), `${file} is missing: this test reads the corpora in ../shared beside the repository`);
  const before = (await pageCounts())['book_sources'] ?? 0;
  await page.setInputFiles('#file', file);
  await statusIs(/shuyuan_2026-01-30_modern\.json: \d+ records stored/);
  const after = (await pageCounts())['book_sources'] ?? 0;
  assert.equal(after - before, JSON.parse(readFileSync(file, 'utf8')).length);
  writeFileSync(join(ARTIFACTS, 'status.txt'), (await page.locator('#status').textContent()) ?? '');
});

test('the page asks for nothing the server refuses (its favicon included)', async () => {
  await page.reload();
  await statusIs('Library ready.');
  assert.deepEqual(refused, []);
});

/** A rule file with jsLib on its one usable source and two records without the key. */
function rulesWithJsLib(): string {
  const path = join(work, 'rules-jslib.json');
  writeFileSync(
    path,
    JSON.stringify([
      { bookSourceUrl: 'https://lib.example.org', bookSourceName: '用库书源', jsLib: 'function helper() { return 1 }' },
      { bookSourceName: '无地址一' },
      { bookSourceName: '无地址二' },
    ]),
  );
  return path;
}

test('a new library is at schema 75 unless another is chosen; the page says what it skipped and why, and what it dropped', async () => {
  const select = page.locator('#schema');
  assert.equal(await select.inputValue(), '75');
  const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
  assert.deepEqual(
    options,
    Array.from({ length: 27 }, (_, i) => String(75 - i)),
  );
  page.once('dialog', (d) => void d.accept());
  await page.click('#clear');
  await statusIs('New library at schema 75.');
  assert.match((await page.locator('#engine').textContent()) ?? '', /^schema 75, /);

  const rules = rulesWithJsLib();
  await page.setInputFiles('#file', rules);
  let text = await statusIs(/records stored/);
  assert.equal(text, 'rules-jslib.json: 1 records stored (bookSource 1); 2 skipped (missing key bookSourceUrl ×2)');
  const path = join(work, 'jslib-75.db');
  await download('#database', path);
  const db = openDb(path, { readonly: true });
  assert.equal(db.pragma('user_version', { simple: true }), 75);
  assert.deepEqual(db.prepare('SELECT bookSourceUrl, jsLib FROM book_sources').raw().all(), [['https://lib.example.org', 'function helper() { return 1 }']]);
  db.close();

  // Chosen older: the page names the field that schema has no column for, the file name once.
  await select.selectOption('62');
  page.once('dialog', (d) => void d.accept());
  await page.click('#clear');
  await statusIs('New library at schema 62.');
  await page.setInputFiles('#file', rules);
  text = await statusIs(/records stored/);
  assert.equal(
    text,
    'rules-jslib.json: 1 records stored (bookSource 1); 2 skipped (missing key bookSourceUrl ×2)\nbookSource: dropped (no column at schema 62): jsLib ×1',
  );
  assert.equal(text.split('rules-jslib.json').length - 1, 1);
});

test('a second page of the same origin says plainly that the library is open elsewhere', async () => {
  const second = await context.newPage();
  try {
    await second.goto(page.url());
    const status = second.locator('#status', { hasText: /Could not open the library/ });
    await status.waitFor({ timeout: 60_000 });
    assert.match((await status.textContent()) ?? '', /DRIVER_UNAVAILABLE|not available here: OPFS storage could not start .*one page at a time/);
  } finally {
    await second.close();
  }
  // The first page still works.
  await page.reload();
  await statusIs('Library ready.');
});
