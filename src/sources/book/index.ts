// The four flows of a book source (model/webBook/), over a SourceHttp and a JavaScript seam.
import type { SourceFlows } from '../engine/types.js';
import { exploreBooks, searchBooks } from './book-list.js';
import { content } from './content.js';
import type { FlowEnv } from './env.js';
import { exploreKinds } from './explore-kinds.js';
import { bookInfo } from './info.js';
import { toc } from './toc.js';

export { searchBooks, exploreBooks } from './book-list.js';
export { bookInfo } from './info.js';
export { toc, chapterUrl } from './toc.js';
export { content } from './content.js';
export { exploreKinds } from './explore-kinds.js';
export { VarMap, VarScope, type FlowEnv, type FlowScripts } from './env.js';
export { formatHtml, formatKeepImg, formatBookName, formatBookAuthor, formatWordCount, isTrue } from './format.js';
export { SourceFlowError, TocEmptyError, ContentEmptyError, SourceIncompleteError, SourceStepError } from './errors.js';

/** The flows bound to one env; the explore entries are worked out once (the app caches them per source). */
export function bookFlows(env: FlowEnv): SourceFlows {
  let kinds: ReturnType<typeof exploreKinds> | undefined;
  return {
    source: env.source,
    search: (key, page) => searchBooks(env, key, page),
    exploreKinds: () => (kinds ??= exploreKinds(env)),
    explore: (url, page) => exploreBooks(env, url, page),
    bookInfo: (book, options) => bookInfo(env, book, options?.canReName ?? true),
    toc: (book) => toc(env, book),
    content: (book, chapter, nextChapterUrl) => content(env, book, chapter, nextChapterUrl),
  };
}
