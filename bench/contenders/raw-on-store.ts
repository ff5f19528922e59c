// A probe, not a contender to beat: raw's own code (raw.ts, the same functions) run on the
// connection of a store opened as the store's session opens it. Its ratio to raw is what any code
// pays for running where the store runs, in a fresh session: the store's open before the clock
// (its work and the objects it leaves), its connection, the file as the open left it. The store's
// own per-call code is the rest of the store's ratio. Shown beside the targets, never judged, and
// never the fastest hand-written contender (ratios.ts).
import { openStore } from '../../src/index.js';
import type { Contender } from '../contender.js';
import { benchEngine } from '../engine.js';
import { RAW_ENGINES } from './raw-engines.js';
import { raw, rawSession } from './raw.js';

export const RAW_ON_STORE = 'raw-on-store';

/** The engine's own connection inside a store's (each driver keeps it as `db`; better-sqlite3's connection is the Database). */
function engineConnection(db: unknown, engine: string): unknown {
  const inner = engine === 'better-sqlite3' ? db : (db as { db?: unknown }).db;
  if (inner === undefined || inner === null) throw new Error(`${RAW_ON_STORE}: no ${engine} connection inside the store's`);
  return inner;
}

export const rawOnStore: Contender = {
  name: RAW_ON_STORE,
  kind: 'probe',
  twin: raw.name,
  // WASM's raw code runs on a module of its own, which cannot step the store's statements.
  engines: ['better-sqlite3', 'node:sqlite', 'bun:sqlite'],
  open(path, clock) {
    const engine = benchEngine();
    // As legado-store.ts opens its sessions.
    const store = openStore(path, { driver: engine.driver, schema: 62, clock: () => clock.now });
    try {
      const session = rawSession(RAW_ENGINES[engine.name](path, engineConnection(store.db, engine.name)), clock, false);
      return { ...session, close: () => store.close() };
    } catch (e) {
      store.close();
      throw e;
    }
  },
};
