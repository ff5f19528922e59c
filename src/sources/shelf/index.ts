// Results stored as the app stores them: search hits, web books and their chapters, the
// engine's cookies and caches, and the chapter-text cache beside the store (docs/sources.md).
export { engineStorage, type StorageAreas } from './storage.js';
export { saveSearchBooks, searchBookRow, mergeSearchBooks, mergeAllSearchBooks, matchesKeyword, withoutHtml, type MergedSearchBook } from './search-results.js';
export {
  shelveWebBook,
  storeWebToc,
  tocFields,
  chapterRow,
  sourceBookType,
  webBookType,
  displayTitle,
  type ShelveOptions,
  type Shelved,
  type TocFields,
  type TocState,
} from './shelf.js';
export {
  MemoryChapterCache,
  bookFolderName,
  chapterFileName,
  md5_16,
  CACHE_FOLDER,
  type ChapterCache,
  type CachedBook,
  type CachedChapter,
} from './chapter-cache.js';
export { BookExistsError, UnknownWebBookError } from './errors.js';
export {
  searchSources,
  addWebBook,
  refreshWebToc,
  readWebChapter,
  findWebBook,
  isLocalBook,
  type ShelfEngine,
  type SearchOptions,
  type SearchResult,
  type SourceSearch,
  type AddOptions,
  type ReadChapter,
} from './tasks.js';
