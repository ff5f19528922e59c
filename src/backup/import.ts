// Importing backups (a zip, or a folder of the same files) and rule collections into a store,
// from byte sources (byte-source.ts): files in Node (node/backup-import.ts), bytes in memory anywhere
// (`importBackupBytes`). Inputs are planned first (a zip's directory is read; nothing is
// extracted), then every record of every file is read as a stream and written inside ONE store
// transaction: an import is stored whole or not at all, and a strict import fails on the first
// skipped record. No Node module is imported here: the browser bundle takes this file.
import { LegadoStoreError, FileAccessError } from '../errors.js';
import { afterImportNotes, refuseDamagedStore } from './store-check.js';
import type { Table } from '../schema/index.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { decryptBackupText, looksEncrypted } from './aes.js';
import { BOOK_LIST, bookListNotice, detectKind, isBookListRecord } from './detect-kind.js';
import { ArchiveLimitError, DecryptError, ImportRejectedError, UnsupportedInputError } from './errors.js';
import { BACKUP_FILES, backupFileByKind, backupFileByName, KIND_NAMES, NON_TABLE_KINDS, nonTableFile, type BackupFile } from './file-map.js';
import { JsonRecordReader, type JsonRecord } from './json-stream.js';
import { DEFAULT_CHOICES, type ImportChoices } from './keep.js';
import { Merger, type MergeTable } from './merge.js';
import { Clock, RowBuilder } from './record.js';
import { newKindReport, totalsOf, type FileOutcome, type ImportResult, type KindReport } from './report.js';
import { bytesAccess, bytesSource, readText, type ByteSource, type RandomAccess } from './byte-source.js';
import { isZipSignature, ZipReader, type ZipEntry, type ZipLimits } from './zip.js';
import { keepSpecimen } from './specimens.js';

export interface ImportProgress {
  /** The file being read. */
  readonly file: string;
  readonly kind?: string | undefined;
  /** Records read so far, over all files. */
  readonly records: number;
  /** Bytes read so far, over all files, and the total to read. */
  readonly bytes: number;
  readonly totalBytes: number;
}

/** The choices may be left out or passed as undefined (the default then). */
export interface ImportOptions extends ChoicesOrDefault {
  /** The kind of records in rule files (bookSource, rssSource, replaceRule, ...); detected when left out. */
  readonly kind?: string | undefined;
  /**
   * All or nothing: any record that cannot be stored, or any file of a backup that cannot be
   * read, fails the whole import. Without it such records and files are skipped and reported.
   */
  readonly strict?: boolean | undefined;
  /** The backup password, for an encrypted servers.json (the app's default key otherwise). */
  readonly password?: string | undefined;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** The time used for the app's time defaults (epoch ms); now when left out. */
  readonly now?: number;
  /** Limits on what a zip may expand to (zip.ts has the defaults). */
  readonly zipLimits?: Partial<ZipLimits>;
}

type ChoicesOrDefault = { readonly [K in keyof ImportChoices]?: ImportChoices[K] | undefined };

/** A file to read: its bytes, what to call it, and how its kind is known. */
export interface PlannedFile {
  readonly display: string;
  readonly source: ByteSource;
  /** In a backup the kind comes from the file name; a rule file's from --kind or its keys. */
  readonly mode: 'backup' | 'collection';
  readonly byName?: BackupFile | undefined;
}

export interface Plan {
  readonly files: PlannedFile[];
  readonly notImported: FileOutcome[];
  readonly cleanup: (() => void)[];
}

export const newPlan = (): Plan => ({ files: [], notImported: [], cleanup: [] });

/** A file given by its bytes: `name` is what reports call it and, for a rule file, how its kind is known. */
export interface FileBytes {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * Imports a backup zip or a rule file (a JSON array or object) held in memory, or several such
 * files, each as what it is: the browser's entry point, and the same pipeline as the file-based
 * imports. `name` is what reports call bytes given alone.
 */
export async function importBackupBytes(
  store: Store<SchemaVersion>,
  input: Uint8Array | readonly FileBytes[],
  options: ImportOptions & { readonly name?: string } = {},
): Promise<ImportResult> {
  return importBytesSync(store, input, options);
}

/** `importBackupBytes`, synchronously. */
export function importBytesSync(
  store: Store<SchemaVersion>,
  input: Uint8Array | readonly FileBytes[],
  options: ImportOptions & { readonly name?: string } = {},
): ImportResult {
  checkKindOption(options);
  const plan = newPlan();
  try {
    if (input instanceof Uint8Array) {
      planBytes(plan, { name: options.name ?? (isZipSignature(input) ? 'backup.zip' : 'input.json'), bytes: input }, options);
    } else {
      for (const file of input) planBytes(plan, file, options);
    }
    return runImport(store, plan, options);
  } finally {
    for (const clean of plan.cleanup) clean();
  }
}

/** A zip in memory is a backup; any other file a rule file, known by its name or its keys. */
export function planBytes(plan: Plan, file: FileBytes, options: Pick<ImportOptions, 'zipLimits'>): void {
  if (isSqliteHeader(file.bytes)) throw new UnsupportedInputError(file.name, 'a SQLite database in memory: write it to a file and import that path');
  if (isZipSignature(file.bytes)) planZip(plan, bytesAccess(file.name, file.bytes), options);
  else planRuleFile(plan, bytesSource(file.name, file.bytes), baseName(file.name));
}

const SQLITE_HEADER = new TextEncoder().encode('SQLite format 3\0');
const isSqliteHeader = (bytes: Uint8Array): boolean => SQLITE_HEADER.every((b, i) => bytes[i] === b);
/** The last part of a path, by either separator: backup files are matched by base name. */
const baseName = (name: string): string => name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);

export function checkKindOption(options: ImportOptions): void {
  if (options.kind !== undefined && !backupFileByKind(options.kind)) {
    throw new UnsupportedInputError(`--kind ${options.kind}`, `unknown kind; one of ${KIND_NAMES.join(', ')}`);
  }
}

/** A rule file; a file that is known to hold no table (config.xml, ...) is reported instead. */
export function planRuleFile(plan: Plan, source: ByteSource, baseName: string): void {
  const nonTable = nonTableFile(baseName);
  if (nonTable !== undefined) plan.notImported.push(notImported(source.name, nonTable));
  else plan.files.push({ display: source.name, source, mode: 'collection', byName: backupFileByName(baseName) });
}

export interface BackupEntry {
  /** Base name, as files of a backup are matched. */
  readonly name: string;
  readonly display: string;
  /** Its bytes; left out for an entry that is not read (the reason says why). */
  readonly source?: ByteSource;
  readonly reason?: string;
}

/** Backup files first, in the app's restore order; what holds no table is reported, not read. */
export function planBackupEntries(plan: Plan, entries: readonly BackupEntry[]): void {
  const order = (name: string) => {
    const f = backupFileByName(name);
    return f ? BACKUP_FILES.indexOf(f) : BACKUP_FILES.length;
  };
  for (const e of [...entries].sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name))) {
    const byName = backupFileByName(e.name);
    if (byName && e.source) plan.files.push({ display: e.display, source: e.source, mode: 'backup', byName });
    else plan.notImported.push(notImported(e.display, e.reason ?? nonTableFile(e.name) ?? 'not a file of a Legado backup'));
  }
}

/** A zip's table files, read from the archive as streams when their turn comes. */
export function planZip(plan: Plan, access: RandomAccess, options: Pick<ImportOptions, 'zipLimits'>): ZipReader {
  let zip: ZipReader;
  try {
    zip = new ZipReader(access, options.zipLimits);
  } catch (e) {
    access.close?.();
    throw e;
  }
  plan.cleanup.push(() => zip.close());
  const taken = new Set<string>();
  const entries: BackupEntry[] = [];
  const read: ZipEntry[] = [];
  for (const entry of zip.entries) {
    if (entry.isDirectory) continue;
    const display = `${zip.file}:${entry.name}`;
    const wanted = backupFileByName(entry.name) !== undefined;
    if (wanted && taken.has(entry.name.toLowerCase())) {
      entries.push({ name: entry.name, display, reason: 'a second entry with this name in the archive' });
    } else if (wanted) {
      taken.add(entry.name.toLowerCase());
      read.push(entry);
      entries.push({ name: entry.name, display, source: zip.source(entry, display) });
    } else {
      entries.push({ name: entry.name, display });
    }
  }
  zip.reserve(read); // a bomb is refused from its directory, before anything is inflated
  planBackupEntries(plan, entries);
  return zip;
}

export function notImported(file: string, reason: string, read = 0): FileOutcome {
  return { file, status: 'not-imported', reason, read, stored: 0, duplicates: 0, skipped: 0 };
}

/** Per-table state of one import: the row builder beside what the merge keeps. */
interface TableState extends MergeTable {
  readonly builder: RowBuilder;
  /** The import's clock, and per books file whether it holds old type codes. */
  readonly context: { readonly clock: Clock };
}

/** Tables whose content is a secret: errors never quote it. */
const SECRET_TABLES: ReadonlySet<string> = new Set(['servers', 'cookies']);

class ImportRun {
  readonly store: Store<SchemaVersion>;
  readonly options: ImportOptions;
  readonly clock: Clock;
  readonly kinds: Record<string, KindReport> = {};
  readonly files: FileOutcome[] = [];
  readonly merger: Merger;
  private readonly tables = new Map<string, TableState>();
  private records = 0;
  private bytesBefore = 0;
  readonly totalBytes: number;

  constructor(store: Store<SchemaVersion>, options: ImportOptions, totalBytes: number) {
    this.store = store;
    this.options = options;
    this.merger = new Merger(store, definedOnly(options));
    this.clock = new Clock(options.now);
    this.totalBytes = totalBytes;
  }

  /**
   * A backup's file that cannot be read (undecryptable, invalid JSON, a damaged entry) is skipped
   * and reported, its records undone, as the app's restore skips it; strict imports fail instead.
   * Archive limits always fail the import (a zip bomb is not a file to skip).
   */
  importFile(file: PlannedFile): void {
    if (file.mode !== 'backup' || this.options.strict) {
      this.readFile(file);
      return;
    }
    const files = this.files.length;
    const skipped = this.merger.skipped.length;
    const conflicts = this.merger.conflicts.length;
    const saved = this.snapshot();
    try {
      this.store.transaction(() => this.readFile(file));
    } catch (e) {
      if (!(e instanceof LegadoStoreError) || e instanceof FileAccessError || e instanceof ArchiveLimitError || e instanceof ImportRejectedError) throw e;
      this.merger.discard();
      this.files.length = files;
      this.merger.skipped.length = skipped;
      this.merger.conflicts.length = conflicts;
      this.restore(saved);
      this.files.push({
        ...notImported(file.display, `cannot be read, skipped: ${e.code}: ${e.message}`),
        kind: file.byName?.kind,
        table: file.byName?.table,
        error: e.code,
      });
    }
  }

  private readFile(file: PlannedFile): void {
    const report: FileOutcome = { file: file.display, status: 'empty', read: 0, stored: 0, duplicates: 0, skipped: 0 };
    this.files.push(report);
    const secret = SECRET_TABLES.has(((this.options.kind === undefined ? undefined : backupFileByKind(this.options.kind)) ?? file.byName)?.table ?? '');
    const source = this.sourceOf(file, secret);
    const reader = new JsonRecordReader(source, { secret });
    let state: TableState | undefined;
    let absent: string | undefined;
    const progress = (bytes: number) =>
      this.options.onProgress?.({
        file: file.display,
        kind: report.kind,
        records: this.records,
        bytes: this.bytesBefore + bytes,
        totalBytes: this.totalBytes,
      });
    for (const rec of reader.records(progress)) {
      if (report.read === 0) {
        const resolved = this.resolveKind(file, reader, rec.value);
        report.kind = resolved.kind;
        report.status = 'imported';
        if ('absent' in resolved) {
          absent = resolved.absent;
        } else {
          report.table = resolved.file.table;
          state = this.tableState(resolved.file);
          const detected = detectKind(rec.value);
          if (this.options.kind !== undefined && detected !== undefined && detected !== resolved.kind) report.detectedKind = detected;
        }
      }
      report.read++;
      this.records++;
      if (state) this.importRecord(state, file, report, rec);
    }
    if (state) this.merger.flush(state);
    this.bytesBefore += reader.size;
    if (absent !== undefined) {
      report.status = 'not-imported';
      report.reason = report.kind === BOOK_LIST ? bookListNotice(report.read) : absent;
    } else if (report.read === 0) {
      report.reason = reader.root === 'empty' ? 'empty file' : 'no records';
      if (file.byName) {
        report.kind = file.byName.kind;
        report.table = file.byName.table;
      }
    }
  }

  /** The file as JSON: servers.json may be AES text, which is decrypted first. */
  private sourceOf(file: PlannedFile, secret: boolean): ByteSource {
    if (!secret) return file.source;
    const text = readText(file.source);
    if (!looksEncrypted(text)) return file.source;
    const plain = decryptBackupText(text, this.options.password ?? '');
    if (plain === undefined) throw new DecryptError(file.display, this.options.password !== undefined);
    return bytesSource(file.display, new TextEncoder().encode(plain));
  }

  private resolveKind(file: PlannedFile, reader: JsonRecordReader, first: unknown): { kind: string; file: BackupFile } | { kind: string; absent: string } {
    if (reader.root === 'object' && typeof first === 'object' && first !== null && 'sourceUrls' in first) {
      throw new UnsupportedInputError(file.display, 'a list of remote collections (sourceUrls): download each URL and import the downloaded files');
    }
    let kind: string | undefined;
    if (file.mode === 'backup') kind = file.byName?.kind;
    else kind = this.options.kind ?? detectKind(first) ?? file.byName?.kind;
    // Not books of a backup (every one would lack its bookUrl): the app's list of names to search for.
    if (this.options.kind === undefined && (kind === undefined || kind === 'book') && reader.root === 'array' && isBookListRecord(first)) {
      return { kind: BOOK_LIST, absent: '' };
    }
    if (kind === undefined) {
      const keys = typeof first === 'object' && first !== null ? Object.keys(first).slice(0, 8).join(', ') : typeof first;
      throw new UnsupportedInputError(file.display, `cannot tell what kind of records this is (keys: ${keys}); give --kind (${KIND_NAMES.join(', ')})`);
    }
    const nonTable = NON_TABLE_KINDS[kind];
    if (nonTable !== undefined) return { kind, absent: nonTable };
    const target = backupFileByKind(kind)!;
    if (!this.store.schema.table(target.table)) {
      return { kind: target.kind, absent: `no ${target.table} table at schema ${this.store.version}` };
    }
    return { kind: target.kind, file: target };
  }

  private tableState(file: BackupFile): TableState {
    let s = this.tables.get(file.table);
    if (!s) {
      const table: Table = this.store.schema.table(file.table)!;
      const report = (this.kinds[file.kind] ??= newKindReport(file.kind, file.table));
      s = {
        api: this.store.table(file.table),
        builder: RowBuilder.of(table, this.store.version),
        context: { clock: this.clock },
        report,
        seen: new Map(),
      };
      this.tables.set(file.table, s);
    }
    return s;
  }

  private importRecord(s: TableState, file: PlannedFile, out: FileOutcome, rec: JsonRecord): void {
    s.report.read++;
    const built = s.builder.build(rec.value, s.report, s.context, rec.text);
    if ('category' in built) this.merger.skip(s, out, rec.index, built);
    else this.merger.merge(s, out, rec.index, built, file.mode === 'collection');
  }

  /** The counters, to put back when a file's records are undone. */
  private snapshot(): { kinds: string; seen: Map<string, Map<string, string>>; records: number; bytes: number } {
    return {
      kinds: JSON.stringify(this.kinds),
      seen: new Map([...this.tables].map(([t, s]) => [t, new Map(s.seen)])),
      records: this.records,
      bytes: this.bytesBefore,
    };
  }

  private restore(saved: ReturnType<ImportRun['snapshot']>): void {
    const kinds = JSON.parse(saved.kinds) as Record<string, KindReport>;
    for (const key of Object.keys(this.kinds)) {
      if (kinds[key]) Object.assign(this.kinds[key]!, kinds[key]);
      else delete this.kinds[key];
    }
    for (const [t, s] of this.tables) {
      const seen = saved.seen.get(t);
      if (!seen) {
        this.tables.delete(t);
        continue;
      }
      s.seen.clear();
      for (const [k, v] of seen) s.seen.set(k, v);
    }
    this.records = saved.records;
    this.bytesBefore = saved.bytes;
  }
}

function definedOnly(options: ImportOptions): Partial<ImportChoices> {
  const out: Partial<Record<keyof ImportChoices, boolean>> = {};
  for (const k of Object.keys(DEFAULT_CHOICES) as (keyof ImportChoices)[]) if (options[k] !== undefined) out[k] = options[k];
  return out;
}

export function runImport(store: Store<SchemaVersion>, plan: Plan, options: ImportOptions): ImportResult {
  // A damaged page the import does not touch would be left as it is, behind a successful import:
  // the store's pages are checked first, and the indexes of the tables it writes against their
  // rows (a unique index that lost a row would let a duplicate in); a damaged store takes nothing.
  refuseDamagedStore(
    store,
    BACKUP_FILES.map((f) => f.table),
  );
  const started = performance.now();
  const totalBytes = plan.files.reduce((n, f) => n + f.source.size, 0);
  const run = new ImportRun(store, options, totalBytes);
  const result = (): ImportResult => ({
    store: store.path,
    schema: store.version,
    strict: options.strict ?? false,
    kinds: run.kinds,
    files: [...run.files, ...plan.notImported],
    skipped: run.merger.skipped,
    conflicts: run.merger.conflicts,
    totals: totalsOf(run.kinds),
    durationMs: Math.round(performance.now() - started),
  });
  store.transaction(() => {
    for (const file of plan.files) run.importFile(file);
    if (options.strict && run.merger.skipped.length > 0) throw new ImportRejectedError(result());
  });
  return { ...result(), ...afterImportNotes(store) };
}

keepSpecimen(new ImportRun(undefined as never, {}, 0));
