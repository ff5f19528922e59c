// What every contender implements: the same work, on the same file, with its own API. Each
// method does a whole workload step (its own loop), so a synchronous contender pays for no
// promise per row; Kysely, which is asynchronous, returns one promise per step.
import type { DriverName } from '../src/index.js';
import type { BookIn, CacheEntry, ChapterIn, ProgressSave, ReplaceRuleIn, SourceIn } from './data.js';

export type MaybePromise<T> = T | Promise<T>;

/** The tables a benchmark backup holds. */
export type BackupTable = 'books' | 'book_sources' | 'replace_rules';

/** "Now" for the cache deadlines, set by the workload; every contender reads the same value. */
export interface Clock {
  now: number;
}

/** A backup profile as plain rows: what export writes and import reads back. */
export interface BackupProfile {
  readonly books: readonly BookIn[];
  readonly sources: readonly SourceIn[];
  readonly replaceRules: readonly ReplaceRuleIn[];
}

export interface Session {
  /** 1. Deletes the book's chapters and inserts these, in one transaction; returns the count. */
  replaceToc(bookUrl: string, chapters: readonly ChapterIn[]): MaybePromise<number>;
  /** 2. Inserts or updates (in place) every source, in one transaction; returns the count. */
  upsertSources(rows: readonly SourceIn[]): MaybePromise<number>;
  /** 3. Every book, by durChapterTime descending. */
  shelf(): MaybePromise<readonly object[]>;
  /** 3. The books whose `group` has this bit, by durChapterTime descending. */
  shelfGroup(groupId: bigint): MaybePromise<readonly object[]>;
  /** 4. Each save sets durChapterIndex, durChapterPos and durChapterTime, in its own transaction. */
  saveProgress(saves: readonly ProgressSave[]): MaybePromise<number>;
  /** 5. Each put replaces the key's value and deadline (now + ttl, or 0 for ttl 0). */
  cachePut(entries: readonly CacheEntry[]): MaybePromise<number>;
  /** 5. The values of live entries; undefined for a missing or expired key. */
  cacheGet(keys: readonly string[]): MaybePromise<readonly (string | null | undefined)[]>;
  /** 6. The chapter at each index of the book. */
  chapterAt(bookUrl: string, indexes: readonly number[]): MaybePromise<readonly (object | undefined)[]>;
  /** 6. All chapters of the book, by index. */
  chapterList(bookUrl: string): MaybePromise<readonly object[]>;
  /** 8. The book with each url (undefined for none). */
  bookAt(urls: readonly string[]): MaybePromise<readonly (object | undefined)[]>;
  /** 9. Inserts these chapters (the book has none yet), in one transaction; returns the count. */
  insertChapters(bookUrl: string, chapters: readonly ChapterIn[]): MaybePromise<number>;
  /**
   * 14. Each save as one transaction call around its update: `store.transaction(fn)` against a
   * transaction function made once. Optional: the store and raw have it.
   */
  transactionCalls?(saves: readonly ProgressSave[]): MaybePromise<number>;
  close(): MaybePromise<void>;
}

/** What a session is opened for: the table the workload writes (listener contenders watch it, or another). */
export interface SessionPurpose {
  readonly writes?: string;
}

export interface Contender {
  readonly name: string;
  /**
   * What kind of contender, for the ratios: the store, hand-written code (an ORM counts), the C
   * floor, the store with a listener, hand-written code with a listener (the same guarantee by
   * hand: the store's listener contender is judged against it), or the control (hand-written
   * code run a second time, never counted as hand-written: it shows how far identical code lands
   * from the fastest by chance), or a probe (hand-written code run where the store runs: its
   * ratio to its twin is shown beside the targets, never judged: raw-on-store.ts).
   */
  readonly kind: 'store' | 'hand' | 'floor' | 'listener' | 'hand-listener' | 'control' | 'probe';
  /**
   * For the control and a probe: the contender whose code it runs, the one it is also compared
   * with. For a hand-written listener: the store's listener contender judged against it.
   */
  readonly twin?: string;
  /** The engines it runs on (default: every one). */
  readonly engines?: readonly DriverName[];
  /** The workloads (keys) it takes part in (default: every one it has the methods for). */
  readonly only?: readonly string[];
  /** Loads what it needs on this engine before the run (modules that only some runtimes have). */
  load?(engine: DriverName): Promise<void>;
  /** A session on an existing store file, with the store's pragmas. */
  open(path: string, clock: Clock, purpose?: SessionPurpose): Session;
  /**
   * 10. Opens the file, checks it is a store it can use, and closes it. Contenders that cannot
   * check a file's schema leave it out.
   */
  openAndCheck?(path: string): void;
  /** 11, 13. Writes the tables' rows of `store` to `dir` as a Legado backup (books, sources, replace rules when not given). */
  exportBackup?(path: string, dir: string, tables?: readonly BackupTable[]): MaybePromise<number>;
  /** 11, 12. Reads the backup in `dir` into the (empty) store file at `path`. */
  importBackup?(path: string, dir: string): MaybePromise<number>;
}
