// The domain layer: the operations the reading app performs, with its semantics.
export { BookGroups, type GroupId, type NewGroupOptions } from './book-groups.js';
export {
  Books,
  BookType,
  BookshelfSort,
  sortBooks,
  type BookshelfSortValue,
  type ShelfOptions,
  type BookProgress,
} from './books.js';
export { Cache } from './cache.js';
export { Chapters, type TocEntry } from './chapters.js';
export { compareLocalized, byKeys } from './collation.js';
export { Cookies, parseCookie, formatCookie, mergeCookie } from './cookies.js';
export { ReadRecords, type ReadTotal, type AddTimeOptions } from './read-records.js';
export { ReplaceRules, UNSET_ORDER } from './replace-rules.js';
export { Rss, type RssArticle, type StarInput, type NewArticle } from './rss.js';
export { Bookmarks, TxtTocRules, HttpTts, DictRules, KeyboardAssists, Servers, RuleSubs } from './rules.js';
export { SearchKeywords, type KeywordSearch } from './search-keywords.js';
export { BookSources, RssSources, type SourceFilter } from './sources.js';
export {
  SpecialGroupId,
  SPECIAL_GROUPS,
  specialGroupsAt,
  bookKindsAt,
  USER_GROUP_LIMIT,
  isUserGroupId,
  isSpecialGroupId,
  asGroupId,
  type SpecialGroup,
} from './special-groups.js';
export { splitGroups, GROUP_SEPARATORS } from './support.js';

import { BookGroups } from './book-groups.js';
import { Books } from './books.js';
import { Cache } from './cache.js';
import { Chapters } from './chapters.js';
import { Cookies } from './cookies.js';
import { ReadRecords } from './read-records.js';
import { ReplaceRules } from './replace-rules.js';
import { Rss } from './rss.js';
import { Bookmarks, DictRules, HttpTts, KeyboardAssists, RuleSubs, Servers, TxtTocRules } from './rules.js';
import { SearchKeywords } from './search-keywords.js';
import { BookSources, RssSources } from './sources.js';

/** Every domain area class (the store guards their methods: typed errors naming the file). */
export const DOMAIN_AREAS = [
  BookGroups,
  BookSources,
  Bookmarks,
  Books,
  Cache,
  Chapters,
  Cookies,
  DictRules,
  HttpTts,
  KeyboardAssists,
  ReadRecords,
  ReplaceRules,
  Rss,
  RssSources,
  RuleSubs,
  SearchKeywords,
  Servers,
  TxtTocRules,
] as const;
