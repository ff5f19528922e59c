// The QuickJS build's .wasm as wrangler bundles it: a compiled WebAssembly.Module.
declare module '@jitl/quickjs-wasmfile-release-asyncify/wasm' {
  const module: object;
  export default module;
}
