// What `diff` compares: a store file, or a backup (a zip, or a folder of its files). A backup is
// read by the import readers (src/backup) into a temporary in-memory store, so a backup means
// exactly what importing it would store: the same conversions, defaults and skipped records.
import { hasSqliteHeader } from '../engine/traceless-read.js';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { importBackup } from './backup-import.js';
import { UnsupportedInputError } from '../backup/errors.js';
import { isZipSignature } from '../backup/zip.js';
import { FileNotFoundError } from '../errors.js';
import { NEWEST_VERSION, type SchemaVersion } from '../schema/index.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';

export type SideKind = 'store' | 'backup';

export interface DiffSide {
  readonly path: string;
  readonly kind: SideKind;
  readonly version: SchemaVersion;
  /** Backup records the import readers could not use (they are not in the comparison). */
  readonly skippedRecords: number;
  readonly store: Store<SchemaVersion>;
}

/** What a path holds, by its first bytes: a store (SQLite file), a zip, a folder, or some other file. */
export function inputKind(path: string): 'store' | 'zip' | 'folder' | 'other' {
  if (!existsSync(path)) throw new FileNotFoundError(path);
  if (statSync(path).isDirectory()) return 'folder';
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (hasSqliteHeader(head.subarray(0, n))) return 'store';
  return isZipSignature(head.subarray(0, n)) ? 'zip' : 'other';
}

/** Whether `path` is a store or a backup; anything else is an UnsupportedInputError. */
export function sideKind(path: string): SideKind {
  const kind = inputKind(path);
  if (kind === 'other') throw new UnsupportedInputError(path, 'neither a store (SQLite file) nor a backup (zip or folder)');
  return kind === 'store' ? 'store' : 'backup';
}

export interface OpenSideOptions {
  /** Read a backup at this schema version (default: the newest, so no field is left out). */
  readonly version?: SchemaVersion;
  /** The backup password, for an encrypted servers.json. */
  readonly password?: string;
}

/** Opens a store read-only, or reads a backup into a new in-memory store. Close `side.store` after use. */
export async function openSide(path: string, options: OpenSideOptions = {}): Promise<DiffSide> {
  const kind = sideKind(path);
  if (kind === 'store') {
    const store = openStore(path, { create: false, readonly: true });
    return { path, kind, version: store.version, skippedRecords: 0, store };
  }
  const version = options.version ?? NEWEST_VERSION;
  // No special groups of its own: the backup's book groups are what it holds. Time defaults
  // at 0, so two readings of the same backup are equal.
  const store = openStore(':memory:', { schema: version, specialGroups: false });
  try {
    const result = await importBackup(store, path, { now: 0, ...(options.password !== undefined ? { password: options.password } : {}) });
    return { path, kind, version, skippedRecords: result.skipped.length, store };
  } catch (e) {
    store.close();
    throw e;
  }
}

/**
 * Opens both sides of a comparison. A backup compared with a store is read at the store's
 * version, so both have the same tables and fields. `close` closes them in the reverse order
 * of opening: when both are the same file, the connection that opened it first (and may remove
 * the WAL it made) is the last one on it.
 */
export async function openSides(a: string, b: string, options: { readonly password?: string } = {}): Promise<{ a: DiffSide; b: DiffSide; close: () => void }> {
  const bFirst = sideKind(a) === 'backup' && sideKind(b) === 'store';
  const [firstPath, secondPath] = bFirst ? [b, a] : [a, b];
  const first = await openSide(firstPath, options);
  let second: DiffSide;
  try {
    second = await openSide(secondPath, { ...options, version: first.kind === 'store' ? first.version : NEWEST_VERSION });
  } catch (e) {
    first.store.close();
    throw e;
  }
  const close = () => {
    try {
      second.store.close();
    } finally {
      first.store.close();
    }
  };
  return bFirst ? { a: second, b: first, close } : { a: first, b: second, close };
}
