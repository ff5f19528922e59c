// What an engine running a fixture source must find, derived from the model and the shape's
// promise (Expect), never from an engine's output.
import { chapterText, searchBooks, type Book, type Chapter, type Model } from './model.js';
import type { BookField, FixtureSource } from './source-shape.js';

export type BookFields = Partial<Record<BookField, string>> & { readonly bookUrl: string };

function fieldsOf(base: string, b: Book, fields: readonly BookField[]): Partial<Record<BookField, string>> {
  const all: Record<BookField, string> = {
    name: b.name,
    author: b.author,
    kind: b.kind,
    intro: b.intro,
    coverUrl: base + b.coverPath,
    wordCount: b.wordCount,
    latestChapterTitle: b.latestChapter,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f]]));
}

/** The base URL a fixture source was generated for (its bookSourceUrl without the `#` tag). */
const baseOf = (f: FixtureSource): string => f.source.bookSourceUrl.replace(/#.*$/, '');

const hit = (f: FixtureSource, b: Book, fields: readonly BookField[]): BookFields => ({
  ...fieldsOf(baseOf(f), b, fields),
  name: b.name,
  bookUrl: f.expect.bookUrl(b),
});

/**
 * The search hits in the site's order. One hit on a source with `bookUrlPattern` is the detail
 * page itself, so it carries the book-info fields.
 */
export function expectedSearch(m: Model, f: FixtureSource, keyword: string): BookFields[] {
  const hits = searchBooks(m, keyword);
  const detail = hits.length === 1 && Boolean(f.source.bookUrlPattern);
  return hits.map((b) => hit(f, b, detail ? f.expect.infoFields : f.expect.searchFields));
}

/** An explore page of a kind (the paged and API sources list each kind): that kind's books, as search hits. */
export function expectedExplore(m: Model, f: FixtureSource, kind: string): BookFields[] {
  return m.books.filter((b) => b.kind === kind).map((b) => hit(f, b, f.expect.searchFields));
}

export function expectedInfo(f: FixtureSource, b: Book): BookFields {
  return { ...fieldsOf(baseOf(f), b, f.expect.infoFields), bookUrl: f.expect.bookUrl(b) };
}

export interface ExpectedChapter {
  readonly index: number;
  readonly title: string;
  /** Absolute for a readable chapter; undefined for a volume (the app makes one up). */
  readonly url: string | undefined;
  readonly isVolume: boolean;
  readonly isVip: boolean;
  readonly isPay: boolean;
  readonly chapter: Chapter;
}

/** The TOC as the app stores it (numbered from 0), with only the marks the shape carries. */
export function expectedToc(f: FixtureSource, b: Book): ExpectedChapter[] {
  const t = f.expect.toc;
  return b.chapters
    .filter((c) => t.volumes || !c.isVolume)
    .map((c, index) => ({
      index,
      title: c.title,
      url: c.isVolume ? undefined : f.expect.chapterUrl(b, c),
      isVolume: c.isVolume,
      isVip: t.vip && c.isVip,
      isPay: t.pay && c.isPay,
      chapter: c,
    }));
}

/**
 * A chapter's text as the app's content step gives it (pages joined, ads removed by the rules):
 * each paragraph on a line indented with two U+3000, except the first line of a source whose
 * content rule gives plain text (`expect.plainText`), which HtmlFormatter leaves as it is.
 */
export const expectedText = (c: Chapter, f?: FixtureSource): string => {
  const text = chapterText(c);
  return f?.expect.plainText ? text.replace(/^\u3000\u3000/, '') : text;
};
