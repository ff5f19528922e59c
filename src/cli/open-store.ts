// Opening the store a command writes to, knowing whether the open created it: a typo in the
// path must not make a new store without a word, and a command that fails on a store it
// created leaves no new file behind.
import { rmSync, statSync } from 'node:fs';
import { refuseDamagedStore } from '../backup/store-check.js';
import { CorruptError, type Damage } from '../errors.js';
import { inspectFile, openStore, type OpenOptions } from '../store/open.js';
import type { AnyStore } from '../store/store.js';
import type { CliIo } from './io.js';

/** True when the open will create the store: no file, or an empty one (openStore's rule). */
function willCreate(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return true;
  }
}

export interface OpenedStore {
  readonly store: AnyStore;
  /** This open made the file. */
  readonly created: boolean;
}

export function openOrCreateStore(path: string, options: OpenOptions = {}): OpenedStore {
  const created = options.create !== false && !options.readonly && willCreate(path);
  if (!created && !options.readonly) refuseDamagedBesideWal(path);
  return { store: openStore(path, options), created };
}

/**
 * A file with a -wal beside it, checked whole before a command opens it to write. The open checks
 * the -wal's pages, not the file's; a writing connection that then meets damage in the file
 * cannot close without merging the -wal into it or leaving a -shm beside it. So the file and its
 * -wal are read first by a connection that leaves nothing (inspectFile), and a damaged one is
 * refused with the folder as it was.
 */
function refuseDamagedBesideWal(path: string): void {
  if (!(fileSize(`${path}-wal`) > 0) || willCreate(path)) return;
  const what = 'the file read with the -wal beside it is damaged (move the -wal away, keep it, and verify again); nothing was written';
  let damage: readonly Damage[];
  try {
    damage = inspectFile(path, { check: 'quick' }).damage;
  } catch (e) {
    // Damage that stops the inspection itself (a zeroed root page) is the same answer.
    if (e instanceof CorruptError) throw new CorruptError(path, e.damage, what);
    throw e;
  }
  if (damage.length) throw new CorruptError(path, damage, what);
}

const fileSize = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** "created PATH at schema N", on stderr (stdout may be JSON). */
export function sayCreated(io: CliIo, path: string, version: number): void {
  io.stderr.write(`legado-store: created ${path} at schema ${version}\n`);
}

/** Removes a store this command created (closed first) and its companions, after a failure. */
export function removeCreated(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(p, { force: true });
}

/**
 * An existing store a command writes to, its pages checked first (as an import's are): a damaged
 * store is refused with CORRUPT before anything is written, and closed, leaving nothing beside it.
 */
export function openForWrite(path: string, options: OpenOptions = {}): AnyStore {
  refuseDamagedBesideWal(path);
  const store = openStore(path, { ...options, create: false });
  try {
    refuseDamagedStore(store);
  } catch (e) {
    store.close();
    throw e;
  }
  return store;
}
