// Opening the store a command writes to, knowing whether the open created it: a typo in the
// path must not make a new store without a word, and a command that fails on a store it
// created leaves no new file behind.
import { rmSync, statSync } from 'node:fs';
import { openStore, type OpenOptions } from '../store/open.js';
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
  return { store: openStore(path, options), created };
}

/** "created PATH at schema N", on stderr (stdout may be JSON). */
export function sayCreated(io: CliIo, path: string, version: number): void {
  io.stderr.write(`legado-store: created ${path} at schema ${version}\n`);
}

/** Removes a store this command created (closed first) and its companions, after a failure. */
export function removeCreated(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(p, { force: true });
}
