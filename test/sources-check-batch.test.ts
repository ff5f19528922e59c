// `sources check` over a store on the real engine and the fixture site: each verdict on its row
// in one write (read back with raw SQL), a source that needs a browser or a helper this engine
// lacks reported and left untouched, at most `concurrency` sources at a time, and a cancel that
// writes nothing for the checks under way or not started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import Database from 'better-sqlite3';
import { openStore, type Store } from 'legado-store';
import { checkSite, storeWithSources } from './helpers/check-site.js';
import { openSource } from '../src/sources/engine/session.js';
import { parseBookSource } from '../src/sources/engine/source.js';
import { checkRows, type CheckBatchOptions, type SourceCheckResult } from '../src/sources/checker/batch.js';
import { checkedRow, writeCheckedRow } from '../src/sources/checker/store.js';
import { tempDir } from './helpers/files.js';

const { model: m, host, api: apiSource, variant, slow } = await checkSite(20261211);
const api = apiSource.source;
const dir = tempDir('legado-check-batch-');
const storeWith = (name: string, sources: Parameters<typeof storeWithSources>[2]): string => storeWithSources(dir, name, sources);

async function checkStore(path: string, extra: Partial<CheckBatchOptions> = {}): Promise<SourceCheckResult[]> {
  const store = openStore(path) as Store<62>;
  try {
    const rows = store.tables.book_sources.select('ORDER BY customOrder, bookSourceUrl') as unknown as Record<string, unknown>[];
    return await checkRows(rows, {
      keyword: m.keywords.many,
      steps: { search: true, explore: false, info: true, toc: true, content: true },
      parse: (row) => parseBookSource(row),
      open: (s, signal) => openSource(s, host, { signal }),
      current: (url) => checkedRow(store, url),
      write: (url, v) => void writeCheckedRow(store, url, v),
      ...extra,
    });
  } finally {
    store.close();
  }
}

const rawRows = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare('SELECT bookSourceUrl u, bookSourceGroup g, bookSourceComment c, respondTime t FROM book_sources ORDER BY customOrder, bookSourceUrl')
      .all() as {
      u: string;
      g: string | null;
      c: string | null;
      t: number;
    }[];
  } finally {
    db.close();
  }
};

test('each source is marked on its row; one that needs a browser, or meets a helper this engine lacks, is reported and left as it was', async () => {
  const path = storeWith('marks.db', [
    { ...api, bookSourceGroup: '精品,搜索失效', customOrder: 1 },
    variant('none', { bookSourceGroup: '优', customOrder: 2, ruleSearch: { ...api.ruleSearch, checkKeyWord: m.keywords.none } }),
    variant('browser', { bookSourceGroup: '漫画', customOrder: 3, ruleContent: { ...api.ruleContent, webJs: 'document.body.innerHTML' } }),
    variant('import', { bookSourceGroup: '验证码', customOrder: 4, searchUrl: '@js:java.importScript("lib.js"); "/api/search?keyword=" + key' }),
  ]);
  const before = rawRows(path);
  const results = await checkStore(path);
  assert.deepEqual(
    results.map((r) => r.status),
    ['ok', 'failed', 'skipped', 'skipped'],
  );
  assert.match(results[2]!.skipped!, /needs a browser/);
  assert.match(results[3]!.skipped!, /importScript.*: not run here/);
  const [a, b, c, d] = rawRows(path);
  assert.deepEqual([a!.g, a!.c], ['精品', null]);
  assert.ok(a!.t < 180_000);
  assert.deepEqual([b!.g, b!.c], ['优,搜索失效', '// Error: 搜索失效']);
  assert.ok(b!.t >= 180_000);
  assert.deepEqual([c, d], before.slice(2));
});

test('no more than `concurrency` sources are checked at once, and every source once', async () => {
  const sources = Array.from({ length: 9 }, (_, i) => variant(`n${i}`, { customOrder: i }));
  const path = storeWith('pool.db', sources);
  let active = 0;
  let most = 0;
  const opened: string[] = [];
  const results = await checkStore(path, {
    concurrency: 3,
    open: (s, signal) => {
      opened.push(s.bookSourceUrl);
      most = Math.max(most, ++active);
      return openSource(s, host, { signal });
    },
    onResult: () => void active--,
  });
  assert.equal(most, 3);
  assert.deepEqual(opened.sort(), sources.map((s) => s.bookSourceUrl).sort());
  assert.ok(results.every((r) => r.status === 'ok'));
});

test('many sources at once on one signal: no MaxListenersExceededWarning, and no listener left on the signal', async () => {
  const sources = Array.from({ length: 33 }, (_, i) => variant(`w${i}`, { customOrder: i }));
  const path = storeWith('listeners.db', sources);
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  const run = new AbortController();
  let most = 0;
  try {
    const results = await checkStore(path, {
      concurrency: 32,
      signal: run.signal,
      open: (s, signal) => {
        most = Math.max(most, getEventListeners(run.signal, 'abort').length);
        return openSource(s, host, { signal });
      },
    });
    assert.ok(results.every((r) => r.status === 'ok'));
    await new Promise((r) => setImmediate(r)); // a warning is emitted on a later tick
  } finally {
    process.off('warning', onWarning);
  }
  assert.equal(most, 1);
  assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  assert.deepEqual(
    warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')),
    [],
  );
});

test('a cancel: the check under way and the one not started write nothing; the one done stays written', async () => {
  const path = storeWith('cancel.db', [
    { ...api, bookSourceGroup: '旧,搜索失效', customOrder: 1 },
    { ...slow, bookSourceGroup: '旧,搜索失效', customOrder: 2 },
    { ...slow, bookSourceUrl: `${slow.bookSourceUrl}-2`, bookSourceGroup: '旧,搜索失效', customOrder: 3 },
  ]);
  const before = rawRows(path);
  const cancel = new AbortController();
  const results = await checkStore(path, { concurrency: 2, signal: cancel.signal, onResult: (r) => r.status === 'ok' && cancel.abort() });
  assert.deepEqual(
    results.map((r) => r.status),
    ['ok', 'cancelled', 'cancelled'],
  );
  const after = rawRows(path);
  assert.equal(after[0]!.g, '旧');
  assert.deepEqual(after.slice(1), before.slice(1));
});
