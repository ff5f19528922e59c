// Book sources that are the same source twice: equal once the URL is normalised (trimmed, a
// trailing `/` dropped, scheme and host in lower case). Of each such set one is kept: a URL with
// no white space around it (the app uses the URL as written: as the key books point at, and to
// build requests), then the newest `lastUpdateTime`, then the one with more rules, then the first
// (customOrder in a store, file order in a file). Nothing is changed unless asked: `applyDedupe` deletes the others from a
// store in one transaction, `writeSources` writes the kept list to a new file.
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { detectKind } from '../backup/detect-kind.js';
import { UnsupportedInputError } from '../backup/errors.js';
import { toJsonValue } from '../backup/export.js';
import { gsonPretty } from '../backup/gson.js';
import { JsonRecordReader } from '../backup/json-stream.js';
import { fileSource } from '../fs/byte-sources.js';
import { Clock, RowBuilder } from '../backup/record.js';
import { newKindReport } from '../backup/report.js';
import { FileExistsError } from '../errors.js';
import { NEWEST_VERSION, schemas, type SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';

/** A book source as dedupe sees it: the row, and where it was. */
export interface SourceEntry {
  readonly row: Readonly<Record<string, unknown>>;
  /**
   * The record's fields the row has no column for at the version read (a file's `enabledReview`,
   * which the app's JSON carries and schema 65 on dropped; a fork's own), as given: written back
   * with the row, so that no field of the input is lost.
   */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Position in the input (customOrder order in a store, array index in a file). */
  readonly position: number;
}

export interface SourceSummary {
  readonly url: string;
  /** The URL has no white space around it. */
  readonly clean: boolean;
  readonly name: string;
  readonly lastUpdateTime: number;
  /** Non-empty rules in its rule fields (ruleSearch, ruleToc, ...). */
  readonly rules: number;
  readonly position: number;
}

export interface DuplicateSet {
  /** The URL they share once normalised. */
  readonly normalizedUrl: string;
  readonly keep: SourceSummary;
  readonly drop: readonly SourceSummary[];
}

export interface DedupeReport {
  readonly sources: number;
  readonly sets: readonly DuplicateSet[];
  /** Sources that would go (or went): the `drop` of every set. */
  readonly dropped: number;
}

/** The URL as dedupe compares it: trimmed, scheme and host lower case, trailing `/` dropped. */
export function normalizeSourceUrl(url: string): string {
  let u = url.trim();
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(u);
  if (m) {
    const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
    const at = authority.lastIndexOf('@'); // user info keeps its case; only the host is case-free
    u = `${scheme.toLowerCase()}://${authority.slice(0, at + 1)}${authority.slice(at + 1).toLowerCase()}${rest}`;
  }
  const stripped = u.replace(/\/+$/, '');
  return stripped.endsWith(':/') || stripped.endsWith(':') ? u : stripped;
}

/** Non-empty rules of a source: the filled entries of its rule objects (a rule given as plain text counts as one). */
export function ruleCount(row: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const [field, v] of Object.entries(row)) {
    if (!field.startsWith('rule') || typeof v !== 'string' || v.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      n++;
      continue;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const x of Object.values(parsed)) if (x !== null && x !== '' && !(typeof x === 'string' && x.trim() === '')) n++;
    } else if (parsed !== null && parsed !== '') n++;
  }
  return n;
}

function summary(e: SourceEntry): SourceSummary {
  return {
    url: String(e.row.bookSourceUrl),
    clean: String(e.row.bookSourceUrl) === String(e.row.bookSourceUrl).trim(),
    name: String(e.row.bookSourceName ?? ''),
    lastUpdateTime: Number(e.row.lastUpdateTime ?? 0),
    rules: ruleCount(e.row),
    position: e.position,
  };
}

/** The sets of sources that share a normalised URL, with the one to keep. Sets in order of their first source. */
export function findDuplicateSources(entries: Iterable<SourceEntry>): DedupeReport {
  const byUrl = new Map<string, SourceSummary[]>();
  let sources = 0;
  for (const e of entries) {
    sources++;
    const s = summary(e);
    const key = normalizeSourceUrl(s.url);
    const list = byUrl.get(key);
    if (list) list.push(s);
    else byUrl.set(key, [s]);
  }
  const sets: DuplicateSet[] = [];
  for (const [normalizedUrl, list] of byUrl) {
    if (list.length < 2) continue;
    const ranked = [...list].sort(
      (a, b) => Number(b.clean) - Number(a.clean) || b.lastUpdateTime - a.lastUpdateTime || b.rules - a.rules || a.position - b.position,
    );
    sets.push({ normalizedUrl, keep: ranked[0]!, drop: ranked.slice(1) });
  }
  return { sources, sets, dropped: sets.reduce((n, s) => n + s.drop.length, 0) };
}

/** A store's book sources in the app's order (customOrder). */
export function storeSources(store: Store<SchemaVersion>): SourceEntry[] {
  return store.bookSources.all().map((row, position) => ({ row: row as unknown as Record<string, unknown>, position }));
}

export interface SourceFile {
  readonly entries: SourceEntry[];
  /** Records that are not usable book sources (no URL, not an object, ...), as the importer skips them. */
  readonly skipped: number;
  /** Fields of the file with no column of book_sources at the version read, with their counts: kept as given (SourceEntry.extra). */
  readonly keptAsGiven: Readonly<Record<string, number>>;
}

/**
 * The book sources of a JSON file (a bookSource.json, an exported collection, 阅读 2.0 sources),
 * read by the import readers, every record kept (also ones whose URL repeats exactly). Read at
 * the newest schema by default, so that every field the app has (jsLib, exploreScreen) is kept.
 */
export function readSourceFile(path: string, version: SchemaVersion = NEWEST_VERSION): SourceFile {
  const table = schemas[version].table('book_sources')!;
  const builder = RowBuilder.of(table, version);
  const context = { clock: new Clock(0) };
  const report = newKindReport('bookSource', 'book_sources');
  const reader = new JsonRecordReader(fileSource(path));
  const entries: SourceEntry[] = [];
  let skipped = 0;
  for (const rec of reader.records()) {
    if (rec.index === 0 && detectKind(rec.value) !== undefined && detectKind(rec.value) !== 'bookSource') {
      throw new UnsupportedInputError(path, `holds ${detectKind(rec.value)} records, not book sources`);
    }
    const before = { ...report.droppedFields, ...report.unknownFields };
    const built = builder.build(rec.value, report, context);
    if ('category' in built) {
      skipped++;
      continue;
    }
    // The fields the build counted as not kept (its report's counts went up for this record).
    const record = rec.value as Record<string, unknown>;
    const counted = (k: string): boolean => (report.droppedFields[k] ?? report.unknownFields[k] ?? 0) > (before[k] ?? 0);
    const extra = Object.fromEntries(
      Object.keys(record)
        .filter(counted)
        .map((k) => [k, record[k]]),
    );
    entries.push({ row: built.row, position: rec.index, ...(Object.keys(extra).length > 0 && { extra }) });
  }
  return { entries, skipped, keptAsGiven: { ...report.droppedFields, ...report.unknownFields } };
}

export interface ApplyResult {
  readonly deleted: number;
  /** Books whose source (origin) was a deleted duplicate, now pointing at the kept one. */
  readonly booksRepointed: number;
}

/**
 * Deletes the dropped sources of `report` from the store, in one transaction. Books read from
 * a dropped source are moved to the kept one (it is the same source), so none is left without
 * its source; a dropped source's search results go with it (the schema's cascade).
 */
export function applyDedupe(store: Store<SchemaVersion>, report: DedupeReport): ApplyResult {
  const sources = store.tables.book_sources;
  const repoint = store.db.prepare('UPDATE books SET origin = ?, originName = ? WHERE origin = ?');
  return store.transaction(() => {
    let deleted = 0;
    let booksRepointed = 0;
    for (const set of report.sets) {
      for (const d of set.drop) {
        booksRepointed += repoint.run(set.keep.url, set.keep.name, d.url).changes;
        if (sources.delete(d.url)) deleted++;
      }
    }
    store.flushChanges();
    return { deleted, booksRepointed };
  });
}

/** The entries that stay: every one not in some set's `drop`, in input order. */
export function keptEntries(entries: readonly SourceEntry[], report: DedupeReport): SourceEntry[] {
  const dropped = new Set<number>();
  for (const s of report.sets) for (const d of s.drop) dropped.add(d.position);
  return entries.filter((e) => !dropped.has(e.position));
}

/**
 * Writes sources as a bookSource.json the app imports (its Gson layout). An existing file is
 * refused unless `overwrite`; the text goes to a temporary file beside it first and is renamed
 * into place, so a failed write leaves no half file.
 */
export function writeSources(path: string, entries: readonly SourceEntry[], options: { overwrite?: boolean; version?: SchemaVersion } = {}): number {
  if (existsSync(path) && !options.overwrite) throw new FileExistsError(path, 'a source list');
  // The version the entries were read at (a store's own; a file's, the newest): every field they hold is written.
  const table = schemas[options.version ?? NEWEST_VERSION].table('book_sources')!;
  const text = gsonPretty(entries.map((e) => ({ ...toJsonValue(table, e.row as Record<string, unknown>), ...e.extra })));
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return entries.length;
}
