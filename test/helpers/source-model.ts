// A small seeded model of web books (name, author, intro paragraphs, chapters with paragraphs)
// and the pages real sources meet, written from it: a search table without <tbody>, a list
// page, a JSON API, pages for XPath, AllInOne text. Tests compute what a rule should give from
// the model, never from the engine.
import { rng } from './fixture-site/prng.js';

export interface ModelChapter {
  readonly title: string;
  readonly path: string;
  readonly paragraphs: readonly string[];
}

export interface ModelBook {
  readonly id: number;
  readonly name: string;
  readonly author: string;
  readonly intro: readonly string[];
  readonly kind: readonly string[];
  readonly chapters: readonly ModelChapter[];
}

const SYLLABLES = ['青', '云', '剑', '仙', '山', '海', '风', '月', '龙', '星', 'Lin', 'Mo', 'Ye', 'Tian'];
const WORDS = ['the', 'old', 'road', '江湖', '少年', 'moon', '夜色', 'rain', 'sword', '归来', 'A&B', 'café'];

export function makeBooks(seed: number, count: number): ModelBook[] {
  const rnd = rng(seed).next;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const phrase = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return Array.from({ length: count }, (_, i) => {
    const id = 100 + i * 7;
    const chapters = Array.from({ length: 3 + Math.floor(rnd() * 5) }, (_, c) => ({
      title: `第${c + 1}章 ${phrase(2)}`,
      path: `/book/${id}/${1000 + c}.html`,
      paragraphs: Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => phrase(3 + Math.floor(rnd() * 4))),
    }));
    return {
      id,
      name: `${pick(SYLLABLES)}${pick(SYLLABLES)}${i}`,
      author: `${pick(SYLLABLES)}${pick(SYLLABLES)}`,
      intro: Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => phrase(4)),
      kind: [pick(['玄幻', '武侠', 'Sci-Fi']), pick(['连载', '完本'])],
      chapters,
    };
  });
}

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A search result table as old sites write it: no <tbody>, a header row, classes in capitals. */
export function searchTablePage(books: readonly ModelBook[]): string {
  const rows = books.map(
    (b) =>
      `<tr>\n  <td class="Odd"><a href="/book/${b.id}/">${esc(b.name)}</a></td>\n  <td class="Odd">${esc(b.author)}</td>\n  <td>${esc(b.kind.join(' '))}</td></tr>`,
  );
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>search</title></head><body>
<TABLE class="Grid"><tr><th>书名</th><th>作者</th><th>分类</th></tr>
${rows.join('\n')}
</TABLE><script>var tracker = "<tr><td>not a row</td></tr>";</script></body></html>`;
}

/** A list page: intro paragraphs split by <br> and odd whitespace, a cover, the latest chapter. */
export function listPage(books: readonly ModelBook[]): string {
  const items = books.map(
    (b) => `<li class="book-item">
    <img class="cover" src="//img.test/c/${b.id}.jpg">
    <h3 class="bookname"><a href="../book/${b.id}/" title="${esc(b.name)}">${esc(b.name)}</a></h3>
    <p class="Author">作者：<span>${esc(b.author)}</span></p>
    <div class="intro">\n      ${b.intro.map(esc).join('<br>\n  &nbsp;&nbsp;')}\n    </div>
    <p class="last"><a href="${b.chapters.at(-1)!.path}">${esc(b.chapters.at(-1)!.title)}</a></p>
  </li>`,
  );
  return `<html><body><div class="main"><ul class="result-list">${items.join('\n')}</ul></div></body></html>`;
}

/** A JSON API answer for a search. */
export function searchJson(books: readonly ModelBook[]): string {
  return JSON.stringify({
    code: 0,
    data: {
      total: books.length,
      list: books.map((b) => ({
        id: b.id,
        bookName: b.name,
        author: { name: b.author },
        tags: b.kind,
        intro: b.intro.join('\n'),
        chapterCount: b.chapters.length,
      })),
    },
  });
}

/** A TOC page with three "latest" chapters first, then the whole list, for positions and exclusions. */
export function tocPage(book: ModelBook): string {
  const dd = (c: ModelChapter): string => `<dd><a href="${c.path}">${esc(c.title)}</a></dd>`;
  const latest = book.chapters.slice(-3).reverse();
  return `<html><body><div id="list"><dl><dt>最新章节</dt>${latest.map(dd).join('')}<dt>正文</dt>${book.chapters.map(dd).join('\n')}</dl></div></body></html>`;
}

/** A chapter page: paragraphs as text lines split by <br>, an ad line, a script. */
export function chapterPage(chapter: ModelChapter): string {
  return `<html><body><h1 class="title">${esc(chapter.title)}</h1><div id="content">
${chapter.paragraphs.map((p) => `&nbsp;&nbsp;&nbsp;&nbsp;${esc(p)}<br>`).join('\n')}
<script>ad()</script>请记住本站域名 www.example.test<br></div></body></html>`;
}
