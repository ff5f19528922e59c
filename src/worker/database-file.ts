// GET /api/database in a Durable Object: the host has no file to copy and no VACUUM INTO, so
// the file is built in the Worker on SQLite WASM, in memory: the object's schema statements
// as stored (tables, indexes, views, in creation order), its rows, `user_version`, then the
// image SQLite writes. The same file a store on disk would give (the tests compare its
// structure with the app's Room facts). Held in memory whole: a Durable Object has 128 MB,
// far above the largest real stores (docs/worker.md).
import { sqliteFromModules } from '../engine/drivers/wasm-modules.js';
import type { AnyStore } from '../store/store.js';
import { OURS } from './durable-store.js';

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The store as the bytes of a SQLite file. */
export async function databaseBytes(store: AnyStore): Promise<Uint8Array> {
  const sqlite3 = await sqliteFromModules();
  const db = store.db;
  const out = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    const objects = db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND ${OURS} ORDER BY rowid`).all() as { type: string; name: string; sql: string }[];
    out.exec('BEGIN');
    // Tables first with their rows, then indexes, views and triggers (as a VACUUM INTO lays them out).
    for (const o of objects.filter((x) => x.type === 'table')) {
      out.exec(o.sql);
      const select = db.prepare(`SELECT * FROM ${q(o.name)}`).raw();
      let insert: ReturnType<typeof out.prepare> | undefined;
      for (const row of select.iterate() as IterableIterator<unknown[]>) {
        insert ??= out.prepare(`INSERT INTO ${q(o.name)} VALUES (${row.map(() => '?').join(', ')})`);
        insert.bind(row as never).stepReset();
      }
      insert?.finalize();
    }
    for (const o of objects.filter((x) => x.type !== 'table')) out.exec(o.sql);
    const hasSequence = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
    if (hasSequence) {
      for (const [name, seq] of db.prepare('SELECT name, seq FROM sqlite_sequence').raw().all() as [string, number][]) {
        out.exec({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', bind: [name, seq] });
      }
    }
    out.exec('COMMIT');
    out.exec(`PRAGMA user_version = ${store.version}`);
    return sqlite3.capi.sqlite3_js_db_export(out.pointer!);
  } finally {
    out.close();
  }
}

export async function databaseResponse(store: AnyStore): Promise<Response> {
  const bytes = await databaseBytes(store);
  return new Response(bytes, {
    headers: { 'Content-Type': 'application/vnd.sqlite3', 'Content-Disposition': 'attachment; filename="legado.db"', 'Content-Length': String(bytes.byteLength) },
  });
}
