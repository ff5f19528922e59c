// `legado-store serve`'s own page in Debian's headless Chromium (playwright-core, no browser
// download): GET / without --web says what the server is and how to add the app's front-end,
// shows the store's counts, and its links reach the app's API from the browser.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { chromium } from 'playwright-core';
import { fillSample } from '../../src/sample/sample.js';
import { startServer } from '../../src/node/server.js';
import { openStore } from '../../src/store/open.js';
import { openDb } from '../helpers/engine.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test("our page in Chromium: what the server is, the store's counts, the --web hint, a working API link", async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const work = mkdtempSync(join(tmpdir(), 'legado-serve-page-'));
  const path = join(work, 'demo.db');
  const store = openStore(path, { schema: 62 });
  fillSample(store);
  const server = await startServer(store, { port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  after(async () => {
    await browser.close();
    await server.close();
    store.close();
    rmSync(work, { recursive: true, force: true });
  });
  const raw = openDb(path, { readonly: true });
  const books = raw.prepare('SELECT count(*) FROM books').pluck().get() as number;
  const sources = raw.prepare('SELECT count(*) FROM book_sources').pluck().get() as number;
  raw.close();

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  assert.equal(await page.locator('h1').textContent(), 'legado-store serve');
  assert.match((await page.locator('#what').textContent()) ?? '', /does not fetch from book sources/);
  assert.equal(Number(await page.locator('[data-count="books"]').textContent()), books);
  assert.equal(Number(await page.locator('[data-count="bookSources"]').textContent()), sources);
  assert.match((await page.locator('pre').textContent()) ?? '', /--web path\/to\/assets\/web/);
  await page.click('a[href="/getBookshelf"]');
  const envelope = JSON.parse((await page.locator('body').textContent()) ?? '') as { isSuccess: boolean; data: unknown[] };
  assert.equal(envelope.isSuccess, true);
  assert.equal(envelope.data.length, books);
  assert.deepEqual(errors, []);
});
