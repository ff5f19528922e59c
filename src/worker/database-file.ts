// GET /api/database in a Durable Object: the host has no file to copy and no VACUUM INTO, so
// the file is built in the Worker on SQLite WASM, in memory: the object's schema statements
// as stored (tables, indexes, views, in creation order), its rows read in a cursor,
// `user_version`. The same file a store on disk would give (the tests compare its structure
// with the app's Room facts). The file is held once, in the WASM heap, and streamed from there
// in pieces, freed when the body ends or is cancelled (memory figures: docs/worker.md).
import { databaseImage, type DatabaseFileImage, type DatabaseImage, type DatabaseObject } from '../engine/drivers/wasm-modules.js';
import type { AnyStore } from '../store/store.js';
import { OURS } from './durable-store.js';

/** What the file of the store is built from: its schema, its rows in a cursor, its version. */
export function storeImage(store: AnyStore): DatabaseImage {
  const db = store.db;
  return {
    objects: () => db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND ${OURS} ORDER BY rowid`).all() as DatabaseObject[],
    rows: (table) =>
      db
        .prepare(`SELECT * FROM "${table.replace(/"/g, '""')}"`)
        .raw()
        // Integers exactly: the host gives doubles, and a value past 2^53 (a group mask's high
        // bits, a Long from another program) would go into the file rounded, as a REAL.
        .safeIntegers(true)
        .iterate() as IterableIterator<unknown[]>,
    sequence: () =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() === undefined
        ? []
        : (db.prepare('SELECT name, seq FROM sqlite_sequence').raw().all() as [string, number][]),
    userVersion: store.version,
  };
}

/** The store as a SQLite file in memory (the caller closes it). */
export function databaseFile(store: AnyStore): Promise<DatabaseFileImage> {
  return databaseImage(storeImage(store));
}

/** Bytes a piece of the body: few enough that a piece's copy is small beside the file. */
const PIECE = 256 * 1024;

/** The file as a stream of pieces copied out one at a time; the image is freed at its end or cancel. */
export function fileStream(file: DatabaseFileImage, piece = PIECE): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset < file.size) {
          const n = Math.min(piece, file.size - offset);
          controller.enqueue(file.read(offset, n));
          offset += n;
        }
        if (offset >= file.size) {
          file.close();
          controller.close();
        }
      },
      cancel() {
        file.close();
      },
    },
    // Nothing read ahead: a piece is copied when the body asks for it.
    { highWaterMark: 0 },
  );
}

/** workerd's stream of a declared length (a Response of it carries Content-Length; a plain stream's would be dropped for chunked encoding). */
declare const FixedLengthStream: (new (length: number) => TransformStream<Uint8Array, Uint8Array>) | undefined;

/** The body of `size` bytes from `stream`, with its length kept where the host needs it said so. */
function sized(stream: ReadableStream<Uint8Array>, size: number): ReadableStream<Uint8Array> {
  if (typeof FixedLengthStream === 'undefined') return stream;
  const fixed = new FixedLengthStream(size);
  // A reader that goes away cancels the pipe, and so the file stream, which frees the image.
  void stream.pipeTo(fixed.writable).catch(() => {});
  return fixed.readable;
}

export async function databaseResponse(store: AnyStore): Promise<Response> {
  const file = await databaseFile(store);
  return new Response(sized(fileStream(file), file.size), {
    headers: {
      'Content-Type': 'application/vnd.sqlite3',
      'Content-Disposition': 'attachment; filename="legado.db"',
      'Content-Length': String(file.size),
    },
  });
}
