// GET /api/database in a Durable Object: the host has no file to copy and no VACUUM INTO, so
// the file is built in the Worker on SQLite WASM, in memory: the object's schema statements
// as stored (tables, indexes, views, in creation order), its rows, `user_version`, then the
// image SQLite writes. The same file a store on disk would give (the tests compare its
// structure with the app's Room facts). Held in memory whole: a Durable Object has 128 MB,
// far above the largest real stores (docs/worker.md).
import { databaseImage, type DatabaseObject } from '../engine/drivers/wasm-modules.js';
import type { AnyStore } from '../store/store.js';
import { OURS } from './durable-store.js';

/** The store as the bytes of a SQLite file. */
export function databaseBytes(store: AnyStore): Promise<Uint8Array> {
  const db = store.db;
  return databaseImage({
    objects: () => db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND ${OURS} ORDER BY rowid`).all() as DatabaseObject[],
    rows: (table) =>
      db
        .prepare(`SELECT * FROM "${table.replace(/"/g, '""')}"`)
        .raw()
        .iterate() as IterableIterator<unknown[]>,
    sequence: () =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() === undefined
        ? []
        : (db.prepare('SELECT name, seq FROM sqlite_sequence').raw().all() as [string, number][]),
    userVersion: store.version,
  });
}

export async function databaseResponse(store: AnyStore): Promise<Response> {
  const bytes = await databaseBytes(store);
  return new Response(bytes, {
    headers: {
      'Content-Type': 'application/vnd.sqlite3',
      'Content-Disposition': 'attachment; filename="legado.db"',
      'Content-Length': String(bytes.byteLength),
    },
  });
}
