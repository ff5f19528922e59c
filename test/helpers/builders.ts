// Compact builders of the rows tests write most (a book, a book source, a chapter) with the
// required fields. No side effects and only types imported, so test Workers can use them too.
import type { NewRow } from 'legado-store';

export function book(bookUrl: string, fields: Partial<NewRow<'books'>> = {}): NewRow<'books'> {
  return { bookUrl, name: bookUrl, author: 'a', origin: 'https://src.example.org', type: 8, ...fields };
}

/** A book source with the required fields (name = url). */
export function source(url: string, fields: Partial<NewRow<'book_sources'>> = {}): NewRow<'book_sources'> {
  return {
    bookSourceUrl: url,
    bookSourceName: url,
    bookSourceType: 0,
    customOrder: 0,
    enabled: true,
    enabledExplore: true,
    lastUpdateTime: 0,
    respondTime: 180000,
    weight: 0,
    ...fields,
  };
}

export function chapter(bookUrl: string, index: number, fields: Partial<NewRow<'chapters'>> = {}): NewRow<'chapters'> {
  return { url: `${bookUrl}/c${index}`, title: `第${index + 1}章`, isVolume: false, baseUrl: bookUrl, bookUrl, index, isVip: false, isPay: false, ...fields };
}
