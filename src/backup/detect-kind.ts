// Telling what a rule file holds from the keys of its first record, as the app's file
// association does (BaseAssociationViewModel, reference 4.1), plus the 2.0 replace-rule keys.

export interface KindSign {
  /** Every one of these keys must be present. */
  readonly keys: readonly string[];
  readonly kind: string;
}

/** Checked in order; the first match wins. */
export const KIND_SIGNS: readonly KindSign[] = [
  { keys: ['bookSourceUrl'], kind: 'bookSource' },
  { keys: ['sourceUrl'], kind: 'rssSource' },
  { keys: ['pattern'], kind: 'replaceRule' },
  { keys: ['themeName'], kind: 'theme' },
  { keys: ['showRule'], kind: 'dictRule' },
  { keys: ['name', 'rule'], kind: 'txtTocRule' },
  { keys: ['name', 'url'], kind: 'httpTTS' },
  // 阅读 2.0 replace rules: the app's association does not know them, its replace dialog does.
  { keys: ['regex', 'replaceSummary'], kind: 'replaceRule' },
];

export function detectKind(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  return KIND_SIGNS.find((s) => s.keys.every((k) => k in record))?.kind;
}

/** The kind of the app's book-list export (bookshelf menu, 导出书单): no table of its own. */
export const BOOK_LIST = 'bookList';
const BOOK_LIST_KEYS = new Set(['name', 'author', 'intro']);

/**
 * A record of the app's book-list export (BookshelfViewModel.exportBookshelf): only name, author
 * and intro, no bookUrl. The app imports such a list by a precise search of its enabled sources
 * for each name and author (importBookshelfByJson), keeping the first book found.
 */
export function isBookListRecord(record: unknown): boolean {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
  const keys = Object.keys(record);
  return typeof (record as { name?: unknown }).name === 'string' && keys.every((k) => BOOK_LIST_KEYS.has(k));
}

/** What the report says of a book list of `n` books. */
export const bookListNotice = (n: number): string =>
  `the app's book-list export: ${n} book${n === 1 ? '' : 's'} by name, author and intro, no bookUrl; ` +
  'the app adds each by searching its enabled book sources for the name and author, and this store cannot search sources yet, so none was added';
