// The TOC's rules as BookChapterList.kt applies them, on the paged fixture source (5 chapters a
// page) with its chapter URL rule made to miss: a chapter without a URL takes its page's URL (a
// volume: its title and position), chapters are de-duplicated by URL keeping the last in reading
// order (with the `-` mark: the first, then the list reversed), and numbered from 0.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { fixtureSources, type BookSourceJson, type Chapter } from './helpers/fixture-site/index.js';
import { openSource } from '../src/sources/engine/session.js';
import type { SourceFlows } from '../src/sources/engine/types.js';
import { fixtureHost } from './helpers/source-flows.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
after(() => running.close());
const m = running.site.model;
const f = fixtureSources(running.url, SEED).find((x) => x.id === 'paged')!;
// A book with volumes and more than one TOC page.
const book = m.books.find((b) => b.chapters.some((c) => c.isVolume) && b.chapters.length > 5)!;

const host = fixtureHost();

function flowsOf(json: BookSourceJson): SourceFlows {
  return openSource(json, host);
}

const missing = (chapterList: string): BookSourceJson => ({ ...f.source, ruleToc: { ...f.source.ruleToc, chapterList, chapterUrl: 'class.nothing@href' } });

/** The chapters of each TOC page with the URL the app gives them when the rule finds none. */
function pagesWithUrls(): { c: Chapter; url: string }[][] {
  const pages: { c: Chapter; url: string }[][] = [];
  for (let p = 0; p * 5 < book.chapters.length; p++) {
    const pageUrl = `${running.url}/paged/book/${book.id}/toc_${p + 1}.html`;
    pages.push(book.chapters.slice(p * 5, p * 5 + 5).map((c, j) => ({ c, url: c.isVolume ? `${c.title}${j}` : pageUrl })));
  }
  return pages;
}

async function tocOf(json: BookSourceJson) {
  const flows = flowsOf(json);
  const hit = (await flows.search(book.name)).find((h) => h.name === book.name)!;
  return flows.toc(await flows.bookInfo(hit));
}

test('no chapter URL: the page URL, a volume its title and position; the last of a URL is kept', async () => {
  const toc = await tocOf(missing(f.source.ruleToc!['chapterList']!));
  // Per page: the volumes, and of the chapters sharing the page URL the last.
  const want = pagesWithUrls().flatMap((page) => {
    const lastReadable = page.filter((x) => !x.c.isVolume).at(-1);
    return page.filter((x) => x.c.isVolume || x === lastReadable);
  });
  assert.deepEqual(
    toc.map((c) => [c.index, c.title, c.url, c.isVolume]),
    want.map((x, i) => [i, x.c.title, x.url, x.c.isVolume]),
  );
});

test('the `-` mark keeps the first of a URL and reverses the list', async () => {
  const toc = await tocOf(missing(`-${f.source.ruleToc!['chapterList']!}`));
  const want = pagesWithUrls()
    .flatMap((page) => {
      const firstReadable = page.find((x) => !x.c.isVolume);
      return page.filter((x) => x.c.isVolume || x === firstReadable);
    })
    .reverse();
  assert.deepEqual(
    toc.map((c) => [c.index, c.title, c.url]),
    want.map((x, i) => [i, x.c.title, x.url]),
  );
});
