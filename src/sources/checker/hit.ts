// What the check and the debug run both do with a flow's results, as the app does.
import type { SearchBook, WebBook, WebChapter } from '../engine/types.js';

/** A hit as the book the next steps read (the app's SearchBook.toBook): the page it carried kept. */
export function asBook(hit: SearchBook): WebBook {
  const { bookUrl, tocUrl, origin, originName, name, author, kind, coverUrl, intro, wordCount, latestChapterTitle, type, variable } = hit;
  const book: WebBook = { bookUrl, tocUrl, origin, originName, name, author, kind, coverUrl, intro, wordCount, latestChapterTitle, type, variable };
  if (hit.infoHtml !== undefined) book.infoHtml = hit.infoHtml;
  if (hit.tocHtml !== undefined) book.tocHtml = hit.tocHtml;
  return book;
}

/** The chapters worth reading: not a volume whose URL starts with its title (Debug and CheckSourceService filter so). */
export function readableChapters(chapters: readonly WebChapter[]): WebChapter[] {
  return chapters.filter((c) => !(c.isVolume && c.url.startsWith(c.title)));
}
