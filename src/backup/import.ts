// Importing backups (a zip, or a folder of the same files) and rule collections into a store.
// Inputs are planned first (a zip's table files are streamed out to a temporary folder), then
// every record of every file is read as a stream and written inside ONE store transaction:
// an import is stored whole or not at all, and a strict import fails on the first skipped record.
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { LegadoStoreError, UniqueViolationError } from '../errors.js';
import type { Table } from '../schema/index.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import type { TableApi } from '../table/table.js';
import { decryptBackupText, looksEncrypted } from './aes.js';
import { detectKind } from './detect-kind.js';
import { DecryptError, ImportRejectedError, UnsupportedInputError } from './errors.js';
import {
  BACKUP_FILES,
  backupFileByKind,
  backupFileByName,
  KIND_NAMES,
  NON_TABLE_KINDS,
  nonTableFile,
  type BackupFile,
} from './file-map.js';
import { JsonRecordReader, type JsonSource } from './json-stream.js';
import { Clock, RowBuilder, type Built, type Skip } from './record.js';
import {
  bump,
  newKindReport,
  totalsOf,
  type FileOutcome,
  type ImportResult,
  type KindReport,
  type SkippedRecord,
} from './report.js';
import { extractZip, isZipSignature } from './zip.js';

export interface ImportProgress {
  /** The file being read. */
  readonly file: string;
  readonly kind?: string;
  /** Records read so far, over all files. */
  readonly records: number;
  /** Bytes read so far, over all files, and the total to read. */
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface ImportOptions {
  /** The kind of records in rule files (bookSource, rssSource, replaceRule, ...); detected when left out. */
  readonly kind?: string;
  /** All or nothing: any record that cannot be stored fails the whole import. */
  readonly strict?: boolean;
  /** The backup password, for an encrypted servers.json (the app's default key otherwise). */
  readonly password?: string;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** The time used for the app's time defaults (epoch ms); now when left out. */
  readonly now?: number;
}

type AnyTable = TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown>;

/** A file to read: where it is, what to call it, and how its kind is known. */
interface PlannedFile {
  readonly display: string;
  readonly path: string;
  /** In a backup the kind comes from the file name; a rule file's from --kind or its keys. */
  readonly mode: 'backup' | 'collection';
  readonly byName?: BackupFile;
}

interface Plan {
  readonly files: PlannedFile[];
  readonly notImported: FileOutcome[];
  readonly cleanup: (() => void)[];
}

/** Imports a backup: a zip archive, or a folder of the files a backup holds. */
export async function importBackup(store: Store<SchemaVersion>, path: string, options: ImportOptions = {}): Promise<ImportResult> {
  return importInputs(store, [path], options, 'backup');
}

/** Imports rule files (book sources, RSS sources, replace rules, TXT TOC rules, TTS engines, dictionary rules, ...). */
export async function importFiles(store: Store<SchemaVersion>, paths: readonly string[], options: ImportOptions = {}): Promise<ImportResult> {
  return importInputs(store, paths, options, 'collection');
}

/** Imports each input as what it is: a zip or a folder is a backup, any other file a rule file. */
export async function importInputs(
  store: Store<SchemaVersion>,
  inputs: readonly string[],
  options: ImportOptions = {},
  as?: 'backup' | 'collection',
): Promise<ImportResult> {
  if (options.kind !== undefined && !backupFileByKind(options.kind)) {
    throw new UnsupportedInputError(`--kind ${options.kind}`, `unknown kind; one of ${KIND_NAMES.join(', ')}`);
  }
  const plan: Plan = { files: [], notImported: [], cleanup: [] };
  try {
    for (const input of inputs) await planInput(plan, input, as);
    return runImport(store, plan, options);
  } finally {
    for (const clean of plan.cleanup) clean();
  }
}

async function planInput(plan: Plan, input: string, as: 'backup' | 'collection' | undefined): Promise<void> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    throw new UnsupportedInputError(input, 'a remote URL: download it first and import the downloaded file');
  }
  if (!existsSync(input)) throw new UnsupportedInputError(input, 'no such file or folder');
  if (statSync(input).isDirectory()) {
    if (as === 'collection') throw new UnsupportedInputError(input, 'a folder: import it as a backup');
    planFolder(plan, input);
    return;
  }
  if (as === 'backup' || isZipFile(input)) {
    if (!isZipFile(input)) throw new UnsupportedInputError(input, 'not a zip archive or a folder');
    await planZip(plan, input);
    return;
  }
  const nonTable = nonTableFile(basename(input));
  if (nonTable !== undefined) plan.notImported.push(notImported(input, nonTable));
  else plan.files.push({ display: input, path: input, mode: 'collection', byName: backupFileByName(basename(input)) });
}

function isZipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    return isZipSignature(head.subarray(0, readSync(fd, head, 0, 4, 0)));
  } finally {
    closeSync(fd);
  }
}

/** Backup files first, in the app's restore order; what holds no table is reported, not read. An empty path: an entry not extracted. */
function planBackupEntries(plan: Plan, names: readonly { name: string; path: string; display: string }[]): void {
  const order = (name: string) => {
    const f = backupFileByName(name);
    return f ? BACKUP_FILES.indexOf(f) : BACKUP_FILES.length;
  };
  for (const e of [...names].sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name))) {
    const byName = backupFileByName(e.name);
    if (byName && e.path === '') plan.notImported.push(notImported(e.display, 'a second entry with this name in the archive'));
    else if (byName) plan.files.push({ display: e.display, path: e.path, mode: 'backup', byName });
    else plan.notImported.push(notImported(e.display, nonTableFile(e.name) ?? 'not a file of a Legado backup'));
  }
}

function planFolder(plan: Plan, dir: string): void {
  const entries = readdirSync(dir, { withFileTypes: true });
  for (const e of entries) if (e.isDirectory()) plan.notImported.push(notImported(join(dir, e.name), 'a folder inside the backup folder'));
  planBackupEntries(
    plan,
    entries.filter((e) => e.isFile()).map((e) => ({ name: e.name, path: join(dir, e.name), display: join(dir, e.name) })),
  );
}

async function planZip(plan: Plan, zipPath: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legado-import-'));
  plan.cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const listing = await extractZip(zipPath, dir, (name) => backupFileByName(name) !== undefined);
  planBackupEntries(plan, [
    ...listing.extracted.map((e) => ({ name: e.name, path: e.path, display: `${zipPath}:${e.name}` })),
    ...listing.others.map((name) => ({ name, path: '', display: `${zipPath}:${name}` })),
  ]);
}

function notImported(file: string, reason: string, read = 0): FileOutcome {
  return { file, status: 'not-imported', reason, read, stored: 0, duplicates: 0, skipped: 0 };
}

/** Per-table state of one import: the row builder and the keys written so far. */
interface TableState {
  readonly api: AnyTable;
  readonly builder: RowBuilder;
  readonly report: KindReport;
  readonly seen: Set<string>;
}

class ImportRun {
  readonly store: Store<SchemaVersion>;
  readonly options: ImportOptions;
  readonly clock: Clock;
  readonly kinds: Record<string, KindReport> = {};
  readonly files: FileOutcome[] = [];
  readonly skipped: SkippedRecord[] = [];
  private readonly tables = new Map<string, TableState>();
  private records = 0;
  private bytesBefore = 0;
  readonly totalBytes: number;

  constructor(store: Store<SchemaVersion>, options: ImportOptions, totalBytes: number) {
    this.store = store;
    this.options = options;
    this.clock = new Clock(options.now);
    this.totalBytes = totalBytes;
  }

  importFile(file: PlannedFile): void {
    const report: FileOutcome = { file: file.display, status: 'empty', read: 0, stored: 0, duplicates: 0, skipped: 0 };
    this.files.push(report);
    const source = this.sourceOf(file);
    const reader = new JsonRecordReader(source);
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
        }
      }
      report.read++;
      this.records++;
      if (state) this.importRecord(state, report, rec.index, rec.value);
    }
    this.bytesBefore += reader.size;
    if (absent !== undefined) {
      report.status = 'not-imported';
      report.reason = absent;
    } else if (report.read === 0) {
      report.reason = reader.root === 'empty' ? 'empty file' : 'no records';
      if (file.byName) {
        report.kind = file.byName.kind;
        report.table = file.byName.table;
      }
    }
  }

  /** The file as JSON: servers.json may be AES text, which is decrypted first. */
  private sourceOf(file: PlannedFile): JsonSource {
    const given = this.options.kind === undefined ? undefined : backupFileByKind(this.options.kind);
    if ((given ?? file.byName)?.table !== 'servers') return { name: file.display, path: file.path };
    const text = readFileSync(file.path, 'utf8');
    if (!looksEncrypted(text)) return { name: file.display, path: file.path };
    const plain = decryptBackupText(text, this.options.password ?? '');
    if (plain === undefined) throw new DecryptError(file.display, this.options.password !== undefined);
    return { name: file.display, data: Buffer.from(plain, 'utf8') };
  }

  private resolveKind(file: PlannedFile, reader: JsonRecordReader, first: unknown): { kind: string; file: BackupFile } | { kind: string; absent: string } {
    if (reader.root === 'object' && typeof first === 'object' && first !== null && 'sourceUrls' in first) {
      throw new UnsupportedInputError(
        file.display,
        'a list of remote collections (sourceUrls): download each URL and import the downloaded files',
      );
    }
    let kind: string | undefined;
    if (file.mode === 'backup') kind = file.byName?.kind;
    else kind = this.options.kind ?? detectKind(first) ?? file.byName?.kind;
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
      s = { api: this.store.table(file.table), builder: new RowBuilder(table, this.store.version, this.clock), report, seen: new Set() };
      this.tables.set(file.table, s);
    }
    return s;
  }

  private importRecord(s: TableState, file: FileOutcome, index: number, value: unknown): void {
    const k = s.report;
    k.read++;
    const built = s.builder.build(value, k);
    if ('category' in built) return this.skip(s, file, index, built);
    const duplicate = s.seen.has(built.keyText);
    const existed = duplicate || s.api.has(built.key);
    if (existed && this.keepsStored(s, built)) {
      if (duplicate) k.duplicates++, file.duplicates++;
      else k.unchanged++;
      return;
    }
    try {
      this.write(s, built);
    } catch (e) {
      if (!(e instanceof LegadoStoreError)) throw e;
      return this.skip(s, file, index, { category: `rejected: ${e.code}`, reason: e.message, key: built.keyText });
    }
    s.seen.add(built.keyText);
    if (duplicate) {
      k.duplicates++;
      file.duplicates++;
      return;
    }
    if (existed) k.updated++;
    else k.inserted++;
    k.stored++;
    file.stored++;
  }

  /** readRecord: the larger reading time wins, as the app's restore keeps it (reference 3.4). */
  private keepsStored(s: TableState, built: Built): boolean {
    if (s.api.name !== 'readRecord') return false;
    const current = s.api.get(built.key) as { readTime?: number } | undefined;
    return current !== undefined && (current.readTime ?? 0) >= (built.row.readTime as number);
  }

  /**
   * An upsert updates an existing row in place (a book keeps its chapters). A book whose
   * (name, author) belongs to another bookUrl replaces that book, as the app's restore does.
   */
  private write(s: TableState, built: Built): void {
    try {
      s.api.upsert(built.row);
    } catch (e) {
      if (!(s.api.name === 'books' && e instanceof UniqueViolationError && e.index === 'index_books_name_author')) throw e;
      const other = this.store.db
        .prepare('SELECT bookUrl FROM books WHERE name = ? AND author = ?')
        .pluck()
        .get(built.row.name, built.row.author) as string | undefined;
      if (other === undefined) throw e;
      s.api.delete(other);
      s.seen.delete(JSON.stringify([other]));
      s.report.replaced++;
      s.api.upsert(built.row);
    }
  }

  private skip(s: TableState, file: FileOutcome, index: number, why: Skip): void {
    s.report.skipped++;
    file.skipped++;
    bump(s.report.skipReasons, why.category);
    this.skipped.push({ file: file.file, index, kind: s.report.kind, ...(why.key ? { key: why.key } : {}), category: why.category, reason: why.reason });
  }
}

function runImport(store: Store<SchemaVersion>, plan: Plan, options: ImportOptions): ImportResult {
  const started = performance.now();
  const totalBytes = plan.files.reduce((n, f) => n + statSync(f.path).size, 0);
  const run = new ImportRun(store, options, totalBytes);
  const result = (): ImportResult => ({
    store: store.path,
    schema: store.version,
    strict: options.strict ?? false,
    kinds: run.kinds,
    files: [...run.files, ...plan.notImported],
    skipped: run.skipped,
    totals: totalsOf(run.kinds),
    durationMs: Math.round(performance.now() - started),
  });
  store.transaction(() => {
    for (const file of plan.files) run.importFile(file);
    if (options.strict && run.skipped.length > 0) throw new ImportRejectedError(result());
  });
  return result();
}
