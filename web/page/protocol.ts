// Messages between the page and its worker (the worker owns the store; the page only shows).

export type Request =
  | { readonly op: 'view' }
  | { readonly op: 'load'; readonly name: string; readonly bytes: Uint8Array; readonly replace?: boolean }
  | { readonly op: 'exportBackup' }
  | { readonly op: 'exportDatabase' }
  /** Remove the library and start a new, empty one at `schema` (the newest when left out). */
  | { readonly op: 'clear'; readonly schema?: number };

export interface BookView {
  readonly name: string;
  readonly author: string;
  readonly chapter: string | null;
  /** 1-based chapter being read, and the book's chapter count (0 when unknown). */
  readonly at: number;
  readonly of: number;
  readonly lastRead: number;
}

export interface SourceView {
  readonly name: string;
  readonly url: string;
  readonly enabled: boolean;
}

export interface View {
  readonly version: number;
  /** The versions a new library can be created at, and the default (the newest). */
  readonly versions: readonly number[];
  readonly newest: number;
  readonly engine: string;
  readonly shelf: readonly { readonly group: string; readonly books: readonly BookView[] }[];
  readonly sources: readonly { readonly group: string; readonly enabled: number; readonly sources: readonly SourceView[] }[];
  readonly counts: Readonly<Record<string, number>>;
}

/** What loading a file did: a backup or rule import's report, or a database file put in place. */
export interface LoadResult {
  readonly kind: 'backup' | 'database';
  readonly summary: string;
  /** A database file would replace a library that has books or sources: ask first. */
  readonly needsConfirm?: boolean;
}

export type Response =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: { readonly name: string; readonly code?: string | undefined; readonly message: string } };
