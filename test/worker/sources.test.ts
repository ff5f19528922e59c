// The book-source engine inside workerd (wrangler dev, offline, no nodejs_compat), by
// sources-worker.ts: `openSource` with the Worker's fetch passed in (the fixture site's pure
// function), QuickJS from the imported .wasm and storage in maps, runs search, book info, the TOC
// and chapters' text for a T0 source (GBK POST search answered with a 302) and the JS sources
// (T1 and T2: java.ajax, md5, base64), each equal to the site's model; a source aimed at 10.0.0.1
// is refused by the network policy before the fetch is asked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../../worker/dev.js';
import { expectedInfo, expectedSearch, expectedText, expectedToc, fixtureSite, fixtureSources, type BookFields } from '../helpers/fixture-site/index.js';
import { ENGINE_BASE as BASE, SEED } from './fixture-site-seed.js';
import { startWorker, type RunningWorker } from './helpers.js';

const m = fixtureSite(SEED).model;
const all = fixtureSources(BASE, SEED);

let worker: RunningWorker;
before(async () => {
  worker = await startWorker([], join(ROOT, 'test', 'worker', 'sources-wrangler.jsonc'));
});
after(async () => {
  await worker?.stop();
});

interface Chapter {
  index: number;
  title: string;
  url: string;
  isVolume: boolean;
  isVip: boolean;
  isPay: boolean;
}
interface Answer {
  hits?: Record<string, unknown>[];
  book?: Record<string, unknown>;
  toc?: Chapter[];
  texts?: string[];
  error?: { name: string; code: string | null; reason: string | null; message: string };
  calls: string[];
}

async function run(id: string, keyword: string, jsHeader?: string): Promise<Answer> {
  const res = await fetch(worker.url, { method: 'POST', body: JSON.stringify({ id, keyword, jsHeader }) });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Answer;
}

const shown = (hit: Record<string, unknown>, want: BookFields): Record<string, unknown> => Object.fromEntries(Object.keys(want).map((k) => [k, hit[k]]));

for (const id of ['gbk', 'js-plain', 'js-java']) {
  test(`${id} (${all.find((f) => f.id === id)!.tier}): search, book info, TOC and two chapters' text equal the model`, async () => {
    const f = all.find((x) => x.id === id)!;
    const out = await run(id, m.keywords.many);
    assert.equal(out.error, undefined, JSON.stringify(out.error));
    const want = expectedSearch(m, f, m.keywords.many);
    assert.deepEqual(
      out.hits!.map((h, i) => shown(h, want[i] ?? { bookUrl: '' })),
      want,
    );
    const b = m.books.find((x) => f.expect.bookUrl(x) === out.hits![0]!['bookUrl'])!;
    assert.ok(b, 'the first hit is a model book');
    const info = expectedInfo(f, b);
    assert.deepEqual(shown(out.book!, info), info);
    const toc = expectedToc(f, b);
    assert.deepEqual(
      out.toc!.map((c) => ({ index: c.index, title: c.title, isVolume: c.isVolume, isVip: c.isVip, isPay: c.isPay })),
      toc.map((c) => ({ index: c.index, title: c.title, isVolume: c.isVolume, isVip: c.isVip, isPay: c.isPay })),
    );
    for (const c of out.toc!) if (!c.isVolume) assert.equal(c.url, toc[c.index]!.url, `chapter ${c.index} URL`);
    const readable = toc.filter((c) => !c.isVolume);
    assert.deepEqual(out.texts, [expectedText(readable[0]!.chapter, f), expectedText(readable[1]!.chapter, f)]);
    assert.ok(
      out.calls.every((u) => u.startsWith(`${BASE}/`)),
      'every fetch went to the site',
    );
  });
}

test('js-java with its header as a script: the header runs nested while the TOC script waits in java.ajax', async () => {
  const f = all.find((x) => x.id === 'js-java')!;
  const out = await run('js-java', m.keywords.many, '@js:JSON.stringify({"X-Requested-With": "XML" + "HttpRequest"})');
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  const b = m.books.find((x) => f.expect.bookUrl(x) === out.hits![0]!['bookUrl'])!;
  assert.deepEqual(
    out.toc!.map((c) => c.title),
    expectedToc(f, b).map((c) => c.title),
  );
});

test('a source aimed at 10.0.0.1 is refused by the network policy, the fetch never asked', async () => {
  const out = await run('private', 'x');
  assert.deepEqual([out.error?.code, out.error?.reason], ['ADDRESS_REFUSED', 'private'], JSON.stringify(out));
  assert.match(out.error!.message, /10\.0\.0\.1/);
  assert.deepEqual(out.calls, []);
});
