// Writing a store out in the app's backup layout (reference 3.1, 3.2): one file per table with
// the app's name, a JSON array pretty-printed with two spaces, null fields left out, booleans as
// true/false, rule and readConfig columns as nested objects, no file for an empty table, and
// servers.json in plain text. Rows are read in one read transaction (a consistent snapshot) and
// written as they are read; a zip is assembled from the written files.
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { SchemaVersion, Table } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { UnsupportedInputError } from './errors.js';
import { backupFileByKind, BACKUP_FILES, type BackupFile } from './file-map.js';
import { gsonPretty } from './gson.js';
import { isJsonObjectColumn, NO_OBJECT_TEXT } from './json-columns.js';
import { parseObjectText } from './coerce.js';
import { writeZip } from './zip.js';

export interface ExportOptions {
  /** Tables to write (table names, kinds or backup file names); all backup tables when left out. */
  readonly tables?: readonly string[];
  readonly onProgress?: (progress: ExportProgress) => void;
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
}

/** Rows turned into text and written at a time. */
const BATCH_ROWS = 256;

/** Writes the backup to `out`: a zip when the name ends in .zip, otherwise a new (or empty) folder. */
export async function exportBackup(store: Store<SchemaVersion>, out: string, options: ExportOptions = {}): Promise<ExportResult> {
  const files = selectFiles(options.tables);
  const zip = out.toLowerCase().endsWith('.zip');
  if (!zip && existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0)) {
    throw new UnsupportedInputError(out, 'exists and is not an empty folder; export into a new folder or a .zip');
  }
  const parent = dirname(resolve(out));
  mkdirSync(parent, { recursive: true });
  // Written next to the target (or in tmp for a zip) and moved into place when complete.
  const staging = mkdtempSync(zip ? join(tmpdir(), 'legado-export-') : join(parent, '.legado-export-'));
  try {
    const { written, skippedTables } = writeTables(store, files, staging, options.onProgress);
    if (zip) {
      const tmpZip = `${out}.${process.pid}.tmp`;
      await writeZip(tmpZip, written.map((w) => ({ name: w.file, path: join(staging, w.file) })));
      renameSync(tmpZip, out);
    } else {
      if (existsSync(out)) rmSync(out, { recursive: true });
      renameSync(staging, out);
    }
    return { out, format: zip ? 'zip' : 'folder', files: written, skippedTables };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function selectFiles(names: readonly string[] | undefined): BackupFile[] {
  if (!names || names.length === 0) return [...BACKUP_FILES];
  return names.map((n) => backupFileByKind(n) ?? fail(n));
}

function fail(name: string): never {
  throw new UnsupportedInputError(name, `not a table of a backup; one of ${BACKUP_FILES.map((f) => f.table).join(', ')}`);
}

function writeTables(
  store: Store<SchemaVersion>,
  files: readonly BackupFile[],
  dir: string,
  onProgress: ExportOptions['onProgress'],
): { written: ExportedFile[]; skippedTables: { table: string; reason: string }[] } {
  const written: ExportedFile[] = [];
  const skippedTables: { table: string; reason: string }[] = [];
  store.transaction(() => {
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
      const fd = openSync(join(dir, f.file), 'w');
      let rows = 0;
      let bytes = 0;
      // Rows are turned into text a batch at a time: JSON.stringify of an array with a 2-space
      // indent is exactly Gson's layout of the array, so the batches' bodies are joined as they are.
      let batch: Record<string, unknown>[] = [];
      const flush = () => {
        const body = gsonPretty(batch).slice(2, -2); // without "[\n" and "\n]"
        bytes += writeSync(fd, `${rows === batch.length ? '[\n' : ',\n'}${body}`);
        batch = [];
        onProgress?.({ file: f.file, rows: done + rows, totalRows });
      };
      try {
        for (const row of store.table(f.table).iterate()) {
          batch.push(toJsonValue(table, row));
          rows++;
          if (batch.length === BATCH_ROWS) flush();
        }
        if (batch.length) flush();
        bytes += writeSync(fd, '\n]');
      } finally {
        closeSync(fd);
      }
      done += rows;
      onProgress?.({ file: f.file, rows: done, totalRows });
      written.push({ file: f.file, table: f.table, rows, bytes });
    }
  });
  return { written, skippedTables };
}

/** One row as the app's Gson writes the entity: fields in column order, nulls left out. */
export function toJsonValue(table: Table, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of table.columns) {
    const v = row[c.field];
    if (v === null || v === undefined) continue;
    if (isJsonObjectColumn(table.name, c.field) && typeof v === 'string') {
      if (v.trim() === NO_OBJECT_TEXT) continue;
      out[c.field] = parseObjectText(v) ?? v;
      continue;
    }
    // Bitmasks that fit a number are written as one; the others stay exact (gson.ts).
    out[c.field] = typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v;
  }
  return out;
}
