// What an import did, per kind of record and per file, with every skipped record's position
// and reason. Built while the import runs; returned (and printed by the CLI as --json).

export interface KindReport {
  readonly kind: string;
  readonly table: string;
  /** Records read from the files of this kind. */
  read: number;
  /** Distinct rows written: inserted + updated. */
  stored: number;
  inserted: number;
  /** Rows that were in the store before and were updated in place. */
  updated: number;
  /** Rows kept as they were because the store's row wins (readRecord with a larger readTime). */
  unchanged: number;
  /** Records whose key came again later in the same import: the later one was stored. */
  duplicates: number;
  /** Books removed because a later record has the same (name, author) under another bookUrl, as the app does. */
  replaced: number;
  skipped: number;
  /** Records in the 阅读 2.0 format that were converted. */
  legacyConverted: number;
  skipReasons: Record<string, number>;
  /** Fields that are columns at schema 62 but not at this store's version: not stored. */
  droppedFields: Record<string, number>;
  /** Fields that are not columns of the table: not stored. */
  unknownFields: Record<string, number>;
  /** Fields whose value had another JSON type and was converted (a number given as a string, ...). */
  coercedFields: Record<string, number>;
  /** Fields whose value could not be used and took the default instead. */
  defaultedFields: Record<string, number>;
}

export type FileStatus = 'imported' | 'empty' | 'not-imported';

export interface FileOutcome {
  readonly file: string;
  kind?: string;
  table?: string;
  status: FileStatus;
  /** Why a file was not imported, or a note on how it was read. */
  reason?: string;
  read: number;
  stored: number;
  duplicates: number;
  skipped: number;
}

export interface SkippedRecord {
  readonly file: string;
  /** Position in the file's top-level array (0 for a file holding one object). */
  readonly index: number;
  readonly kind: string;
  /** The record's key, when it has one. */
  readonly key?: string;
  /** A short reason without values, the same for every record skipped for it. */
  readonly category: string;
  readonly reason: string;
}

export interface ImportResult {
  readonly store: string;
  readonly schema: number;
  readonly strict: boolean;
  readonly kinds: Record<string, KindReport>;
  readonly files: FileOutcome[];
  readonly skipped: SkippedRecord[];
  readonly totals: { read: number; stored: number; updated: number; duplicates: number; skipped: number };
  durationMs: number;
}

export function newKindReport(kind: string, table: string): KindReport {
  return {
    kind,
    table,
    read: 0,
    stored: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    duplicates: 0,
    replaced: 0,
    skipped: 0,
    legacyConverted: 0,
    skipReasons: {},
    droppedFields: {},
    unknownFields: {},
    coercedFields: {},
    defaultedFields: {},
  };
}

export function bump(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

export function totalsOf(kinds: Record<string, KindReport>): ImportResult['totals'] {
  const t = { read: 0, stored: 0, updated: 0, duplicates: 0, skipped: 0 };
  for (const k of Object.values(kinds)) {
    t.read += k.read;
    t.stored += k.stored;
    t.updated += k.updated;
    t.duplicates += k.duplicates;
    t.skipped += k.skipped;
  }
  return t;
}
