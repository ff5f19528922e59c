// Reading progress through `bookProgress/`, by the app's rules (docs/webdav.md): one listing; a
// file written since the book's syncTime ("newer") is downloaded, and applied only when further
// ahead; a book is uploaded only when read since its syncTime (or when the server has no file for
// a book with a position), after reading the file it would replace: never over one further ahead,
// nor over a newer one moved back elsewhere, unless forced. All downloads and uploads happen first;
// then one transaction applies the positions and the syncTimes, re-checking each row.
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import type { DavClient, DavFile } from './client.js';
import { WebDavNotFoundError } from './errors.js';
import type { SyncMarks } from './marks.js';
import { progressFileName } from './names.js';
import { isAhead, readProgressFile, writeProgressFile, type RemoteProgress } from './progress-file.js';

export type ProgressDirection = 'both' | 'pull' | 'push';

export interface Position {
  readonly durChapterIndex: number;
  readonly durChapterPos: number;
  readonly durChapterTitle: string | null;
  readonly durChapterTime: number;
}

export interface BookOutcome {
  readonly bookUrl: string;
  readonly name: string;
  readonly author: string;
  /** The progress file's name in `bookProgress/`. */
  readonly file: string;
}

export interface AppliedProgress extends BookOutcome {
  readonly from: Position;
  readonly to: Position;
}

export interface KeptProgress extends BookOutcome {
  /** Why the two sides differ and stay so: the other direction was not asked for. */
  readonly reason: string;
}

export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

export interface ProgressReport {
  readonly folder: string;
  readonly direction: ProgressDirection;
  /** Where the syncTimes are kept: 'syncTime' (the column, schema 71 and up) or the state file's path. */
  readonly tracking: string;
  readonly books: number;
  /** Files in `bookProgress/`. */
  readonly listed: number;
  readonly downloaded: number;
  /** Remote positions further ahead, now in the store. */
  readonly applied: AppliedProgress[];
  /** Books whose file was written. */
  readonly pushed: BookOutcome[];
  /** Different on both sides and left so (a pull without push or the reverse). */
  readonly kept: KeptProgress[];
  /** Files not used: not JSON, not a progress object, or naming no book on the shelf. */
  readonly skipped: SkippedFile[];
  readonly requests: number;
}

interface ShelfBook {
  readonly bookUrl: string;
  readonly name: string;
  readonly author: string;
  readonly durChapterIndex: number;
  readonly durChapterPos: number;
  readonly durChapterTitle: string | null;
  readonly durChapterTime: number;
  readonly syncTime?: number;
}

const position = (p: Position): Position => ({
  durChapterIndex: p.durChapterIndex,
  durChapterPos: p.durChapterPos,
  durChapterTitle: p.durChapterTitle,
  durChapterTime: p.durChapterTime,
});

export async function syncProgress(
  store: Store<SchemaVersion>,
  dav: DavClient,
  marks: SyncMarks,
  direction: ProgressDirection,
  createFolders: () => Promise<unknown>,
  force = false,
): Promise<ProgressReport> {
  const pull = direction !== 'push';
  const push = direction !== 'pull';
  const books = store.table('books').list({}) as unknown as ShelfBook[];
  let listing = await dav.list('bookProgress/');
  if (!listing) {
    if (!push) throw missingFolder(dav);
    await createFolders();
    listing = [];
  }
  const files = new Map<string, DavFile>();
  for (const f of listing) if (!f.folder) files.set(f.name, f);

  const skipped: SkippedFile[] = [];
  const kept: KeptProgress[] = [];
  const toPush: ShelfBook[] = [];
  const toApply: { book: ShelfBook; remote: RemoteProgress }[] = [];
  const seen: ShelfBook[] = [];
  const byFile = new Map<string, ShelfBook[]>();
  for (const b of books) {
    const name = progressFileName(b.name, b.author);
    byFile.set(name, [...(byFile.get(name) ?? []), b]);
  }
  if (pull) for (const f of files.keys()) if (!byFile.has(f)) skipped.push({ file: f, reason: 'no book on the shelf has this name and author' });

  // Per book: did the file change since its syncTime (written elsewhere: "newer" there), and was
  // the book read here since then (durChapterTime later)? A file is read when it is newer, or
  // before a push would replace it (to see what it holds), unless `force` replaces it blind.
  const changedThere = new Set<ShelfBook>();
  const changedHere = new Set<ShelfBook>();
  const downloads = new Map<string, ShelfBook[]>();
  for (const [name, group] of byFile) {
    const file = files.get(name);
    for (const b of group) {
      const mark = marks.get(b);
      if (file && file.modified > mark) changedThere.add(b);
      if (b.durChapterTime > mark || (!file && hasPosition(b))) changedHere.add(b);
      const there = changedThere.has(b);
      const here = push && changedHere.has(b);
      if (file && (there || (here && !force))) downloads.set(name, [...(downloads.get(name) ?? []), b]);
      else if (here) toPush.push(b);
    }
  }

  let downloaded = 0;
  for (const [name, group] of downloads) {
    const file = files.get(name)!;
    const text = Buffer.from(await dav.get(`bookProgress/${name}`, file.size)).toString('utf8');
    downloaded++;
    const remote = readProgressFile(text);
    // A file that cannot be used is reported once per change: marked as seen, like an equal one.
    if ('invalid' in remote) {
      skipped.push({ file: name, reason: remote.invalid });
      seen.push(...group);
      continue;
    }
    for (const b of group) {
      if (remote.name !== b.name || remote.author !== b.author) {
        skipped.push({ file: name, reason: `names another book: ${JSON.stringify(remote.name)} by ${JSON.stringify(remote.author)}` });
        seen.push(b);
        continue;
      }
      const there = changedThere.has(b);
      const here = changedHere.has(b);
      const keep = (reason: string): void => void kept.push({ ...outcome(b, name), reason });
      if (here && push && force) {
        toPush.push(b);
      } else if (isAhead(remote, b) && there) {
        // The app's rule: newer there and further ahead.
        if (pull) toApply.push({ book: b, remote });
        else keep('the server is further ahead (pull to take it)');
      } else if (isAhead(remote, b)) {
        // Read here, behind a file this store already knew: a move back here, or a re-read.
        if (push) keep('the server is further ahead: a move back here is sent only when asked (--force)');
        else seen.push(b);
      } else if (isAhead(b, remote) && here && !(there && remote.durChapterTime > b.durChapterTime)) {
        if (push) toPush.push(b);
        else keep('the store is further ahead (push to send it)');
      } else if (isAhead(b, remote)) {
        // Behind, written elsewhere since the last sync, and not overtaken by reading here: a move
        // back made on another device stands; this store keeps its own position.
        keep('the server is behind, moved back elsewhere since the last sync: kept here, not sent (it is sent once read here again)');
        seen.push(b);
      } else {
        seen.push(b);
      }
    }
  }

  // Uploads before any write to the store: a failed upload leaves the store as it was.
  const pushed: BookOutcome[] = [];
  for (const b of toPush) {
    const name = progressFileName(b.name, b.author);
    await dav.put(`bookProgress/${name}`, writeProgressFile(b), 'application/json');
    pushed.push(outcome(b, name));
  }

  const now = store.clock();
  const applied: AppliedProgress[] = [];
  const books$ = store.table('books');
  store.transaction(() => {
    for (const { book, remote } of toApply) {
      // Read again: the row may have moved on while the downloads ran.
      const current = books$.get(book.bookUrl) as unknown as ShelfBook | undefined;
      if (!current || !isAhead(remote, current)) continue;
      const to = position(remote);
      books$.update(book.bookUrl, { ...to, ...marks.patch(book.bookUrl, now) });
      applied.push({ ...outcome(book, progressFileName(book.name, book.author)), from: position(current), to });
    }
    for (const b of [...toPush, ...seen]) {
      const patch = marks.patch(b.bookUrl, now);
      if (Object.keys(patch).length) books$.update(b.bookUrl, patch);
    }
  });
  marks.committed();

  return {
    folder: dav.root,
    direction,
    tracking: marks.where,
    books: books.length,
    listed: files.size,
    downloaded,
    applied,
    pushed,
    kept,
    skipped,
    requests: dav.requests,
  };
}

/** A book that was opened: worth a file even when unchanged since it was last synced elsewhere. */
const hasPosition = (b: ShelfBook): boolean => b.durChapterIndex > 0 || b.durChapterPos > 0;

const outcome = (b: ShelfBook, file: string): BookOutcome => ({ bookUrl: b.bookUrl, name: b.name, author: b.author, file });

function missingFolder(dav: DavClient): WebDavNotFoundError {
  return new WebDavNotFoundError('PROPFIND', `${dav.root}bookProgress/`, 404, 'no bookProgress/ folder: no device has synced progress here yet');
}
