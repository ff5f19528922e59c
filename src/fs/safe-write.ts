// Writing a file without surprises: an existing file is refused unless the caller says
// `overwrite`, and the new content goes to a temporary file in the same folder that is renamed
// into place only once complete and flushed. A failed or killed write leaves what was there
// before untouched, and removes its temporary file.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CannotOpenError, FileExistsError } from '../errors.js';
import { fsError } from '../io/fs-errors.js';

export interface SafeWriteOptions {
  /** Replace an existing file (default false: FileExistsError, nothing written). */
  readonly overwrite?: boolean | undefined;
  /** What is written, for the refusal's message ("a backup", "the demo store"). */
  readonly purpose: string;
  /**
   * Suffixes of files that belong to the target (a SQLite store's `-wal`, `-shm`): they count as
   * the target existing, and are removed when it is replaced, so no stale one is left beside
   * the new file.
   */
  readonly companions?: readonly string[];
}

/** A SQLite store's companion files. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Throws unless `path` can be written as asked: a NUL byte, a folder, a missing parent folder
 * are CannotOpenError; an existing file (or companion) without `overwrite` is FileExistsError.
 */
export function checkTarget(path: string, options: SafeWriteOptions): void {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
    throw new CannotOpenError(String(path), 'not a usable file name (empty, or a NUL byte in it)');
  }
  const parent = statOrNull(dirname(path));
  if (!parent?.isDirectory()) throw new CannotOpenError(path, `its folder ${dirname(path)} does not exist`);
  const here = statOrNull(path);
  if (here?.isDirectory()) throw new CannotOpenError(path, 'it is a folder');
  if (options.overwrite) return;
  for (const suffix of ['', ...(options.companions ?? [])]) {
    if (statOrNull(path + suffix)) throw new FileExistsError(path + suffix, options.purpose);
  }
}

/** A fresh name for a temporary file beside `path` (same folder, so the rename is atomic). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Writes `path` through `write(tempPath)`: checked first, renamed into place when complete. */
export function writeFileSafely(path: string, write: (tempPath: string) => void, options: SafeWriteOptions): void {
  checkTarget(path, options);
  const temp = tempPathFor(path);
  try {
    write(temp);
    commit(temp, path, options);
  } catch (e) {
    discard(temp, options);
    throw fsError(path, e);
  }
}

/** writeFileSafely for a writer that works asynchronously (streams). */
export async function writeFileSafelyAsync(path: string, write: (tempPath: string) => Promise<void>, options: SafeWriteOptions): Promise<void> {
  checkTarget(path, options);
  const temp = tempPathFor(path);
  try {
    await write(temp);
    commit(temp, path, options);
  } catch (e) {
    discard(temp, options);
    throw fsError(path, e);
  }
}

/** Flushes the finished temporary file and puts it in place (replacing only with overwrite). */
function commit(temp: string, path: string, options: SafeWriteOptions): void {
  const fd = openSync(temp, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (options.overwrite) {
    if (statOrNull(path)?.isDirectory()) throw new CannotOpenError(path, 'it is a folder');
    // A stale -wal beside the new file would be read as part of it: the old ones go first.
    for (const suffix of options.companions ?? []) rmSync(path + suffix, { force: true });
    renameSync(temp, path);
  } else {
    // link() never replaces: a file created at `path` since the check is still refused.
    try {
      linkSync(temp, path);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'EEXIST') throw new FileExistsError(path, options.purpose);
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw e;
      // A file system without hard links: check again and rename.
      checkTarget(path, options);
      renameSync(temp, path);
      syncFolder(path);
      return;
    }
    unlinkSync(temp);
  }
  syncFolder(path);
}

function discard(temp: string, options: SafeWriteOptions): void {
  for (const suffix of ['', ...(options.companions ?? [])]) rmSync(temp + suffix, { force: true });
}

/** Makes the rename durable (best effort: some systems cannot open a folder). */
function syncFolder(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not available here (Windows, some network file systems): the rename itself is still atomic.
  }
}

function statOrNull(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw fsError(path, e, 'read');
  }
}
