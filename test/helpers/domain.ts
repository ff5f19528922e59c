// Fixtures for the domain tests: a store with a fixed clock, and compact row builders.
import { join } from 'node:path';
import { openStore, type NewRow, type OpenOptions, type Store } from 'legado-store';
import { tempDir } from './files.js';

export const T0 = 1_700_000_000_000;

/** A clock the test moves by hand. */
export class FakeClock {
  now = T0;
  readonly read = (): number => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

// Made when the test file loads, so it lasts until the file's last test.
const dir = tempDir('legado-domain-');
let n = 0;

/** A new schema-62 file store (special groups inserted, as openStore does for new files). */
export function newStore(options: OpenOptions & { schema?: 62 } = {}): Store<62> {
  return openStore(join(dir, `d${n++}.db`), options);
}

/** A new schema-49 file store. */
export function newStore49(options: OpenOptions = {}): Store<49> {
  return openStore(join(dir, `d${n++}.db`), { ...options, schema: 49 });
}

export function book(bookUrl: string, fields: Partial<NewRow<'books'>> = {}): NewRow<'books'> {
  return { bookUrl, name: bookUrl, author: 'a', origin: 'https://src.example.org', type: 8, ...fields };
}

export function chapter(bookUrl: string, index: number, fields: Partial<NewRow<'chapters'>> = {}): NewRow<'chapters'> {
  return { url: `${bookUrl}/c${index}`, title: `第${index + 1}章`, isVolume: false, baseUrl: bookUrl, bookUrl, index, isVip: false, isPay: false, ...fields };
}

/** One value from raw SQL on the store's connection (not through the API under test). */
export function raw<T = unknown>(store: Store<62> | Store<49>, sql: string, ...params: unknown[]): T {
  return store.db.prepare(sql).safeIntegers(true).pluck().get(...params) as T;
}

export function rawAll<T = unknown>(store: Store<62> | Store<49>, sql: string, ...params: unknown[]): T[] {
  return store.db.prepare(sql).safeIntegers(true).pluck().all(...params) as T[];
}
