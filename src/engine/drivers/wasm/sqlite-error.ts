// SQLite's failures in the WASM adapter, as the engine errors every adapter raises.
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';

/** An engine error: `code` is SQLite's extended result-code name, as on every other engine. */
export class SqliteError extends Error {
  override readonly name = 'SqliteError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** An error from the WASM layer as an engine error with SQLite's result-code name. */
export function engineError(sqlite3: Sqlite3Static, e: unknown): unknown {
  if (e instanceof sqlite3.SQLite3Error) {
    const code = sqlite3.capi.sqlite3_js_rc_str(e.resultCode) ?? 'SQLITE_ERROR';
    // oo1 prefixes "<code>: sqlite3 result code <n>: "; the engines' messages are SQLite's own.
    return new SqliteError(e.message.replace(/^SQLITE_\w+: sqlite3 result code \d+: /, ''), code);
  }
  return e;
}
