// The SQLite WASM adapter: the official build (@sqlite.org/sqlite-wasm) behind the seam, for
// browsers (and any JavaScript runtime with WebAssembly). Its parts are in wasm/: load.ts
// (loading the module, one driver per storage), engine.ts (the driver), storage-memory.ts and
// storage-opfs.ts (the two storages), connection.ts, statement.ts, bind.ts (binding values
// through the module's exports), c-exports.ts, sqlite-error.ts, capabilities.ts.
export type { WasmStorage } from './wasm-storage.js';
export { loadSqliteWasm, loadWasmDriver, type WasmDriverOptions } from './wasm/load.js';
export type { WasmDriver } from './wasm/engine.js';
export { SqliteError } from './wasm/sqlite-error.js';
export { WASM_CAPABILITIES } from './wasm/capabilities.js';
export { WasmConnection } from './wasm/connection.js';
