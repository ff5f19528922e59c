// What every route of the app's API is given: the store, the options, and the raw request body.
import type { BookshelfSortValue } from '../domain/books.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';
import type { RemoteProgress } from '../webdav/progress-file.js';
import type { AsyncRuleRunner, BookStorage } from '../localbook/api.js';
import type { HostFetch } from '../net/fetch.js';
import type { ChapterCache, ShelfEngine } from '../sources/shelf/index.js';

/** A reading position to upload to the app's WebDAV folder (the app's BookProgress) and the book it is of. */
export type ProgressUpload = RemoteProgress & { readonly bookUrl: string };

export interface ServeOptions {
  /** The app's `bookshelfSort` preference, which the store does not hold: 0 (the app's default) last read, 1 latest chapter, 2 name, 3 manual. */
  readonly bookshelfSort?: BookshelfSortValue;
  /** Largest request body in bytes (default 32 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /** HTTP Basic credentials every request must carry (required off 127.0.0.1 by the CLI). */
  readonly auth?: { readonly user: string; readonly password: string } | undefined;
  /** Origins (`scheme://host[:port]`, normalised: origin-policy.ts) of pages elsewhere that may read and write, with a CORS grant; others may change nothing. */
  readonly corsOrigins?: readonly string[] | undefined;
  /** Host header values answered (`name:port`, or `name` on any port); undefined: any (a server behind credentials). Others get 421. */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * Uploads a book's progress to the app's WebDAV folder and records the sync (syncTime);
   * resolves false, never rejects, when the upload failed. None: nothing is uploaded.
   */
  readonly uploadProgress?: ((progress: ProgressUpload) => Promise<boolean>) | undefined;
  /** A static file for a path no endpoint takes (the app's `assets/web`); undefined when there is none. */
  readonly staticFile?: ((path: string, request: Request) => Promise<Response | undefined>) | undefined;
  /** Where local book files are kept (a folder on Node); none: local books are not read. */
  readonly bookStorage?: BookStorage;
  /**
   * Where the users' TOC and replace rules run: off the server's thread, stopped at their limit
   * inside a match (Node: worker threads). None: on this thread, checked between matches.
   */
  readonly rules?: AsyncRuleRunner | undefined;
  /** Time limit of a TOC rule (per rule when choosing, per 512,000-byte block when splitting) and the longest a replace rule gets, ms. */
  readonly ruleTimeLimitMs?: number | undefined;
  /** The store's database file, for GET /api/database (host-specific: a file copy in Node). */
  readonly databaseFile?: () => Promise<Response>;
  /**
   * Let the fetches the server makes (cover URLs) reach loopback, private, link-local and the
   * other addresses the network policy refuses (docs/network.md): a LAN, the tests. Default false.
   */
  readonly allowPrivateHosts?: boolean | undefined;
  /** Hosts those fetches reach though the policy would refuse them (`name`, `name:port`, `[v6]:port`). */
  readonly reachableHosts?: readonly string[] | undefined;
  /** The host's fetch for them (default: the platform's; Node passes one that checks resolved addresses). */
  readonly hostFetch?: HostFetch | undefined;
  /** The rule engine for web books (their TOC and chapters); none: they are answered from the store only. */
  readonly sources?: WebSources | undefined;
}

/** How the server reaches book sources: the host's engine (its network policy, its sandbox) and chapter cache. */
export interface WebSources {
  /** The store's sources and their flows (with a signal, their fetches end when it aborts). */
  readonly engine: ShelfEngine;
  /** Where fetched chapter text is kept (Node: the folder beside the store). */
  readonly cache: ChapterCache;
  /** Longest a request may wait on a source, ms (default 30,000); past it the answer is an error. */
  readonly timeoutMs?: number | undefined;
}

// The local-book API types its store as the union of store versions (store/store.ts AnyStore); the
// routes hand it this same object `as never`.
export type AnyStore = Store<SchemaVersion>;

export interface RouteContext {
  readonly store: AnyStore;
  readonly options: ServeOptions;
}

/** The app's answer when the rule engine would be needed (search, debuggers, web chapters, images). */
export const NO_ENGINE =
  'legado-store serve 不从书源获取内容（搜索、调试、未缓存的网络章节、正文图片需要阅读App）: this server answers from the store and does not fetch from book sources';
