// What changed since the last sync, per book: the app's `syncTime` (epoch ms of the last pull or
// push of that book). A file newer than it is downloaded; a book read since it (durChapterTime
// later) is pushed. At schema 71 and up it is the books.syncTime column, as the app keeps it.
// Below 71 the file must stay exactly the app's (no extra table, no extra column), so the same
// numbers are kept beside the store in a small JSON file, one set per WebDAV folder.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';

export interface SyncMarks {
  /** 'syncTime' (the column) or the path of the state file. */
  readonly where: string;
  /** The book's syncTime (0 when it was never synced here). */
  get(book: { bookUrl: string; syncTime?: unknown }): number;
  /** The fields to write with the book in the sync's transaction (the column), or nothing. */
  patch(bookUrl: string, time: number): Record<string, number>;
  /** Called after the transaction committed (the state file is written then). */
  committed(): void;
}

/** The store's own column, when its version has one. */
export function hasSyncTimeColumn(store: Store<SchemaVersion>): boolean {
  return store.schema.table('books')?.column('syncTime') !== undefined;
}

export function syncMarks(store: Store<SchemaVersion>, folder: string, stateFile?: string): SyncMarks {
  return hasSyncTimeColumn(store) ? columnMarks() : new StateFileMarks(stateFile ?? defaultStateFile(store.path), folder);
}

/** `<store>.webdav-sync.json`, beside the store. */
export function defaultStateFile(storePath: string): string {
  return `${storePath}.webdav-sync.json`;
}

function columnMarks(): SyncMarks {
  return {
    where: 'syncTime',
    get: (book) => Number(book.syncTime ?? 0),
    patch: (_url, time) => ({ syncTime: time }),
    committed: () => {},
  };
}

interface StateFile {
  /** Folder URL → bookUrl → syncTime. */
  folders: Record<string, Record<string, number>>;
}

class StateFileMarks implements SyncMarks {
  private readonly state: StateFile;
  private readonly times: Record<string, number>;
  private dirty = false;

  constructor(
    readonly where: string,
    folder: string,
  ) {
    this.state = readState(where);
    this.times = this.state.folders[folder] ??= {};
  }

  get(book: { bookUrl: string }): number {
    return this.times[book.bookUrl] ?? 0;
  }

  patch(bookUrl: string, time: number): Record<string, number> {
    this.times[bookUrl] = time;
    this.dirty = true;
    return {};
  }

  committed(): void {
    if (!this.dirty) return;
    // Written whole and renamed into place: a crash leaves the old file, which only costs downloads.
    const tmp = `${this.where}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state, null, 1) + '\n');
    renameSync(tmp, this.where);
    this.dirty = false;
  }
}

/** A missing or unreadable state file means "never synced": everything is compared once, nothing is lost. */
function readState(path: string): StateFile {
  if (!existsSync(path)) return { folders: {} };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<StateFile>;
    if (parsed && typeof parsed.folders === 'object' && parsed.folders !== null) return { folders: parsed.folders };
  } catch {
    // fall through
  }
  return { folders: {} };
}
