// The WASM engine's storages, apart from the adapter: the browser entry's declarations name them,
// and must not pull in @sqlite.org/sqlite-wasm's types (built into the bundle, not installed).
export type WasmStorage = 'opfs' | 'memory';
