// `sources check` over a store, with flows that answer as told: at most `concurrency` checks at
// a time, each verdict on its row in one write (read back with raw SQL), a source that needs a
// browser reported and left untouched, and a cancel that writes nothing for the checks under way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, type Store } from 'legado-store';
import type { BookSource, SearchBook, SourceFlows } from '../src/sources/engine/types.js';
import { checkRows, type CheckBatchOptions, type SourceCheckResult } from '../src/sources/checker/batch.js';
import { checkedRow, writeCheckedRow } from '../src/sources/checker/store.js';
import { source } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir('legado-check-batch-');

function storeWith(name: string, rows: Record<string, unknown>[]): string {
  const path = join(dir, name);
  const s = openStore(path) as Store<62>;
  try {
    for (const r of rows) s.tables.book_sources.insert(source(String(r['bookSourceUrl']), r) as never);
  } finally {
    s.close();
  }
  return path;
}

const hit = (url: string): SearchBook =>
  ({
    bookUrl: `${url}/b`,
    tocUrl: '',
    origin: url,
    originName: '',
    type: 8,
    name: 'n',
    author: 'a',
    kind: null,
    coverUrl: null,
    intro: null,
    wordCount: null,
    latestChapterTitle: null,
    time: 0,
    variable: null,
    originOrder: 0,
  }) as SearchBook;

function options(
  store: Store<62>,
  flows: (s: BookSource, signal: AbortSignal) => Partial<SourceFlows>,
  extra: Partial<CheckBatchOptions> = {},
): CheckBatchOptions {
  return {
    steps: { search: true, explore: false, info: false, toc: false, content: false },
    parse: (row) => ({ ...(row as unknown as BookSource), ruleContent: row['ruleContent'] ? JSON.parse(String(row['ruleContent'])) : null }),
    open: (s, signal) => ({ source: s, ...flows(s, signal) }) as SourceFlows,
    current: (url) => checkedRow(store, url),
    write: (url, v) => void writeCheckedRow(store, url, v),
    ...extra,
  };
}

const rawRows = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT bookSourceUrl u, bookSourceGroup g, bookSourceComment c, respondTime t FROM book_sources ORDER BY bookSourceUrl').all() as {
      u: string;
      g: string | null;
      c: string | null;
      t: number;
    }[];
  } finally {
    db.close();
  }
};

test('each source is checked and marked on its row; one that needs a browser is reported and left as it was', async () => {
  const path = storeWith('marks.db', [
    { bookSourceUrl: 'https://a.example', bookSourceGroup: '精品,搜索失效', searchUrl: '/s' },
    { bookSourceUrl: 'https://b.example', bookSourceGroup: '优', searchUrl: '/s' },
    {
      bookSourceUrl: 'https://c.example',
      bookSourceGroup: '漫画',
      searchUrl: '/s',
      ruleContent: JSON.stringify({ content: 'id.c@html', webJs: 'document.body.innerHTML' }),
    },
    { bookSourceUrl: 'https://d.example', bookSourceGroup: '验证码', searchUrl: '/s' },
  ]);
  const store = openStore(path) as Store<62>;
  let results: SourceCheckResult[];
  try {
    const rows = store.tables.book_sources.select('ORDER BY bookSourceUrl') as unknown as Record<string, unknown>[];
    const unsupported = Object.assign(new Error('java.getVerificationCode needs the app'), { code: 'HELPER_UNSUPPORTED' });
    results = await checkRows(
      rows,
      options(store, (s) => ({
        search: async () => {
          if (s.bookSourceUrl.includes('d.')) throw unsupported;
          return s.bookSourceUrl.includes('a.') ? [hit(s.bookSourceUrl)] : [];
        },
      })),
    );
  } finally {
    store.close();
  }
  assert.deepEqual(
    results.map((r) => [r.url, r.status]),
    [
      ['https://a.example', 'ok'],
      ['https://b.example', 'failed'],
      ['https://c.example', 'skipped'],
      ['https://d.example', 'skipped'],
    ],
  );
  assert.match(results[2]!.skipped!, /needs a browser/);
  // A helper this engine lacks, met while running: not judged either.
  assert.match(results[3]!.skipped!, /getVerificationCode needs the app: not run here/);
  const [a, b, c, d] = rawRows(path);
  assert.deepEqual([d!.g, d!.c, d!.t], ['验证码', null, 180000]);
  assert.deepEqual([a!.g, a!.c], ['精品', null]);
  assert.ok(a!.t < 180_000);
  assert.deepEqual([b!.g, b!.c], ['优,搜索失效', '// Error: 搜索失效']);
  assert.ok(b!.t >= 180_000);
  assert.deepEqual([c!.g, c!.c, c!.t], ['漫画', null, 180000]);
});

test('no more than `concurrency` checks run at once, and every source is checked once', async () => {
  const urls = Array.from({ length: 9 }, (_, i) => `https://s${i}.example`);
  const path = storeWith(
    'pool.db',
    urls.map((u) => ({ bookSourceUrl: u, searchUrl: '/s' })),
  );
  const store = openStore(path) as Store<62>;
  let running = 0;
  let most = 0;
  const seen: string[] = [];
  try {
    const rows = store.tables.book_sources.select('') as unknown as Record<string, unknown>[];
    await checkRows(
      rows,
      options(
        store,
        (s) => ({
          search: async () => {
            seen.push(s.bookSourceUrl);
            most = Math.max(most, ++running);
            await new Promise((r) => setTimeout(r, 5));
            running--;
            return [hit(s.bookSourceUrl)];
          },
        }),
        { concurrency: 3 },
      ),
    );
  } finally {
    store.close();
  }
  assert.equal(most, 3);
  assert.deepEqual(seen.sort(), urls.sort());
});

test('a cancel: the checks under way and the ones not started write nothing; the ones done stay written', async () => {
  const urls = ['https://a.example', 'https://b.example', 'https://c.example'];
  const path = storeWith(
    'cancel.db',
    urls.map((u) => ({ bookSourceUrl: u, bookSourceGroup: '旧,搜索失效', searchUrl: '/s' })),
  );
  const before = rawRows(path);
  const store = openStore(path) as Store<62>;
  const cancel = new AbortController();
  let results: SourceCheckResult[];
  try {
    const rows = store.tables.book_sources.select('ORDER BY bookSourceUrl') as unknown as Record<string, unknown>[];
    results = await checkRows(
      rows,
      options(
        store,
        (s, signal) => ({
          search: (): Promise<SearchBook[]> => {
            if (s.bookSourceUrl === 'https://a.example') return Promise.resolve([hit(s.bookSourceUrl)]);
            // The second source's search is under way when the user cancels.
            cancel.abort();
            return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
          },
        }),
        { concurrency: 1, signal: cancel.signal },
      ),
    );
  } finally {
    store.close();
  }
  assert.deepEqual(
    results.map((r) => r.status),
    ['ok', 'cancelled', 'cancelled'],
  );
  const after = rawRows(path);
  assert.equal(after[0]!.g, '旧');
  assert.deepEqual(after.slice(1), before.slice(1));
});
