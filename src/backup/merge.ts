// How a row read from elsewhere (a backup record, a row of another Legado database) joins the
// rows a store already has: the app's restore rules (reference 3.4). An existing row is updated
// in place (a book keeps its chapters); a later row with the same key in one import wins (a
// true duplicate when it holds the same, a conflict, reported with both places, when it does
// not); the larger reading time of a readRecord wins; a book whose (name, author) belongs to
// another bookUrl replaces that book. Rule files also keep what the user set on a source they
// already have (keep.ts). A row the store refuses is skipped and reported, never thrown.
import { FileAccessError, LegadoStoreError, UniqueViolationError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { bulkRows, upsertRowsInTransaction } from '../table/in-transaction.js';
import type { TableApi } from '../table/table.js';
import { applyUserChoices, DEFAULT_CHOICES, hasUserFields, sameContent, type ImportChoices } from './keep.js';
import type { Built, Skip } from './record.js';
import { bump, type Conflict, type FileOutcome, type KindReport, type SkippedRecord } from './report.js';
import { keepSpecimen } from './specimens.js';

export type AnyTable = TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown>;

/** One table of an import: where rows go, what is counted, and where each key was first read. */
export interface MergeTable {
  readonly api: AnyTable;
  readonly report: KindReport;
  /** Key text → `file [index]` of the record stored under it in this import. */
  readonly seen: Map<string, string>;
}

/** A record whose write is put off (Merger.flush), counted as stored already. */
interface PendingRow {
  readonly built: Built;
  readonly file: FileOutcome;
  readonly index: number;
  readonly where: string;
}

/** What the merger knows of one table in this import. */
interface TableState {
  /** No row was there when the import began: only a key written since can be found. */
  readonly emptyAtStart: boolean;
  /** New rows may wait for a batch: no unique index but the key's, so a write touches only its own key. */
  readonly defers: boolean;
  readonly batch: number;
  readonly pending: PendingRow[];
}

/** The records' built rows, by a loop: a closure made per batch takes its optimized code with it at every collection. */
function builtOf(pending: readonly PendingRow[]): Built[] {
  const out = new Array<Built>(pending.length);
  for (let i = 0; i < pending.length; i++) out[i] = pending[i]!.built;
  return out;
}

/** Tables whose content is a secret: skip reasons never quote it. */
const SECRET_TABLES: ReadonlySet<string> = new Set(['servers', 'cookies']);

export class Merger {
  readonly skipped: SkippedRecord[] = [];
  readonly conflicts: Conflict[] = [];
  private readonly choices: ImportChoices;
  private readonly tables = new Map<MergeTable, TableState>();

  constructor(_store: Store<SchemaVersion>, choices: Partial<ImportChoices> = {}) {
    this.choices = { ...DEFAULT_CHOICES, ...choices };
  }

  /**
   * Stores one row (already counted as read) by the restore's rules, and counts what happened.
   * `userChoices`: a rule file, where a stored source keeps what the user set on it.
   */
  merge(s: MergeTable, file: FileOutcome, index: number, built: Built, userChoices = false): void {
    const k = s.report;
    const where = `${file.file} [${index}]`;
    const first = s.seen.get(built.keyText);
    const state = this.state(s);
    // A key read before may still wait in the batch: written first, then read back.
    if (first !== undefined) this.flush(s);
    const stored = first === undefined && state.emptyAtStart ? undefined : (s.api.get(built.key) as Record<string, unknown> | undefined);
    if (stored === undefined && first === undefined && state.defers) {
      // A new key: counted now, written with the next batch (flush).
      state.pending.push({ built, file, index, where });
      s.seen.set(built.keyText, where);
      k.inserted++;
      k.stored++;
      file.stored++;
      if (state.pending.length === state.batch) this.flush(s);
      return;
    }
    if (first !== undefined && stored !== undefined && sameContent(s.api.model, built.row, stored)) {
      k.duplicates++;
      file.duplicates++;
      return;
    }
    if (stored !== undefined && this.keepsStored(s, built, stored)) {
      if (first !== undefined) k.duplicates++, file.duplicates++;
      else k.unchanged++;
      return;
    }
    if (stored !== undefined && first === undefined && userChoices && hasUserFields(s.api.name)) {
      if (applyUserChoices(s.api.name, built.row, stored, this.choices) === 'not newer') {
        k.notNewer++;
        return;
      }
    }
    if (!this.writeOrSkip(s, file, index, built)) return;
    s.seen.set(built.keyText, where);
    if (first !== undefined) {
      k.conflicts++;
      this.conflicts.push({ kind: k.kind, key: built.keyText, first, kept: where, reason: 'same key, different content: the later record was stored' });
      return;
    }
    if (stored !== undefined) k.updated++;
    else k.inserted++;
    k.stored++;
    file.stored++;
  }

  skip(s: MergeTable, file: FileOutcome, index: number, why: Skip): void {
    // Skips are listed in the order of the records: a waiting record refused comes first.
    this.flush(s);
    s.report.skipped++;
    file.skipped++;
    bump(s.report.skipReasons, why.category);
    const secret = SECRET_TABLES.has(s.api.name);
    this.skipped.push({
      file: file.file,
      index,
      kind: s.report.kind,
      ...(why.key && !secret ? { key: why.key } : {}),
      category: why.category,
      reason: secret ? why.category : why.reason,
    });
  }

  /**
   * Writes the records waiting for a batch (merge), in their order. One the store refuses is
   * uncounted and merged again on its own, which skips and reports it as it would have been
   * at once; nothing a waiting record does can change what another record found, since each
   * writes only its own new key. Called when the batch is full, before a skip, before a key
   * read earlier is looked up, and at the end of every file (the caller's part).
   */
  flush(s: MergeTable): void {
    const state = this.tables.get(s);
    if (state === undefined || state.pending.length === 0) return;
    const pending = state.pending.splice(0);
    let done = 0;
    while (done < pending.length) {
      const rest = done === 0 ? pending : pending.slice(done);
      // Their keys are new (merge): not in the store, none repeated, so a batch goes in whole.
      const { written, failed } = upsertRowsInTransaction(s.api, builtOf(rest));
      done += written;
      if (failed === undefined) break;
      // The refused record, uncounted, then written (or skipped) alone as merge would have.
      const p = pending[done++]!;
      s.seen.delete(p.built.keyText);
      s.report.inserted--;
      s.report.stored--;
      p.file.stored--;
      if (!this.writeOrSkip(s, p.file, p.index, p.built)) continue;
      s.seen.set(p.built.keyText, p.where);
      s.report.inserted++;
      s.report.stored++;
      p.file.stored++;
    }
  }

  /** Drops the records waiting for a batch: their file is undone (import.ts restores the counts). */
  discard(): void {
    for (const state of this.tables.values()) state.pending.length = 0;
  }

  /** Writes a record's row; one the store refuses is skipped (false), a store that cannot be written at all stops the import. */
  private writeOrSkip(s: MergeTable, file: FileOutcome, index: number, built: Built): boolean {
    try {
      this.write(s, built);
      return true;
    } catch (e) {
      if (!(e instanceof LegadoStoreError) || e instanceof FileAccessError) throw e;
      this.skip(s, file, index, { category: `rejected: ${e.code}`, reason: e.message, key: built.keyText });
      return false;
    }
  }

  private state(s: MergeTable): TableState {
    let state = this.tables.get(s);
    if (state === undefined) {
      const model = s.api.model;
      const key = model.primaryKey
        .map((c) => c.name)
        .sort()
        .join(',');
      const defers = model.indices.every((ix) => !ix.unique || [...ix.columns].sort().join(',') === key);
      state = { emptyAtStart: s.api.list({ limit: 1 }).length === 0, defers, batch: bulkRows(s.api), pending: [] };
      this.tables.set(s, state);
    }
    return state;
  }

  /** readRecord: the larger reading time wins, as the app's restore keeps it (reference 3.4). */
  private keepsStored(s: MergeTable, built: Built, current: Record<string, unknown>): boolean {
    if (s.api.name !== 'readRecord') return false;
    return ((current.readTime as number | undefined) ?? 0) >= (built.row.readTime as number);
  }

  /**
   * An upsert updates an existing row in place (a book keeps its chapters). A book whose
   * (name, author) belongs to another bookUrl replaces that book, as the app's restore does.
   */
  private write(s: MergeTable, built: Built): void {
    try {
      s.api.upsert(built.row);
    } catch (e) {
      if (!(s.api.name === 'books' && e instanceof UniqueViolationError && e.index === 'index_books_name_author')) throw e;
      const other = s.api.list({ where: { name: built.row.name, author: built.row.author }, limit: 1 })[0]?.bookUrl as string | undefined;
      if (other === undefined) throw e;
      s.api.delete(other);
      s.seen.delete(JSON.stringify([other]));
      s.report.replaced++;
      s.api.upsert(built.row);
    }
  }
}

keepSpecimen(new Merger(undefined as never));
