// sources dedupe (normalised URL, keep rule, input untouched unless --apply / --write),
// sources enable|disable (by group or URL, one transaction), cache purge (expired only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from 'legado-store';
import { findDuplicateSources, normalizeSourceUrl, ruleCount } from '../src/node/dedupe.js';
import { cli } from './helpers/cli.js';
import { snapshot, tempDir } from './helpers/files.js';
import { buildStore, source } from './helpers/inspect-fixture.js';

const dir = tempDir('legado-sources-');

function storeWithSources(name: string, version: 62 | 49 = 62): string {
  const path = join(dir, name);
  buildStore(path, version);
  return path;
}

function withStore<T>(path: string, fn: (s: Store<62>) => T): T {
  const s = openStore(path) as Store<62>;
  try {
    return fn(s);
  } finally {
    s.close();
  }
}

interface DedupeJson {
  sources: number;
  dropped: number;
  skippedRecords: number;
  sets: { normalizedUrl: string; keep: { url: string; rules: number }; drop: { url: string }[] }[];
  applied?: { deleted: number; booksRepointed: number };
  written?: { path: string; sources: number };
}

test('normalisation: trimmed, scheme and host in lower case, trailing / dropped; path and user info keep their case', () => {
  assert.equal(normalizeSourceUrl(' HTTPS://WWW.Biquge.Example/ '), 'https://www.biquge.example');
  assert.equal(normalizeSourceUrl('https://a.example/Path/Book/'), 'https://a.example/Path/Book');
  assert.equal(normalizeSourceUrl('https://User:PW@A.example:8080/x//'), 'https://User:PW@a.example:8080/x');
  assert.equal(normalizeSourceUrl('https://a.example#备注'), 'https://a.example#备注');
  assert.equal(normalizeSourceUrl('❀.qidian.♂ '), '❀.qidian.♂');
  assert.equal(normalizeSourceUrl('https://'), 'https://');
  assert.equal(ruleCount({ ruleSearch: '{"bookList":"li","name":"","author":"a"}', ruleToc: 'not json', ruleContent: null, header: '{"a":"b"}' }), 3);
});

test('keep rule: a URL with no white space around it, then newest lastUpdateTime, then more rules, then the first', () => {
  const entries = [
    { row: source('https://a.example', { lastUpdateTime: 1 }), position: 0 },
    { row: source('https://A.example/', { lastUpdateTime: 2 }), position: 1 },
    { row: source('https://b.example'), position: 2 },
    { row: source('https://b.example/', { ruleToc: '{"chapterList":"li"}' }), position: 3 },
    { row: source('https://c.example'), position: 4 },
    { row: source(' https://c.example'), position: 5 },
    // The real case: the newer, richer record's URL ends in " \n\n"; the clean one is kept.
    { row: source('https://www.xinremenxs.com \n\n', { lastUpdateTime: 9, ruleToc: '{"chapterList":"li"}' }), position: 6 },
    { row: source('https://www.xinremenxs.com', { lastUpdateTime: 1 }), position: 7 },
  ];
  const r = findDuplicateSources(entries);
  assert.equal(r.sources, 8);
  assert.deepEqual(
    r.sets.map((s) => [s.normalizedUrl, s.keep.position, s.drop.map((d) => d.position)]),
    [
      ['https://a.example', 1, [0]],
      ['https://b.example', 3, [2]],
      ['https://c.example', 4, [5]],
      ['https://www.xinremenxs.com', 7, [6]],
    ],
  );
});

test('dedupe on a store: reports, changes nothing (read-only, nothing beside the file)', async () => {
  const path = storeWithSources('report.db');
  const before = snapshot(path);
  const files = readdirSync(dir).sort();
  const r = await cli('sources', 'dedupe', path, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(path), before);
  assert.deepEqual(readdirSync(dir).sort(), files);
  const d = JSON.parse(r.stdout) as DedupeJson;
  assert.equal(d.sources, 6);
  assert.equal(d.dropped, 3);
  assert.deepEqual(
    d.sets.map((s) => [s.normalizedUrl, s.keep.url, s.drop.map((x) => x.url).sort()]),
    [
      // The newest spelling has spaces around it: the newest clean one is kept.
      ['https://www.biquge.example', 'https://www.biquge.example', [' HTTPS://WWW.BIQUGE.EXAMPLE', 'https://www.Biquge.example/']],
      ['https://m.qidian.example', 'https://m.qidian.example/', ['https://m.qidian.example']],
    ],
  );
  const text = await cli('sources', 'dedupe', path);
  assert.match(text.stdout, /6 source\(s\), 2 duplicate set\(s\), 3 to drop\nnothing changed/);
});

test('dedupe --apply: deletes the duplicates in one transaction, books move to the kept source', async () => {
  const path = storeWithSources('apply.db');
  withStore(path, (s) =>
    s.books.save({ bookUrl: 'https://www.biquge.example/book/9', name: '新', author: 'x', origin: ' HTTPS://WWW.BIQUGE.EXAMPLE', originName: 'old', type: 8 }),
  );
  const r = await cli('sources', 'dedupe', path, '--apply', '--json');
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout) as DedupeJson;
  // The fixture's books read from the kept spelling; this one from a dropped one.
  assert.deepEqual(d.applied, { deleted: 3, booksRepointed: 1 });
  withStore(path, (s) => {
    assert.deepEqual(
      s.bookSources.all().map((x) => x.bookSourceUrl),
      ['https://www.biquge.example', 'https://m.qidian.example/', 'https://alone.example/path/'],
    );
    const b = s.books.get('https://www.biquge.example/book/9')!;
    assert.equal(b.origin, 'https://www.biquge.example');
    assert.equal(b.originName, '书源 https://www.biquge.example');
  });
  assert.equal((JSON.parse((await cli('sources', 'dedupe', path, '--json')).stdout) as DedupeJson).dropped, 0);
});

test('dedupe --apply is all or nothing: a failure part-way leaves every source and book as it was', async () => {
  const path = storeWithSources('atomic.db');
  withStore(path, (s) => {
    s.books.save({ bookUrl: 'u', name: 'n', author: 'a', origin: 'https://www.biquge.example', type: 8 });
    // The second deletion fails (a trigger stands in for a crash or a locked row).
    s.db.exec(
      `CREATE TRIGGER refuse BEFORE DELETE ON book_sources WHEN old.bookSourceUrl = 'https://m.qidian.example' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
  });
  const count = (sql: string) => withStore(path, (s) => s.db.prepare(sql).pluck().get());
  const r = await cli('sources', 'dedupe', path, '--apply');
  assert.equal(r.code, 1);
  assert.equal(count('SELECT count(*) FROM book_sources'), 6);
  assert.equal(count("SELECT origin FROM books WHERE bookUrl = 'u'"), 'https://www.biquge.example');
});

test('dedupe of a JSON file (2.0 and exact repeats too) with --write: a new file the import reads; the input untouched', async () => {
  const input = join(dir, 'bookSource.json');
  writeFileSync(
    input,
    JSON.stringify(
      [
        source('https://x.example', { lastUpdateTime: 1 }),
        source('https://x.example', { lastUpdateTime: 3 }),
        source('https://X.example/', { lastUpdateTime: 2 }),
        {
          bookSourceUrl: 'https://legacy.example',
          bookSourceName: '旧',
          enable: true,
          ruleSearchUrl: 'https://legacy.example/s?q=searchKey',
          serialNumber: 1,
          lastUpdateTime: 0,
        },
        { bookSourceUrl: 'https://legacy.example/', bookSourceName: '旧2', enable: true, serialNumber: 2, lastUpdateTime: 0 },
        { bookSourceName: 'no url' },
      ],
      null,
      2,
    ),
  );
  const before = snapshot(input);
  const out = join(dir, 'dedup.json');
  let r = await cli('sources', 'dedupe', input, '--write', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(input), before);
  const d = JSON.parse(r.stdout) as DedupeJson;
  assert.deepEqual([d.sources, d.dropped, d.skippedRecords], [5, 3, 1]);
  assert.deepEqual(d.written, { path: out, sources: 2 });
  const written = JSON.parse(readFileSync(out, 'utf8')) as { bookSourceUrl: string; lastUpdateTime: number }[];
  assert.deepEqual(
    written.map((s) => [s.bookSourceUrl, s.lastUpdateTime]),
    [
      ['https://x.example', 3],
      ['https://legacy.example', 0],
    ],
  );
  // The written file is a source list the importer takes as it is.
  const target = join(dir, 'imported.db');
  assert.equal((await cli('init', target)).code, 0);
  r = await cli('import', target, out, '--strict', '--json');
  assert.equal(r.code, 0, r.stderr);
  // An existing file is refused (exit 1, unchanged) unless --force.
  const kept = snapshot(out);
  r = await cli('sources', 'dedupe', input, '--write', out);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FILE_EXISTS/);
  assert.deepEqual(snapshot(out), kept);
  r = await cli('sources', 'dedupe', input, '--write', out, '--force');
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')));
  // --apply needs a store; --force needs --write.
  assert.equal((await cli('sources', 'dedupe', input, '--apply')).code, 2);
  assert.equal((await cli('sources', 'dedupe', input, '--force')).code, 2);
  r = await cli('sources', 'dedupe', join(dir, 'nothing.json'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FILE_NOT_FOUND/);
});

test('sources enable|disable: by group (comma-aware) or by URL, in one transaction; unknown ones change nothing', async () => {
  const path = storeWithSources('enable.db');
  const enabled = () =>
    withStore(path, (s) =>
      s.bookSources
        .all()
        .filter((x) => x.enabled)
        .map((x) => x.bookSourceUrl.trim()),
    );
  let r = await cli('sources', 'disable', path, '--group', '失效', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { enabled: false, sources: ['https://www.biquge.example', 'https://alone.example/path/'], changed: 2 });
  assert.equal(enabled().length, 4);
  r = await cli('sources', 'enable', path, '--url', 'https://alone.example/path/', '--url', 'https://www.biquge.example');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'enabled 2 of 2 source(s) (the others already were)\n');
  assert.equal(enabled().length, 6);
  const before = snapshot(path);
  r = await cli('sources', 'disable', path, '--url', 'https://alone.example/path/', '--url', 'https://missing.example');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_SOURCE: book_sources: no source with url "https:\/\/missing\.example"; nothing was changed/);
  assert.equal(enabled().length, 6);
  r = await cli('sources', 'disable', path, '--group', '不存在');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_GROUP: no source group named "不存在" \(source groups: .*精品/);
  assert.deepEqual(snapshot(path).main, before.main);
  assert.equal((await cli('sources', 'enable', path)).code, 2);
});

test('sources enable at schema 49', async () => {
  const path = storeWithSources('enable49.db', 49);
  const r = await cli('sources', 'disable', path, '--group', '精品', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { changed: number }).changed, 5, 'one of the six is only in 失效');
});

test('cache purge: expired entries go, ones without a deadline or not yet due stay', async () => {
  for (const version of [62, 49] as const) {
    const path = storeWithSources(`cache${version}.db`, version);
    const r = await cli('cache', 'purge', path, '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { deleted: 1, remaining: 2 });
    assert.deepEqual(
      withStore(path, (s) => s.tables.caches.list({ orderBy: 'key' }).map((c) => c.key)),
      ['forever', 'future'],
    );
    assert.match((await cli('cache', 'purge', path)).stdout, /^deleted 0 expired entries, 2 left\n$/);
  }
  const r = await cli('cache', 'purge', join(dir, 'none.db'));
  assert.equal(r.code, 1);
  assert.ok(!existsSync(join(dir, 'none.db')));
});

test('dedupe --write keeps jsLib and exploreScreen (file and 75 store), names the fields no column holds, prints a summary; --list the sets', async () => {
  const input = join(dir, 'modern.json');
  writeFileSync(
    input,
    JSON.stringify([
      source('https://j.example', { lastUpdateTime: 1, jsLib: 'function a() {}', exploreScreen: '[{"k":1}]' }),
      source('https://j.example/', { lastUpdateTime: 2, jsLib: 'function b() {}' }),
      source('https://k.example', { jsLib: 'function c() {}', forkOnlyField: 'x' }),
      source('https://k.example/'),
    ]),
  );
  const out = join(dir, 'modern.dedup.json');
  let r = await cli('sources', 'dedupe', input, '--write', out);
  assert.equal(r.code, 0, r.stderr);
  // A summary, no per-set lines, and the one field no schema has (a fork's), by name.
  assert.equal(
    r.stdout,
    `4 source(s), 2 duplicate set(s), 2 to drop\nwrote 2 source(s) to ${out}\n` +
      'kept as given (no column of book_sources at schema 75): forkOnlyField ×1\n--list shows every set (--json too)\n',
  );
  const written = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>[];
  assert.deepEqual(
    written.map((s) => [s.bookSourceUrl, s.jsLib, s.exploreScreen ?? null]),
    [
      ['https://j.example/', 'function b() {}', null],
      ['https://k.example', 'function c() {}', null],
    ],
  );
  r = await cli('sources', 'dedupe', input, '--write', out, '--force', '--list');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^https:\/\/j\.example\n {2}keep "https:\/\/j\.example\/" .*\n {2}drop "https:\/\/j\.example" /);

  // From a store at 75: its own columns are written.
  const store = join(dir, 'modern75.db');
  const s = openStore(store, { schema: 75 });
  for (const src of [source('https://j.example', { jsLib: 'function a() {}', exploreScreen: '[]' }), source('https://j.example/', { customOrder: 1 })]) {
    s.tables.book_sources.insert(src as never);
  }
  s.close();
  const fromStore = join(dir, 'from75.json');
  r = await cli('sources', 'dedupe', store, '--write', fromStore);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    (JSON.parse(readFileSync(fromStore, 'utf8')) as Record<string, unknown>[]).map((x) => [x.bookSourceUrl, x.jsLib, x.exploreScreen]),
    [['https://j.example', 'function a() {}', '[]']],
  );
});

test("dedupe --write keeps every field of the app's JSON, enabledReview and fields no schema has among them, with its value", async () => {
  // A source as the app's JSON carries it at 3.23 (enabledReview, rule objects, a login UI) and
  // one with a field of a fork's; each with a duplicate that goes.
  const app = {
    ...source('https://r.example', { lastUpdateTime: 5, bookSourceGroup: '精品', bookSourceComment: 'c' }),
    enabledReview: true,
    enabledCookieJar: false,
    loginUi: '[{"name":"user","type":"text"}]',
    ruleSearch: { bookList: '$.data', name: '$.name', author: '$.author' },
    ruleContent: { content: '#content@html', nextContentUrl: '' },
    variableComment: 'v',
  };
  const fork = { ...source('https://f.example', { lastUpdateTime: 9 }), ruleSearch: { bookList: 'li' }, enabledReview: false, forkOnlyField: { a: [1, 2] } };
  const input = join(dir, 'every-field.json');
  writeFileSync(input, JSON.stringify([app, source('https://r.example/'), fork, source('https://f.example/')]));
  const out = join(dir, 'every-field.dedup.json');
  const r = await cli('sources', 'dedupe', input, '--write', out);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^kept as given \(no column of book_sources at schema 75\): enabledReview ×2, forkOnlyField ×1$/m);
  const written = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>[];
  assert.deepEqual(
    written.map((w) => w.bookSourceUrl),
    ['https://r.example', 'https://f.example'],
  );
  // Every field of each kept input record is in the file written, with the value given.
  for (const [given, w] of [
    [app, written[0]!],
    [fork, written[1]!],
  ] as const) {
    for (const [field, value] of Object.entries(given)) assert.deepEqual(w[field], value, `${String(w.bookSourceUrl)}: ${field}`);
  }
});
