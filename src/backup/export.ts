// Writing a store out in the app's backup layout (reference 3.1, 3.2): one file per table with
// the app's name, a JSON array pretty-printed with two spaces, null fields left out, booleans as
// true/false, rule and readConfig columns as nested objects, no file for an empty table, and
// servers.json in plain text. Rows are read in one read transaction (a consistent snapshot) and
// written as they are read, into a zip streamed to a sink (a file in Node: node/backup-export.ts; memory
// anywhere: exportBackupBytes). No Node module is imported here: the browser bundle takes it.
import type { SchemaVersion, Table } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { compileFieldPicker, compileSparseRowMaker } from '../table/compiled.js';
import { UnsupportedInputError } from './errors.js';
import { backupFileByKind, backupFileByName, BACKUP_FILES, type BackupFile } from './file-map.js';
import { gsonPretty } from './gson.js';
import { isJsonObjectColumn, NO_OBJECT_TEXT, withoutNullElements } from './json-columns.js';
import { parseObjectText } from './coerce.js';
import { bytesAccess, MemorySink, type ByteSink, type ByteSource } from './byte-source.js';
import { ZipReader, ZipWriter, type ZipLimits } from './zip.js';

export interface ExportOptions {
  /** Tables to write (table names, kinds or backup file names); all backup tables when left out. */
  readonly tables?: readonly string[] | undefined;
  readonly onProgress?: (progress: ExportProgress) => void;
}

/** Options of the export to bytes: `carry` is the original backup zip, whose files that hold no table come along. */
export interface ExportBytesOptions extends ExportOptions {
  readonly carry?: Uint8Array;
  readonly zipLimits?: Partial<ZipLimits>;
}

export interface ExportProgress {
  readonly file: string;
  readonly rows: number;
  readonly totalRows: number;
}

export interface ExportedFile {
  readonly file: string;
  readonly table: string;
  readonly rows: number;
  readonly bytes: number;
}

export interface ExportResult {
  readonly out: string;
  readonly format: 'zip' | 'folder';
  readonly files: ExportedFile[];
  /** Tables asked for that wrote no file: empty, or absent at the store's version. */
  readonly skippedTables: { table: string; reason: string }[];
  /** Files carried unchanged from the original backup (`carry`): config.xml, readConfig.json, ... */
  readonly carried: string[];
}

/** A file of the original backup to carry into the export as it is. */
export interface CarriedFile {
  readonly name: string;
  readonly source: ByteSource;
}

/** Where the backup's files go: entries of a zip, or files of a folder. */
export interface BackupWriter {
  file(name: string): { write(chunk: Uint8Array): void; end(): void };
}

/** Rows between two progress reports. */
const PROGRESS_ROWS = 256;
/** Bytes of text gathered before they are written. */
const OUT_BYTES = 1 << 18;
const encoder = new TextEncoder();

/** Text written to a backup file as UTF-8, gathered in buffers of OUT_BYTES. */
class TextOut {
  bytes = 0;
  private buf = new Uint8Array(OUT_BYTES);
  private at = 0;
  private readonly file: { write(chunk: Uint8Array): void; end(): void };

  constructor(file: { write(chunk: Uint8Array): void; end(): void }) {
    this.file = file;
  }

  put(text: string): void {
    for (;;) {
      const { read, written } = encoder.encodeInto(text, this.buf.subarray(this.at));
      this.at += written;
      this.bytes += written;
      if (read === text.length) break;
      this.flush();
      text = text.slice(read);
    }
    if (this.at > OUT_BYTES - 32768) this.flush();
  }

  end(): void {
    this.flush();
    this.file.end();
  }

  /** Hands the buffer to the file, which may keep it, and starts a new one. */
  private flush(): void {
    if (this.at === 0) return;
    this.file.write(this.buf.subarray(0, this.at));
    this.buf = new Uint8Array(OUT_BYTES);
    this.at = 0;
  }
}

/**
 * The backup as a zip in memory (the browser's entry point; the same writer as the file export).
 * `carry`: the original backup zip, whose files that hold no table are carried through unchanged.
 */
export async function exportBackupBytes(store: Store<SchemaVersion>, options: ExportBytesOptions = {}): Promise<Uint8Array> {
  return exportBackupZip(store, options).bytes;
}

/** `exportBackupBytes` with what was written, synchronously. */
export function exportBackupZip(
  store: Store<SchemaVersion>,
  options: ExportBytesOptions & { readonly name?: string } = {},
): { bytes: Uint8Array; result: ExportResult } {
  const sink = new MemorySink();
  const carry = options.carry && carriedFromZip(new ZipReader(bytesAccess('carry.zip', options.carry), options.zipLimits));
  const result = writeZipBackup(store, sink, options.name ?? 'backup.zip', { ...options, carry });
  return { bytes: sink.bytes(), result };
}

/** The files of an original backup zip that hold no table: what `carry` brings along. */
export function carriedFromZip(zip: ZipReader): CarriedFile[] {
  const taken = new Set<string>();
  const out: CarriedFile[] = [];
  for (const e of zip.entries) {
    if (e.isDirectory || backupFileByName(e.name) || taken.has(e.name.toLowerCase())) continue;
    taken.add(e.name.toLowerCase());
    out.push({ name: e.name, source: zip.source(e) });
  }
  return out;
}

/** Writes the backup as a zip into a sink: the table files, then the carried ones. */
export function writeZipBackup(
  store: Store<SchemaVersion>,
  sink: ByteSink,
  out: string,
  options: ExportOptions & { readonly carry?: readonly CarriedFile[] | undefined },
): ExportResult {
  const zip = new ZipWriter(sink);
  const { written, skippedTables } = writeTables(store, selectFiles(options.tables), zip, options.onProgress);
  const carried = carryFiles(options.carry, zip);
  zip.end();
  return { out, format: 'zip', files: written, skippedTables, carried };
}

export function carryFiles(carry: readonly CarriedFile[] | undefined, writer: BackupWriter): string[] {
  const carried: string[] = [];
  for (const c of carry ?? []) {
    const f = writer.file(c.name);
    for (const chunk of c.source.chunks()) f.write(chunk);
    f.end();
    carried.push(c.name);
  }
  return carried;
}

export function selectFiles(names: readonly string[] | undefined): BackupFile[] {
  if (!names || names.length === 0) return [...BACKUP_FILES];
  return names.map((n) => backupFileByKind(n) ?? fail(n));
}

function fail(name: string): never {
  throw new UnsupportedInputError(name, `not a table of a backup; one of ${BACKUP_FILES.map((f) => f.table).join(', ')}`);
}

/** Every selected table with rows as one file, read in one transaction (a consistent snapshot). */
export function writeTables(
  store: Store<SchemaVersion>,
  files: readonly BackupFile[],
  writer: BackupWriter,
  onProgress: ExportOptions['onProgress'],
): { written: ExportedFile[]; skippedTables: { table: string; reason: string }[] } {
  const written: ExportedFile[] = [];
  const skippedTables: { table: string; reason: string }[] = [];
  // One snapshot for every file, without the write lock: writers go on meanwhile.
  store.read(() => {
    const present = files.filter((f) => {
      if (store.schema.table(f.table)) return true;
      skippedTables.push({ table: f.table, reason: `no such table at schema ${store.version}` });
      return false;
    });
    const counts = new Map(present.map((f) => [f.table, store.table(f.table).count()]));
    const totalRows = [...counts.values()].reduce((a, b) => a + b, 0);
    let done = 0;
    for (const f of present) {
      if (counts.get(f.table) === 0) {
        skippedTables.push({ table: f.table, reason: 'empty' });
        continue;
      }
      const table = store.schema.table(f.table)!;
      const out = new TextOut(writer.file(f.file));
      let rows = 0;
      // Each row is turned into text on its own: JSON.stringify of a one-element array with a
      // 2-space indent is exactly Gson's layout of that element in the file's array. A whole
      // batch's text came back from JSON.stringify in pieces, and joining them before its bytes
      // could be written cost as much as writing it (41 -> 13 ms for 1,000 sources).
      for (const row of store.table(f.table).iterate()) {
        out.put(rows === 0 ? '[\n' : ',\n');
        out.put(gsonPretty([toJsonValue(table, row)]).slice(2, -2)); // without "[\n" and "\n]"
        rows++;
        if (rows % PROGRESS_ROWS === 0) onProgress?.({ file: f.file, rows: done + rows, totalRows });
      }
      out.put('\n]');
      out.end();
      const bytes = out.bytes;
      done += rows;
      onProgress?.({ file: f.file, rows: done, totalRows });
      written.push({ file: f.file, table: f.table, rows, bytes });
    }
  });
  return { written, skippedTables };
}

/** One row as the app's Gson writes the entity: fields in column order, nulls left out. */
export function toJsonValue(table: Table, row: Record<string, unknown>): Record<string, unknown> {
  // Values in column order, then one object (compiled.ts: compileSparseRowMaker says why).
  const values = compileFieldPicker(table)(row);
  const columns = table.columns;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const v = values[i];
    if (v === null || v === undefined) {
      values[i] = undefined;
      continue;
    }
    if (isJsonObjectColumn(table.name, c.field) && typeof v === 'string') {
      if (v.trim() === NO_OBJECT_TEXT) {
        values[i] = undefined;
        continue;
      }
      const parsed = parseObjectText(v);
      // Only text that mentions null can hold an array with a null element.
      values[i] = parsed === undefined ? v : v.includes('null') ? withoutNullElements(parsed) : parsed;
      continue;
    }
    // Bitmasks that fit a number are written as one; the others stay exact (gson.ts).
    if (typeof v === 'bigint' && Number.isSafeInteger(Number(v))) values[i] = Number(v);
  }
  return compileSparseRowMaker(table)(values);
}
