// Wrangler bundles a .wasm import as a compiled WebAssembly.Module (its CompiledWasm rule).
declare module '@sqlite.org/sqlite-wasm/sqlite3.wasm' {
  const module: unknown;
  export default module;
}
