// The content step's rules as BookContent.kt and WebBook.getContentAwait apply them, on the paged
// fixture source over 127.0.0.1: replaceRegex on the whole text (lines trimmed, the rule, the
// indent put back), an empty content rule (the chapter URL is the text), a volume (its tag,
// nothing fetched), and <img> kept with an absolute src.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { expectedText, fixtureSources, type BookSourceJson } from './helpers/fixture-site/index.js';
import { openSource } from '../src/sources/engine/session.js';
import type { WebChapter } from '../src/sources/engine/types.js';
import { fixtureHost } from './helpers/source-flows.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
after(() => running.close());
const m = running.site.model;
const f = fixtureSources(running.url, SEED).find((x) => x.id === 'paged')!;
const host = fixtureHost();
const b = m.books.find((x) => x.name === m.keywords.one)!;
const withContent = (rules: Record<string, string>): BookSourceJson => ({ ...f.source, ruleContent: { ...f.source.ruleContent, ...rules } });

async function opened(s: BookSourceJson) {
  const flows = openSource(s, host);
  const book = await flows.bookInfo((await flows.search(b.name))[0]!);
  return { flows, book, toc: await flows.toc(book) };
}

test('replaceRegex runs on the whole text: lines trimmed, the rule applied, each line indented again', async () => {
  const { flows, book, toc } = await opened(withContent({ replaceRegex: '##[天地]' }));
  const readable = toc.filter((c) => !c.isVolume);
  const c = readable[0]!;
  const want = expectedText(b.chapters[c.index]!)
    .split('\n')
    .map((line) => `\u3000\u3000${line.trim().replace(/[天地]/g, '')}`)
    .join('\n');
  assert.equal(await flows.content(book, c, readable[1]?.url), want);
});

test('an empty content rule gives the chapter URL; a volume gives its tag without a fetch', async () => {
  const { flows, book, toc } = await opened(withContent({ content: '' }));
  const c = toc.find((x) => !x.isVolume)!;
  assert.equal(await flows.content(book, c), c.url);
  const volume: WebChapter = { ...c, title: '第一卷', url: '第一卷3', isVolume: true, tag: '卷说明' };
  const hitsBefore = [...running.site.hits.values()].reduce((a, n) => a + n, 0);
  const full = await opened(f.source);
  const hitsMid = [...running.site.hits.values()].reduce((a, n) => a + n, 0);
  assert.equal(await full.flows.content(full.book, volume), '卷说明');
  assert.equal(
    [...running.site.hits.values()].reduce((a, n) => a + n, 0),
    hitsMid,
    'nothing fetched for the volume',
  );
  assert.ok(hitsMid > hitsBefore);
});

test('<img> in the content is kept, its src made absolute against the page', async () => {
  // The book page read as a chapter: its info block holds the cover image.
  const { flows, book } = await opened(withContent({ content: 'class.book-info@html', nextContentUrl: '' }));
  const asChapter: WebChapter = {
    url: book.bookUrl,
    title: b.name,
    isVolume: false,
    baseUrl: book.bookUrl,
    bookUrl: book.bookUrl,
    index: 0,
    isVip: false,
    isPay: false,
    tag: null,
    variable: null,
  };
  const text = await flows.content(book, asChapter);
  assert.ok(text.startsWith(`\u3000\u3000<img src="${running.url}${b.coverPath}">`), text);
  assert.ok(text.includes(`\n\u3000\u3000${b.name}\n`), text);
});
