// Exporting to a file or folder (Node). A zip is streamed into `<out>.<pid>.tmp` and renamed
// over `out` when complete; an existing `out` is replaced only with `overwrite` (--force). A
// failed write (no space, no permission, a file too large, a folder in the way) is a typed error
// and leaves neither the temporary file nor a changed `out` behind.
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FileExistsError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { BadArchiveError, UnsupportedInputError, WriteError } from '../backup/errors.js';
import {
  carriedFromZip,
  carryFiles,
  exportBackupZip,
  selectFiles,
  writeTables,
  writeZipBackup,
  type BackupWriter,
  type CarriedFile,
  type ExportBytesOptions,
  type ExportOptions,
  type ExportResult,
} from '../backup/export.js';
import { backupFileByName } from '../backup/file-map.js';
import { fileAccess, fileHead, fileSource } from '../fs/byte-sources.js';
import type { ByteSink } from '../backup/byte-source.js';
import { isZipSignature, ZipReader, type ZipLimits } from '../backup/zip.js';

export interface ExportFileOptions extends ExportOptions {
  /** Replace an existing `out` (the CLI's --force); without it an existing file or non-empty folder is refused. */
  readonly overwrite?: boolean | undefined;
  /** The original backup (a zip or a folder): its files that hold no table are carried through unchanged. */
  readonly carry?: string;
  readonly zipLimits?: Partial<ZipLimits>;
}

/**
 * Writes the backup to `out`: a zip when the name ends in .zip, otherwise a new (or empty) folder.
 * Without `out`, the backup zip's bytes, as the browser's `exportBackup` gives them.
 */
export async function exportBackup(store: Store<SchemaVersion>, out: string, options?: ExportFileOptions): Promise<ExportResult>;
export async function exportBackup(store: Store<SchemaVersion>, options?: ExportBytesOptions): Promise<Uint8Array>;
export async function exportBackup(
  store: Store<SchemaVersion>,
  outOrOptions?: string | ExportBytesOptions,
  fileOptions: ExportFileOptions = {},
): Promise<ExportResult | Uint8Array> {
  if (typeof outOrOptions !== 'string') return exportBackupZip(store, outOrOptions).bytes;
  return exportFile(store, outOrOptions, fileOptions);
}

function exportFile(store: Store<SchemaVersion>, out: string, options: ExportFileOptions): ExportResult {
  const files = selectFiles(options.tables);
  const zip = out.toLowerCase().endsWith('.zip');
  refuseExisting(out, zip, options.overwrite ?? false);
  const carry = options.carry === undefined ? undefined : openCarry(options.carry, options.zipLimits);
  try {
    mkdirSync(dirname(resolve(out)), { recursive: true });
    if (zip) {
      return writeThenRename(out, (sink) => writeZipBackup(store, sink, out, { ...options, carry: carry?.files }));
    }
    return writeFolder(store, out, files, options, carry?.files);
  } finally {
    carry?.close();
  }
}

function refuseExisting(out: string, zip: boolean, overwrite: boolean): void {
  if (!existsSync(out)) return;
  const isDir = statSync(out).isDirectory();
  if (zip && isDir) throw new WriteError(out, 'EISDIR', 'is a folder; a .zip export writes a file');
  if (overwrite) return;
  if (zip) throw new FileExistsError(out, 'a backup');
  if (!isDir || readdirSync(out).length > 0) {
    throw new UnsupportedInputError(out, 'exists and is not an empty folder; export into a new folder or a .zip, or use --force / overwrite: true');
  }
}

function openCarry(path: string, limits: Partial<ZipLimits> | undefined): { files: CarriedFile[]; close(): void } {
  if (!existsSync(path)) throw new UnsupportedInputError(path, 'no such backup to carry files from');
  if (statSync(path).isDirectory()) {
    const files = readdirSync(path, { withFileTypes: true })
      .filter((e) => e.isFile() && !backupFileByName(e.name))
      .map((e) => ({ name: e.name, source: fileSource(join(path, e.name)) }));
    return { files, close() {} };
  }
  if (!isZipSignature(fileHead(path, 4))) throw new BadArchiveError(path, undefined, 'not a zip archive');
  const zip = new ZipReader(fileAccess(path), limits);
  return { files: carriedFromZip(zip), close: () => zip.close() };
}

/** Streams into `<out>.<pid>.tmp` and renames it over `out`; on any failure the temporary file is removed. */
function writeThenRename<T>(out: string, write: (sink: ByteSink) => T): T {
  const tmp = `${out}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    const file = fd;
    const result = write({ write: (chunk) => writeAll(file, chunk) });
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, out);
    return result;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw WriteError.from(e, out);
  }
}

function writeAll(fd: number, chunk: Uint8Array): void {
  for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at, chunk.length - at);
}

/** A folder: written beside `out` under a temporary name and moved into place when complete. */
function writeFolder(
  store: Store<SchemaVersion>,
  out: string,
  files: ReturnType<typeof selectFiles>,
  options: ExportFileOptions,
  carry: readonly CarriedFile[] | undefined,
): ExportResult {
  const staging = mkdtempSync(join(dirname(resolve(out)), `.${basename(out)}.export-`));
  try {
    const writer: BackupWriter = {
      file(name) {
        const fd = openSync(join(staging, name), 'w');
        return { write: (chunk) => writeAll(fd, chunk), end: () => closeSync(fd) };
      },
    };
    const { written, skippedTables } = writeTables(store, files, writer, options.onProgress);
    const carried = carryFiles(carry, writer);
    if (existsSync(out)) rmSync(out, { recursive: true });
    renameSync(staging, out);
    return { out, format: 'folder', files: written, skippedTables, carried };
  } catch (e) {
    throw WriteError.from(e, out);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
