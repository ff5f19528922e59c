// What an import did, per kind of record and per file, with every skipped record's position
// and reason. Built while the import runs; returned (and printed by the CLI as --json).
import type { Damage } from '../errors.js';
import { BOOK_LIST } from './detect-kind.js';

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
  /** Records whose key came again later in the same import with the same content. */
  duplicates: number;
  /** Records whose key came again later in the same import with other content: the later one was stored (listed in `conflicts`). */
  conflicts: number;
  /** Sources already stored and not older than the record (only-newer): the stored one was kept. */
  notNewer: number;
  /** Books removed because a later record has the same (name, author) under another bookUrl, as the app does. */
  replaced: number;
  skipped: number;
  /** Records in the 阅读 2.0 format that were converted. */
  legacyConverted: number;
  skipReasons: Record<string, number>;
  /** Fields that are columns at another version (49 to 75) but not at this store's: not stored. */
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
  kind?: string | undefined;
  table?: string | undefined;
  status: FileStatus;
  /** Why a file was not imported, or a note on how it was read. */
  reason?: string;
  read: number;
  stored: number;
  duplicates: number;
  skipped: number;
  /** Set when --kind was given and the first record's keys say another kind. */
  detectedKind?: string;
  /** The error code of a backup file that could not be read and was skipped. */
  error?: string;
}

/** Two records of one import with the same key and different content. */
export interface Conflict {
  readonly kind: string;
  readonly key: string;
  /** Where the first one was read: `file [index]`. */
  readonly first: string;
  /** Where the one that was kept (stored) was read. */
  readonly kept: string;
  readonly reason: string;
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
  readonly conflicts: Conflict[];
  readonly totals: Totals;
  durationMs: number;
  /** A database file's import only: what the file was. */
  readonly source?: DatabaseSource;
  /**
   * What the store holds after the import that the app lives with but a reader may want to know
   * (books whose group has bits no group has: the app shows them in 未分组); absent when none.
   */
  readonly warnings?: readonly Damage[];
  /** A database file's import only: its tables and columns the store had no place for. */
  readonly notCarried?: { readonly tables: readonly TableNotCarried[]; readonly columns: readonly ColumnNotCarried[] };
}

/** A table of the source the store has no place for, or cannot fill. */
export interface TableNotCarried {
  readonly table: string;
  readonly rows: number;
  readonly reason: string;
}

/** A column of a source table the store's table lacks. */
export interface ColumnNotCarried {
  readonly table: string;
  readonly column: string;
  /** Rows where it held a value (not NULL): what is lost. */
  readonly values: number;
  readonly reason: string;
}

/** The database file a `DatabaseImportResult` came from. */
export interface DatabaseSource {
  readonly path: string;
  /** PRAGMA user_version of the source. */
  readonly version: number;
  /** room_master_table row 42, or null. */
  readonly identityHash: string | null;
  /** What the file is, in words: version, line where the hash is known, releases. */
  readonly description: string;
}

export interface Totals {
  read: number;
  stored: number;
  updated: number;
  unchanged: number;
  notNewer: number;
  duplicates: number;
  conflicts: number;
  skipped: number;
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
    conflicts: 0,
    notNewer: 0,
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

export function totalsOf(kinds: Record<string, KindReport>): Totals {
  const t: Totals = { read: 0, stored: 0, updated: 0, unchanged: 0, notNewer: 0, duplicates: 0, conflicts: 0, skipped: 0 };
  for (const k of Object.values(kinds)) for (const key of Object.keys(t) as (keyof Totals)[]) t[key] += k[key];
  return t;
}

/**
 * Why an import stored nothing, when it stored nothing and kept nothing on purpose (every record
 * skipped, no records at all, a wrong --kind, every file unreadable); undefined otherwise.
 */
export function nothingStoredHint(r: ImportResult): string | undefined {
  const t = r.totals;
  if (t.stored > 0 || t.unchanged > 0 || t.notNewer > 0 || t.duplicates > 0 || t.conflicts > 0) return undefined;
  const wrongKind = r.files.find((f) => f.detectedKind !== undefined);
  if (wrongKind) return `the records of ${wrongKind.file} look like ${wrongKind.detectedKind}, not ${wrongKind.kind}: check --kind`;
  const unreadable = r.files.filter((f) => f.error !== undefined);
  if (unreadable.length && t.read === 0) return `no file could be read (${unreadable.map((f) => `${f.file}: ${f.error}`).join(', ')})`;
  if (t.skipped > 0) return `every record was skipped (${skipSummary(r)})`;
  const list = r.files.find((f) => f.kind === BOOK_LIST);
  if (list) return `${list.file} is ${list.reason ?? BOOK_LIST}`;
  return 'the input holds no records of a table this store has';
}

function skipCategories(r: ImportResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of r.skipped) bump(out, s.category);
  return out;
}

/** Skipped records counted by reason, most first: `missing key bookUrl ×13`. */
export function skipSummary(r: ImportResult): string {
  return Object.entries(skipCategories(r))
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ×${n}`)
    .join(', ');
}

/** What an import could not keep as given, per kind, in words (the CLI's and the page's notes). */
export function kindNotes(r: ImportResult, k: KindReport): string[] {
  const notes: string[] = [];
  if (k.legacyConverted) notes.push(`${k.legacyConverted} converted from the 2.0 format`);
  if (k.replaced) notes.push(`${k.replaced} replaced (same name and author under another bookUrl)`);
  if (k.unchanged) notes.push(`${k.unchanged} kept (the store's row wins)`);
  if (k.notNewer) notes.push(`${k.notNewer} not newer than the stored source, kept as stored (--no-only-newer to replace them)`);
  const dropped = Object.entries(k.droppedFields);
  if (dropped.length) notes.push(`dropped (no column at schema ${r.schema}): ${dropped.map(([f, n]) => `${f} ×${n}`).join(', ')}`);
  const unknown = Object.entries(k.unknownFields);
  if (unknown.length) notes.push(`ignored unknown fields: ${unknown.map(([f, n]) => `${f} ×${n}`).join(', ')}`);
  return notes;
}

/**
 * An import in a few lines for a reader who gave one input (the page): what was stored, by kind;
 * what was skipped, by reason; per kind what was not kept as given; files not imported. File
 * names appear only where they say which one.
 */
export function importSummary(name: string, r: ImportResult): string[] {
  const kinds = Object.values(r.kinds).filter((k) => k.read > 0);
  const stored = kinds.map((k) => `${k.kind} ${k.stored}`).join(', ');
  const skipped = r.totals.skipped > 0 ? `; ${r.totals.skipped} skipped (${skipSummary(r)})` : '';
  const lines = [`${name}: ${r.totals.stored} records stored (${stored || 'nothing to import'})${skipped}`];
  for (const k of kinds) {
    const notes = kindNotes(r, k);
    if (notes.length) lines.push(`${k.kind}: ${notes.join('; ')}`);
  }
  for (const f of r.files) if (f.status === 'not-imported') lines.push(`not imported: ${f.file} (${f.reason ?? f.status})`);
  return lines;
}
