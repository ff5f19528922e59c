// Fixtures for the domain tests: a store with a fixed clock; the row builders are in builders.ts.
import { join } from 'node:path';
import { openStore, type OpenOptions, type Store } from 'legado-store';
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

/**
 * The version the domain suites run at: 62, or the one LEGADO_TEST_SCHEMA names (domain-versions
 * runs them again at later versions, whose columns are 62's plus some, so 62's types serve).
 */
export const DOMAIN_SCHEMA = Number(process.env.LEGADO_TEST_SCHEMA ?? 62) as 62;

/** A new file store at DOMAIN_SCHEMA (special groups inserted, as openStore does for new files). */
export function newStore(options: OpenOptions & { schema?: 62 } = {}): Store<62> {
  return openStore(join(dir, `d${n++}.db`), { ...options, schema: DOMAIN_SCHEMA });
}

/** A new schema-49 file store. */
export function newStore49(options: OpenOptions = {}): Store<49> {
  return openStore(join(dir, `d${n++}.db`), { ...options, schema: 49 });
}

export { book, chapter, source } from './builders.js';

/** One value from raw SQL on the store's connection (not through the API under test). */
export function raw<T = unknown>(store: Store<62> | Store<49>, sql: string, ...params: unknown[]): T {
  return store.db
    .prepare(sql)
    .safeIntegers(true)
    .pluck()
    .get(...params) as T;
}

export function rawAll<T = unknown>(store: Store<62> | Store<49>, sql: string, ...params: unknown[]): T[] {
  return store.db
    .prepare(sql)
    .safeIntegers(true)
    .pluck()
    .all(...params) as T[];
}
