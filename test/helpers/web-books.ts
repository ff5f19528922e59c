// A search hit with the fields the app's SearchBook has, for the web-book suites.
import type { SearchBook } from '../../src/sources/engine/types.js';
import { T0 } from './domain.js';

/** A hit of `origin` (bookUrl `<origin>/book/<name>/<author>`), found at T0. */
export function searchHit(origin: string, name: string, author = 'a', fields: Partial<SearchBook> = {}): SearchBook {
  return {
    bookUrl: `${origin}/book/${name}/${author}`,
    origin,
    originName: origin.toUpperCase(),
    type: 8,
    name,
    author,
    kind: null,
    coverUrl: null,
    intro: null,
    wordCount: null,
    latestChapterTitle: null,
    tocUrl: '',
    time: T0,
    variable: null,
    originOrder: 0,
    ...fields,
  };
}
